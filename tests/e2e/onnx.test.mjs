// End-to-end tests of issue #15: an .onnx model dropped on the page shows Aidge 0.10.1's
// default plan for it, then the best plan, with no framework installed. The ONNX reader
// is a second wasm module (pkg-onnx/) fetched only when a model is opened. The plans'
// peaks are the CLI's (`memplan stats`, the same reader natively), and for the bench's
// four CNNs Aidge's own (golden.log, written by the real wheel).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import * as h from './harness.mjs';

const onnxDir = path.join(h.root, 'tests/data/onnx');
/** The fixture models: name → bytes (gunzipped). */
const MODELS = {
  resnet18: path.join(h.bench, 'models/resnet18.onnx.gz'),
  mobilenet_v2: path.join(h.bench, 'models/mobilenet_v2.onnx.gz'),
  squeezenet1_1: path.join(h.bench, 'models/squeezenet1_1.onnx.gz'),
  efficientnet_b0: path.join(h.bench, 'models/efficientnet_b0.onnx.gz'),
  resnet34: path.join(onnxDir, 'resnet34.onnx.gz'),
  densenet169: path.join(onnxDir, 'densenet169.onnx.gz'),
  mobilenet_v3_large: path.join(onnxDir, 'mobilenet_v3_large.onnx.gz'),
};
const bytesOf = (file) => (file.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(file)) : fs.readFileSync(file));
/** The first byte count of a summary's text (`3,928,576 B (3.75 MiB)` → `3928576`). */
const digits = (s) => String(s).match(/[\d,]+/)[0].replace(/,/g, '');

function cli() {
  const target = process.env.CARGO_TARGET_DIR ?? path.join(h.root, 'target');
  const bin = path.join(target, 'release/memplan');
  assert.ok(fs.existsSync(bin), `no memplan binary in ${target}: run cargo build --release first`);
  return bin;
}

/** Aidge's default plan of a model as the CLI computes it: peak and lower bound. */
function cliStats(file, name) {
  const tmp = path.join(h.results, `${name}.onnx`);
  fs.writeFileSync(tmp, bytesOf(file));
  return JSON.parse(execFileSync(cli(), ['stats', '--json', tmp]));
}

/** The models served beside the page (big ones would not fit through page.evaluate). */
const served = path.join(h.dist, 'onnx-test');
let env;
before(async () => {
  fs.mkdirSync(served, { recursive: true });
  for (const [name, file] of Object.entries(MODELS)) fs.writeFileSync(path.join(served, `${name}.onnx`), bytesOf(file));
  env = await h.start();
});
after(async () => {
  await env?.stop();
  fs.rmSync(served, { recursive: true, force: true });
});

/** Drops a served model on the page, as a browser does (the page fetches its bytes first). */
async function dropServed(page, name) {
  await page.evaluate(async (n) => {
    const blob = await (await fetch(`onnx-test/${n}.onnx`)).blob();
    const dt = new DataTransfer();
    dt.items.add(new File([blob], `${n}.onnx`));
    window.__dropAt = performance.now();
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, name);
}

async function page() {
  const p = await env.open();
  await h.ready(p);
  return p;
}

/** The planning report of the file shown: strategy, peak and lower bound. */
const report = (p) => p.evaluate(() => {
  const v = window.__memplan.viewer;
  return v.current() == null ? null : v.report(v.current());
});

test('the ONNX module is not fetched until a model is opened', async () => {
  const p = await page();
  assert.ok(!p.requests.some((r) => r.includes('pkg-onnx')), 'pkg-onnx fetched for the sample');
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await dropServed(p, 'resnet18');
  await h.waitForFiles(p, n + 1);
  assert.ok(p.requests.some((r) => r.includes('pkg-onnx/memplan_bg.wasm')));
  // The conversion runs in the ONNX module's worker, not on the page's main thread:
  // the main thread's own resource timeline never fetched the module's wasm (Chromium
  // lists a module worker's script imports there too, so the .js is not the test).
  const mainThread = await p.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.ok(!mainThread.some((r) => r.includes('pkg-onnx/memplan_bg.wasm')), 'the ONNX wasm ran on the main thread');
  assert.ok(mainThread.some((r) => r.endsWith('/onnx-worker.js')), 'the ONNX worker started');
  assert.deepEqual(h.outside(p, env.url), []);
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('each model dropped shows Aidge\'s default plan, then the best plan', async () => {
  const p = await page();
  const rows = [];
  for (const [name, file] of Object.entries(MODELS)) {
    const expected = cliStats(file, name);
    const n = (await p.evaluate(() => window.__memplan.files())).length;
    await dropServed(p, name);
    await h.waitForFiles(p, n + 1);
    const aidge = await report(p);
    assert.equal(aidge.strategy, 'as-loaded', name);
    assert.equal(aidge.peak, String(expected.peak), `${name}: Aidge's default plan`);
    if (name in { resnet18: 1, mobilenet_v2: 1, squeezenet1_1: 1, efficientnet_b0: 1 }) {
      assert.equal(aidge.peak, h.golden(`${name}-multi-None`), `${name}: Aidge's own peak`);
    }
    const summary = await h.summary(p);
    assert.equal(digits(summary.peak), aidge.peak);
    await p.selectOption('#strategy', 'best');
    await p.click('#replan');
    await h.waitForFiles(p, n + 2);
    const best = await report(p);
    const ms = Math.round(await p.evaluate(() => performance.now() - window.__dropAt));
    assert.equal(best.strategy, 'best', name);
    assert.ok(BigInt(best.peak) <= BigInt(aidge.peak), `${name}: best ${best.peak} > Aidge ${aidge.peak}`);
    assert.ok(BigInt(best.peak) >= BigInt(best.lower_bound), name);
    rows.push(`${name}: Aidge ${aidge.peak} B, best ${best.peak} B (bound ${best.lower_bound} B), drop → best shown ${ms} ms`);
    await p.selectOption('#strategy', 'as-loaded');
  }
  console.log(rows.join('\n'));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('symbolic dims are asked for, the model\'s defaults filled in', async () => {
  const p = await page();
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['bert_small.onnx', bytesOf(path.join(onnxDir, 'bert_small.onnx.gz'))]]);
  const dialog = await p.waitForSelector('dialog.onnx-dims[open]');
  const fields = await dialog.$$eval('input', (xs) => xs.map((x) => [x.dataset.dim, x.value]));
  assert.deepEqual(fields, [['batch', '1'], ['sequence', '1']]);
  // Keyboard only: the first field has the focus; Tab to the second, type, Enter.
  assert.equal(await p.evaluate(() => document.activeElement.dataset.dim), 'batch');
  await p.keyboard.press('Tab');
  await p.keyboard.press('Control+A');
  await p.keyboard.type('16');
  await p.keyboard.press('Enter');
  await h.waitForFiles(p, n + 1);
  const r = await report(p);
  // The same model, dims fixed the same way, through the CLI.
  const tmp = path.join(h.results, 'bert_small.onnx');
  fs.writeFileSync(tmp, bytesOf(path.join(onnxDir, 'bert_small.onnx.gz')));
  const json = path.join(h.results, 'bert_small.memplan.json');
  execFileSync(cli(), ['convert', tmp, '-o', json, '--dims', 'sequence=16']);
  const expected = JSON.parse(execFileSync(cli(), ['stats', '--json', json]));
  assert.equal(r.peak, String(expected.peak));
  const dflt = JSON.parse(execFileSync(cli(), ['stats', '--json', tmp]));
  assert.notEqual(r.peak, String(dflt.peak), 'sequence=16 is not the default 1');
  // Escape cancels: nothing opens, no error.
  await h.drop(p, [['tiny_cnn.onnx', fs.readFileSync(path.join(onnxDir, 'tiny_cnn.onnx'))]]);
  await p.waitForSelector('dialog.onnx-dims[open]');
  await p.keyboard.press('Escape');
  await p.waitForSelector('dialog.onnx-dims', { state: 'detached' });
  assert.equal((await p.evaluate(() => window.__memplan.files())).length, n + 1);
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

/** The nodes `memplan convert` (the same reader natively) marks as sized from the model. */
function cliSized(file, name, dims = []) {
  const tmp = path.join(h.results, `${name}.onnx`);
  fs.writeFileSync(tmp, bytesOf(file));
  const json = path.join(h.results, `${name}.memplan.json`);
  execFileSync(cli(), ['convert', tmp, '-o', json, ...dims], { stdio: ['ignore', 'ignore', 'ignore'] });
  return JSON.parse(fs.readFileSync(json, 'utf8')).schedule.nodes.filter((n) => n.sized_by_model);
}

/** Pins plane `i` as a user does (its name in the search box, Enter); resolves to the side panel's text. */
async function pinPlane(p, i) {
  const { name, node } = await p.evaluate((k) => window.__memplan.viewer.plane_info(k), i);
  await p.fill('#search', name);
  await p.press('#search', 'Enter');
  await p.waitForFunction((n) => document.getElementById('pinned').textContent.startsWith(`plane${n}node`), name);
  const text = await p.textContent('#pinned');
  assert.ok(text.startsWith(`plane${name}node${node}`), text);
  return text;
}

const FROM_MODEL = "from the model, not from Aidge's kernels";

test('nodes Aidge cannot size are marked in the notice and in their planes\' details', async () => {
  const p = await page();
  // One such node (Celu, its shape in value_info), behind the symbolic-dims form.
  const generic = path.join(onnxDir, 'generic_op.onnx');
  const [celu] = cliSized(generic, 'generic_op');
  let n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['generic_op.onnx', fs.readFileSync(generic)]]);
  await p.waitForSelector('dialog.onnx-dims[open]');
  await p.keyboard.press('Enter');
  await h.waitForFiles(p, n + 1);
  await p.waitForSelector('#notice:not([hidden])');
  let notice = await p.textContent('#notice');
  // aidge_onnx has no Celu converter: its import is said first, then the node sized from the model.
  assert.ok(notice.includes(`generic_op.onnx: Aidge 0.10.1 cannot run this model: aidge_onnx's import fails at node '${celu.name}' (Celu)`), notice);
  assert.ok(notice.includes(`1 node(s) sized ${FROM_MODEL}`), notice);
  assert.ok(notice.includes(`'${celu.name}' (Celu)`), notice);
  // A corpus model with many (RegNet's grouped convolutions): counted, the first named.
  const regnet = path.join(onnxDir, 'corpus/regnet_x_400mf.onnx.gz');
  const sized = cliSized(regnet, 'regnet_x_400mf');
  assert.ok(sized.length > 8, `${sized.length} nodes sized from the model`);
  n += 1;
  await h.drop(p, [['regnet_x_400mf.onnx', bytesOf(regnet)]]);
  await h.waitForFiles(p, n + 1);
  await p.waitForFunction(() => /regnet_x_400mf/.test(document.getElementById('notice').textContent));
  notice = await p.textContent('#notice');
  // Aidge's import fails there first (a grouped Conv as a GenericOperator): said before.
  assert.ok(notice.includes("regnet_x_400mf.onnx: Aidge 0.10.1 cannot run this model: aidge_onnx's import fails at node"), notice);
  assert.ok(notice.includes(`${sized.length} node(s) sized ${FROM_MODEL}`), notice);
  assert.ok(notice.includes(`'${sized[0].name}' (${sized[0].type})`), notice);
  assert.ok(notice.includes(`and ${sized.length - 8} more`), notice);
  // A plane of such a node says it in its details; a plane of another node does not.
  const names = new Set(sized.map((x) => x.name));
  const nodes = await p.evaluate(() => {
    const v = window.__memplan.viewer;
    return Array.from({ length: v.plane_count() }, (_, i) => v.plane_info(i).node);
  });
  const marked = nodes.findIndex((x) => names.has(x));
  const plain = nodes.findIndex((x) => !names.has(x));
  assert.ok(marked >= 0 && plain >= 0);
  assert.ok((await pinPlane(p, marked)).includes(FROM_MODEL), `plane ${marked} of ${nodes[marked]}`);
  assert.ok(!(await pinPlane(p, plain)).includes(FROM_MODEL), `plane ${plain} of ${nodes[plain]}`);
  // A model without such nodes leaves no such notice.
  await dropServed(p, 'squeezenet1_1');
  await h.waitForFiles(p, n + 2);
  assert.ok(!(await p.textContent('#notice')).includes(FROM_MODEL));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

const AIDGE_CANNOT = "memplan's sizing (Aidge cannot run this model)";

test('a model Aidge cannot run is said so first, its plan labelled memplan\'s sizing', async () => {
  // BART's encoder (tests/data/onnx/families): its Expand takes a computed shape, which
  // Aidge 0.10.1's forward_dims refuses after set_datatype(float32); the CLI (the same
  // reader) marks that node and labels the plan.
  const file = path.join(onnxDir, 'families/bart_encoder.onnx.gz');
  const sized = cliSized(file, 'bart_encoder');
  assert.ok(sized.some((x) => x.type === 'Expand'), JSON.stringify(sized));
  const p = await page();
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['bart_encoder.onnx', bytesOf(file)]]);
  await h.waitForFiles(p, n + 1);
  await p.waitForFunction(() => /bart_encoder/.test(document.getElementById('notice').textContent));
  const notice = await p.textContent('#notice');
  assert.ok(notice.includes(AIDGE_CANNOT), notice);
  assert.ok(notice.includes(`'${sized[0].name}' (${sized[0].type})`), notice);
  // Which stage of Aidge fails, at which node, is said first (as the CLI's memplan JSON has it).
  const json = JSON.parse(fs.readFileSync(path.join(h.results, 'bart_encoder.memplan.json'), 'utf8'));
  const fails = json.schedule.aidge_fails;
  assert.equal(fails.stage, 'forward_dims');
  assert.ok(notice.includes(`bart_encoder.onnx: Aidge 0.10.1 cannot run this model: its forward_dims fails at node '${fails.node}' (${fails.type})`), notice);
  // A model Aidge runs says nothing of the kind.
  await dropServed(p, 'squeezenet1_1');
  await h.waitForFiles(p, n + 2);
  assert.ok(!(await p.textContent('#notice')).includes(AIDGE_CANNOT));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('a model Aidge runs on sizes of its own is planned on them, unlabelled, and says so', async () => {
  // transformers' T5LayerFF by torch's dynamo exporter (tests/data/onnx/families): the
  // ReduceMean's axes are computed, Aidge 0.10.1's forward_dims reads them as zeros and keeps
  // the tensor un-reduced, and runs the model; the page plans Aidge's sizes, as the CLI does.
  const file = path.join(onnxDir, 'families/t5_layer_ff_dynamo.onnx.gz');
  const expected = cliStats(file, 't5_layer_ff_dynamo');
  const p = await page();
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['t5_layer_ff_dynamo.onnx', bytesOf(file)]]);
  await h.waitForFiles(p, n + 1);
  await p.waitForFunction(() => /t5_layer_ff_dynamo/.test(document.getElementById('notice').textContent));
  const notice = await p.textContent('#notice');
  assert.ok(notice.includes("t5_layer_ff_dynamo.onnx: Aidge 0.10.1 sizes 1 node(s) otherwise than ONNX's rules: node 'node_mean' (ReduceMean)"), notice);
  assert.ok(notice.includes("[1, 16, 32], where ONNX's rules give [1, 16, 1]"), notice);
  assert.ok(!notice.includes(AIDGE_CANNOT), notice);
  assert.equal((await report(p)).peak, String(expected.peak));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('a model with onnxruntime\'s contrib operators opens, Aidge\'s import failure said first', async () => {
  // BERT after onnxruntime's transformer optimizer (tests/data/onnx/contrib): com.microsoft
  // EmbedLayerNormalization, Attention, SkipLayerNormalization, BiasGelu, with no shape in
  // the file for them. memplan sizes them by their schemas (checked against onnxruntime's
  // run by tests/onnx.rs); aidge_onnx 0.10.1 imports them as GenericOperator.
  const file = path.join(onnxDir, 'contrib/bert.onnx.gz');
  const stats = cliStats(file, 'contrib_bert');
  const p = await page();
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['contrib_bert.onnx', bytesOf(file)]]);
  // Its batch and sequence are symbolic: the defaults the CLI takes too (1).
  await p.waitForSelector('dialog.onnx-dims[open]');
  await p.keyboard.press('Enter');
  await h.waitForFiles(p, n + 1);
  await p.waitForFunction(() => /contrib_bert/.test(document.getElementById('notice').textContent));
  const notice = await p.textContent('#notice');
  assert.ok(notice.includes("contrib_bert.onnx: Aidge 0.10.1 cannot run this model: aidge_onnx's import fails at node 'EmbedLayerNormalization_0' (EmbedLayerNormalization)"), notice);
  assert.ok(notice.includes(AIDGE_CANNOT), notice);
  // The page's plan is the CLI's (the same reader and sizes), not a refusal.
  const r = await report(p);
  assert.equal(r.strategy, 'as-loaded');
  assert.equal(r.peak, String(stats.peak));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('a bad .onnx shows a clear message and leaves the plan shown', async () => {
  const p = await page();
  const before = await h.summary(p);
  await h.drop(p, [['unknown_op.onnx', fs.readFileSync(path.join(onnxDir, 'unknown_op.onnx'))]]);
  await p.waitForSelector('#error:not([hidden])');
  const text = await p.textContent('#error');
  assert.match(text, /unknown_op\.onnx: node '\/dw\/Sigmoid' \(op type Celu\): memplan does not know this operator/);
  await h.drop(p, [['external_data.onnx', fs.readFileSync(path.join(onnxDir, 'external_data.onnx'))]]);
  await p.waitForFunction(() => /external data/.test(document.getElementById('error').textContent));
  await h.drop(p, [['broken.onnx', Buffer.from([0x08, 0x07, 0x12, 0xff, 0x01])]]);
  await p.waitForFunction(() => /broken\.onnx: not a valid ONNX model/.test(document.getElementById('error').textContent));
  assert.deepEqual(await h.summary(p), before);
  await p.close();
});

test('<memplan-view src=model.onnx> shows the model\'s plan', async () => {
  // A documentation page beside the built site, with a model next to it.
  fs.writeFileSync(path.join(served, 'view.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="../memplan-view.js"></script>
<memplan-view id="v" src="squeezenet1_1.onnx" height="300"></memplan-view>`);
  const p = await env.open('onnx-test/view.html');
  await p.waitForFunction(() => customElements.get('memplan-view'));
  assert.equal(await p.evaluate(() => document.getElementById('v').ready), true);
  const peak = await p.evaluate(() => document.getElementById('v').viewer.summary().peak);
  assert.equal(digits(peak), h.golden('squeezenet1_1-multi-None'));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});
