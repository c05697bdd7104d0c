// Issue #50, "Truth, round three", as a new user meets the page: the bound the page states
// is one Re-plan → best never goes under, and the page says on load what best reaches;
// Compare pairs the shown file with its own family; the buffers only in one plan are said
// by operator type; an IREE dump folder's other IR files are noted, never an error; on a
// phone "Deploy as" is not cut; a model named model.bin opens as a model (the core's rule).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as h from './harness.mjs';

const data = (p) => fs.readFileSync(path.join(h.root, 'tests/data', p));
const model = (p) => zlib.gunzipSync(data(p));
const report = (p) => p.evaluate(() => window.__memplan.viewer.report(window.__memplan.viewer.current()));

let env;
before(async () => { env = await h.start(); });
after(async () => { await env?.stop(); });

async function fresh(viewport) {
  const page = await env.open('', viewport);
  await h.ready(page);
  return page;
}

/** Drops `[name, bytes]` pairs and waits for `more` more files and an idle worker. */
async function dropped(page, files, more = 1) {
  const n = (await page.evaluate(() => window.__memplan.files())).length;
  await h.drop(page, files);
  await h.waitForFiles(page, n + more);
  await page.waitForFunction(() => !window.__memplan.planning.busy);
}

/** Waits until the page has asked best for the bound over every layout of what it opened. */
const floorsDone = (page) => page.waitForFunction(() => window.__memplan.planning.floorsPending === 0, null, { timeout: 60000 });

test('1. a model\'s bound is one best never goes under, and the page says what best reaches', async () => {
  const page = await fresh();
  await dropped(page, [['squeezenet1_0.onnx', model('onnx/corpus/squeezenet1_0.onnx.gz')]]);
  await floorsDone(page);
  const loaded = await report(page);
  assert.equal(loaded.bound_scope, 'layouts', JSON.stringify(loaded));
  const text = await page.textContent('#report');
  assert.match(text, /lower bound over every layout memplan makes [\d,]+ B/);
  assert.match(text, /best reaches [\d,]+ B \(−[\d.]+ %\)/);
  const s = await h.summary(page);
  assert.equal(s.bound_name, 'Lower bound');
  assert.notEqual(s.efficiency, '100.0%');
  // The chart's line is that bound.
  const f = await h.frame(page);
  assert.ok(f.lower_bound_y[0] != null, 'the bound is drawn');
  await page.selectOption('#strategy', 'best');
  await page.click('#replan');
  await page.waitForFunction(() => /· best$/.test(document.getElementById('title').textContent));
  await page.waitForFunction(() => !window.__memplan.planning.busy);
  const best = await report(page);
  assert.ok(BigInt(loaded.lower_bound) <= BigInt(best.peak), `stated ${loaded.lower_bound} > best ${best.peak}`);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('1. the sample\'s bound is not its layout\'s: efficiency below 100 % when best goes lower', async () => {
  const page = await fresh();
  await floorsDone(page);
  const r = await report(page);
  assert.equal(r.bound_scope, 'layouts', JSON.stringify(r));
  assert.ok(r.best_reaches != null);
  if (BigInt(r.best_reaches) < BigInt(r.peak)) assert.notEqual((await h.summary(page)).efficiency, '100.0%');
  await page.close();
});

test('2. Compare pairs the shown model with its own deployment, not an earlier model\'s', async () => {
  const page = await fresh();
  const deploy = async (name) => {
    await page.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
    const n = (await page.evaluate(() => window.__memplan.files())).length;
    await page.selectOption('#deploy', { label: 'export-cpp' });
    await h.waitForFiles(page, n + 1);
    await page.waitForFunction((t) => document.getElementById('title').textContent === t, `${name} · export-cpp`);
  };
  await dropped(page, [['squeezenet1_1.onnx', model('bench/models/squeezenet1_1.onnx.gz')]]);
  await deploy('squeezenet1_1.onnx');
  await page.click('#compare-open');
  await page.click('#cmp-close');
  await dropped(page, [['mobilenet_v3_small.onnx', model('onnx/corpus/mobilenet_v3_small.onnx.gz')]]);
  await deploy('mobilenet_v3_small.onnx');
  await page.click('#compare-open');
  await page.waitForSelector('#compare:not([hidden])');
  assert.equal(await page.textContent('#cmp-label-a'), 'A: mobilenet_v3_small.onnx');
  assert.match(await page.textContent('#cmp-label-b'), /^B: mobilenet_v3_small\.onnx · export-cpp/);
  await page.close();
});

test('3. Compare says what the buffers only in one plan were, by operator type', async () => {
  const page = await fresh();
  await dropped(page, [['memory_info.txt', data('vit/plain/memory_info.txt')]]);
  await dropped(page, [['memory_info.txt', data('vit/fused/memory_info.txt')]]);
  await page.click('#compare-open');
  await page.waitForSelector('#compare:not([hidden])');
  const stats = await page.textContent('#cmp-stats');
  const only = Number(stats.match(/(\d+) only in A/)[1]);
  assert.ok(only > 0, stats);
  const kinds = stats.match(/Only in A([^]*?)(Only in B|$)/)[1];
  const counted = [...kinds.matchAll(/(\d+) ([A-Za-z]\w*)/g)].reduce((t, m) => t + Number(m[1]), 0);
  assert.equal(counted, only, `${kinds}: every buffer only in A counted by type`);
  assert.match(kinds, /\d+ matmul/);
  await page.close();
});

test('4. an IREE dump folder: the IR printed after the layout pass is noted beside the plan, no error', async () => {
  const page = await fresh();
  const after = '// -----// IR Dump After LayoutSlicesPass: iree-stream-layout-slices //----- //\n'
    + 'util.func public @main() {\n  %c1280 = arith.constant 1280 : index\n'
    + '  %r, %t = stream.resource.alloca uninitialized : !stream.resource<transient>{%c1280} => !stream.timepoint\n}\n';
  await dropped(page, [['cnn.packs.mlir', data('iree/cnn.packs.mlir')], ['after_layout_slices.mlir', Buffer.from(after)]]);
  assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
  assert.match(await page.textContent('#notice'), /after_layout_slices\.mlir/);
  await page.close();
});

test('5. on a phone, Deploy as is not cut', async () => {
  const page = await fresh({ width: 390, height: 844 });
  await dropped(page, [['squeezenet1_1.onnx', model('bench/models/squeezenet1_1.onnx.gz')]]);
  await page.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
  const fit = await page.$eval('#deploy', (s) => {
    const text = s.selectedOptions[0].textContent;
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = getComputedStyle(s).font;
    return { text, scroll: s.scrollWidth, client: s.clientWidth, needed: ctx.measureText(text).width + 30 };
  });
  assert.equal(fit.text, 'Deploy as…');
  assert.ok(fit.scroll <= fit.client, JSON.stringify(fit));
  assert.ok(fit.client >= fit.needed, `the text and its arrow need ${fit.needed} px: ${JSON.stringify(fit)}`);
  await page.screenshot({ path: path.join(h.results, 'truth50-phone-deploy.png') });
  await page.close();
});

test('6. a model named model.bin opens as a model, as in the CLI', async () => {
  const page = await fresh();
  await dropped(page, [['model.bin', model('bench/models/squeezenet1_1.onnx.gz')]]);
  assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
  assert.equal(await page.textContent('#title'), 'model.bin');
  assert.equal((await report(page)).peak, '3928576', 'Aidge\'s default plan of SqueezeNet-1.1');
  // It is a model: Deploy as is offered.
  await page.waitForSelector('#deploy:not([hidden]) option[value="0"]', { state: 'attached' });
  await page.close();
});
