// End-to-end tests of issue #33: an ONNX model dropped on the page, then "Deploy as
// export-cpp", shows the arena aidge-export-cpp 0.10.1's real export allocates (its
// mem_0, recorded from the real export in tests/data/recipes/export_cpp.json by
// tests/parity/recipes_diff.py), beside the graph as imported, and Compare pairs them.
// Deploying a folded ViT with Aidge's seed fusions shows the fused peak recorded from the
// real fuse_to_metaops (tests/data/recipes/fusions.json) and each step's saving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as h from './harness.mjs';

const corpus = path.join(h.root, 'tests/data/onnx/corpus');
const real = JSON.parse(fs.readFileSync(path.join(h.root, 'tests/data/recipes/export_cpp.json'), 'utf8'));

let env;
before(async () => { env = await h.start(); });
after(async () => { await env?.stop(); });

const report = (p, id) => p.evaluate((i) => {
  const v = window.__memplan.viewer;
  return v.report(i ?? v.current());
});

test('Deploy as export-cpp shows the export\'s mem_0 and says what changed', async () => {
  const p = await env.open();
  await h.ready(p);
  const model = 'mobilenet_v3_small';
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  // The menu is for models only: hidden on the sample.
  assert.equal(await p.isHidden('#deploy'), true);
  await h.drop(p, [[`${model}.onnx`, zlib.gunzipSync(fs.readFileSync(path.join(corpus, `${model}.onnx.gz`)))]]);
  await h.waitForFiles(p, n + 1);
  const imported = await report(p);
  await p.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
  const labels = await p.$$eval('#deploy option', (os) => os.map((o) => o.textContent));
  assert.ok(labels.includes('export-cpp') && labels.includes('export-cpp, int8'), labels.join(' | '));
  await p.selectOption('#deploy', { label: 'export-cpp' });
  await h.waitForFiles(p, n + 2);
  const deployed = await report(p);
  assert.equal(deployed.peak, String(real[model].mem_0), 'the real export\'s mem_0');
  assert.ok(BigInt(imported.peak) < BigInt(deployed.peak));
  const title = await p.textContent('#title');
  assert.equal(title, `${model}.onnx · export-cpp`);
  const notice = await p.textContent('#notice');
  assert.match(notice, /Deployed as export-cpp: peak 2,408,448 B, as imported [\d,]+ B \(\+[\d,]+ B\)/);
  assert.match(notice, /fused into ConvAct/); // folded under "Details"
  assert.doesNotMatch(notice, /an estimate/);
  // The deployed copy is no model: no menu on it.
  assert.equal(await p.isHidden('#deploy'), true);
  // Re-planned with best, it stays deployed: the worker deploys the model again first
  // (best of the graph as imported would be far lower: 903,168 B).
  await p.selectOption('#strategy', 'best');
  await p.click('#replan');
  await h.waitForFiles(p, n + 3);
  const best = await report(p);
  assert.equal(await p.textContent('#title'), `${model}.onnx · export-cpp · best`);
  assert.ok(BigInt(best.peak) <= BigInt(deployed.peak));
  assert.ok(BigInt(best.peak) > 903168n, `best ${best.peak} is not of the deployed graph`);
  await p.selectOption('#files', { label: `${model}.onnx · export-cpp` });
  // Compare: the model as imported against its deployment, one scale; the fused
  // meta-operators pair with the nodes they were made from (their names).
  await p.click('#compare-open');
  await p.waitForSelector('#compare:not([hidden])');
  const a = await p.$eval('#cmp-a', (s) => s.selectedOptions[0].textContent);
  const b = await p.$eval('#cmp-b', (s) => s.selectedOptions[0].textContent);
  assert.deepEqual([a, b].sort(), [`${model}.onnx`, `${model}.onnx · export-cpp`].sort());
  const rows = await p.$$eval('#cmp-rows tr', (rs) => rs.length);
  assert.ok(rows > 10, `${rows} pairs`);
  assert.deepEqual(h.outside(p, env.url), []);
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('a model the export cannot take is refused, naming the node', async () => {
  const p = await env.open();
  await h.ready(p);
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['resnext50_32x4d.onnx', zlib.gunzipSync(fs.readFileSync(path.join(corpus, 'resnext50_32x4d.onnx.gz')))]]);
  await h.waitForFiles(p, n + 1);
  await p.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
  await p.selectOption('#deploy', { label: 'export-cpp' });
  await p.waitForSelector('#error:not([hidden])');
  const error = await p.textContent('#error');
  assert.match(error, /layer1_layer1_0_conv2_Conv' \(Conv\) has no kernel in aidge-export-cpp/);
  assert.equal((await p.evaluate(() => window.__memplan.files())).length, n + 1);
  await p.close();
});

test('a graph with kinds never checked against the export is called an estimate', async () => {
  const p = await env.open();
  await h.ready(p);
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['shufflenet_v2_x0_5.onnx', zlib.gunzipSync(fs.readFileSync(path.join(corpus, 'shufflenet_v2_x0_5.onnx.gz')))]]);
  await h.waitForFiles(p, n + 1);
  await p.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
  await p.selectOption('#deploy', { label: 'export-cpp' });
  await h.waitForFiles(p, n + 2);
  // Said in the line, not folded away under Details.
  assert.match(await p.textContent('#notice'), /an estimate, not checked against the real build \(export-cpp: node kinds never checked against the real export \([^)]*Slice/);
  assert.doesNotMatch(await p.textContent('#notice details'), /an estimate/);
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('Deploy as Cortex-M int8 says in the line when its figure is an estimate', async () => {
  // ResNet-18 at 32×32: its residual Adds stay unfused int32 Adds in the real Cortex-M
  // export, which memplan does not reproduce (tests/data/recipes/cortexm_int8.json:
  // memplan's figure below the real mem_0, recorded as an estimate); SqueezeNet-1.1 has
  // none and is exact.
  const models = JSON.parse(fs.readFileSync(path.join(h.root, 'tests/data/recipes/cortexm_int8.json'), 'utf8')).models;
  const fixtures = path.join(h.root, 'tests/data/recipes/cortexm');
  for (const [name, estimate] of [['resnet18', true], ['squeezenet1_1', false]]) {
    const r = models.find((m) => m.model === name && m.size === 32);
    assert.equal(r.estimate, estimate, `${name}: the record`);
    const p = await env.open();
    await h.ready(p);
    const n = (await p.evaluate(() => window.__memplan.files())).length;
    const file = `${name}-32.onnx`;
    await h.drop(p, [[file, zlib.gunzipSync(fs.readFileSync(path.join(fixtures, `${file}.gz`)))]]);
    await h.waitForFiles(p, n + 1);
    await p.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
    await p.selectOption('#deploy', { label: 'cortexm-int8' });
    await h.waitForFiles(p, n + 2);
    assert.equal((await report(p)).peak, String(r.memplan), `${name}: memplan's recorded figure`);
    assert.equal(await p.textContent('#title'), `${file} · cortexm-int8`);
    const notice = await p.textContent('#notice');
    const line = notice.replace(await p.textContent('#notice details'), '');
    if (estimate) {
      assert.ok(r.memplan !== r.mem_0);
      assert.match(line, /an estimate, not checked against the real build \(cortexm-int8: quantized element-wise nodes/);
    } else {
      assert.equal(r.memplan, r.mem_0);
      assert.doesNotMatch(notice, /an estimate/);
    }
    assert.deepEqual(p.consoleErrors, []);
    await p.close();
  }
});

test('Deploy as the seed fusions shows the fused peak and what each step saved', async () => {
  // ViT-tiny folded for its input size (tests/data/onnx/fusions, tests/parity/fusion_models.py):
  // Aidge 0.10.1's fuse_to_metaops gives 12 Linear and 2 GeLU; memplan's figure in the
  // file's order is the one recorded by tests/parity/fusions_diff.py, one Aidge's runs give.
  const fusions = JSON.parse(fs.readFileSync(path.join(h.root, 'tests/data/recipes/fusions.json'), 'utf8'));
  const rec = fusions.hf_vit;
  assert.ok(rec.fused.aidge.includes(rec.fused.memplan_own_order), 'a figure Aidge gave');
  const p = await env.open();
  await h.ready(p);
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  const model = zlib.gunzipSync(fs.readFileSync(path.join(h.root, 'tests/data/onnx/fusions/hf_vit.onnx.gz')));
  await h.drop(p, [['hf_vit.onnx', model]]);
  await h.waitForFiles(p, n + 1);
  const imported = await report(p);
  assert.equal(imported.peak, String(rec.plain.memplan_own_order));
  await p.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
  const label = 'fuse-linear, fuse-layernorm, fuse-attention, fuse-gelu';
  const labels = await p.$$eval('#deploy option', (os) => os.map((o) => o.textContent));
  assert.ok(labels.includes(label), labels.join(' | '));
  await p.selectOption('#deploy', { label });
  await h.waitForFiles(p, n + 2);
  const deployed = await report(p);
  assert.equal(deployed.peak, String(rec.fused.memplan_own_order), 'the recorded fused peak');
  assert.equal(await p.textContent('#title'), `hf_vit.onnx · ${label}`);
  const notice = await p.textContent('#notice');
  assert.match(notice, /Deployed as fuse-linear, fuse-layernorm, fuse-attention, fuse-gelu: peak 95,744 B, as imported 130,560 B \(−34,816 B\)/);
  assert.doesNotMatch(notice, /an estimate/);
  // Under Details: what was fused, and the default plan's peak after each step.
  const details = await p.textContent('#notice details');
  assert.match(details, /12 × MatMul and Add fused into Linear/);
  assert.match(details, /2 × Div, Erf, Add, Mul and Mul fused into GeLU/);
  assert.match(details, /Aidge's default plan: 130,560 B as given → 130,560 B with fuse-linear \(no change\) → 130,560 B with fuse-layernorm \(no change\) → 130,560 B with fuse-attention \(no change\) → 95,744 B with fuse-gelu \(−34,816 B\)/);
  assert.deepEqual(h.outside(p, env.url), []);
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});
