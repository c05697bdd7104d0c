// The page opens the dumps of other frameworks (issue #16) from tests/data/{xla,iree,executorch},
// written by the real packages: the chart draws, the panel shows the framework's own peak,
// no error. XLA's buffer assignment is dropped together with its live ranges, as a user does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const { root, results } = h;
const data = path.join(root, 'tests/data');
let env;
let page;

before(async () => {
  env = await h.start();
  page = await env.open();
  await h.ready(page);
});

after(async () => {
  await env?.stop();
});

const read = (file) => fs.readFileSync(path.join(data, file));
const digits = (n) => BigInt(n).toLocaleString('en-US');

/** Drops `files`, waits for one more open file, and checks the shown plan drew without error. */
async function open(files) {
  const n = (await page.evaluate(() => window.__memplan.files())).length;
  await h.drop(page, files.map((f) => [path.basename(f), read(f)]));
  await h.waitForFiles(page, n + 1);
  assert.equal(await page.isHidden('#error'), true, `no error for ${files[0]}`);
  assert.equal((await page.evaluate(() => window.__memplan.files())).length, n + 1, 'one plan per drop');
  const f = await h.frame(page);
  assert.ok(f.drawn.length + f.rasterized >= 5, `${files[0]} drew ${f.drawn.length} planes`);
  return h.summary(page);
}

test('IREE packs open at the transient size IREE allocates', async () => {
  const line = read('iree/cnn.transients.txt').toString();
  const iree = line.match(/<transient>\{%c(\d+)/)[1];
  const s = await open(['iree/cnn.packs.mlir']);
  assert.equal(s.peak_bytes, iree);
  assert.equal(s.findings.length, 0);
  assert.match(await page.textContent('#stats'), new RegExp(`${digits(iree)} B`));
  await page.screenshot({ path: path.join(results, 'iree-cnn.png') });
});

test('ExecuTorch traces open at the buffer the program plans', async () => {
  for (const model of ['cnn', 'mlp']) {
    const planned = String(JSON.parse(read(`executorch/${model}.program.json`)).non_const_buffer_sizes[1]);
    const s = await open([`executorch/${model}.trace.json`]);
    assert.equal(s.peak_bytes, planned, model);
    assert.equal(s.lanes[0].name, 'mem_id 1');
    assert.match(await page.textContent('#stats'), new RegExp(`${digits(planned)} B`));
  }
  await page.screenshot({ path: path.join(results, 'executorch-mlp.png') });
});

test('an XLA assignment dropped with its live ranges opens as one plan, the temp buffer at XLA\'s size', async () => {
  const stem = 'xla/cnn.cpu_after_optimizations';
  const text = read(`${stem}-buffer-assignment.txt`).toString();
  const temp = text.split('\n').find((l) => l.includes('preallocated-temp'));
  const [, index, size] = temp.match(/^allocation (\d+): size (\d+)/);
  const s = await open([`${stem}-buffer-assignment.txt`, `${stem}-live-range.txt`]);
  const lane = s.lanes.find((l) => l.name === `allocation ${index} (preallocated-temp)`);
  assert.ok(lane, s.lanes.map((l) => l.name).join(', '));
  assert.equal(lane.peak_bytes, size);
  assert.equal(s.findings.length, 0);
  const stats = await page.textContent('#stats');
  assert.ok(stats.includes(`Peak of allocation ${index} (preallocated-temp)`), stats);
  assert.ok(stats.includes(`${digits(size)} B`), stats);
  await page.screenshot({ path: path.join(results, 'xla-cnn.png') });
  // The assignment alone says which file it needs.
  await h.drop(page, [[path.basename(`${stem}-buffer-assignment.txt`), Buffer.from(text)]]);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /cnn\.cpu_after_optimizations-live-range\.txt/);
});

test('a folder dropped as a folder (its entries walked, subfolders too) opens its plan and notes its other files', async () => {
  const stem = 'xla/cnn.cpu_after_optimizations';
  const files = [`${stem}-buffer-assignment.txt`, `${stem}-live-range.txt`, `${stem}-memory-usage-report.txt`,
    `${stem}-buffer-assignment-values.txt`];
  const payload = [...files.map((f) => [f, read(f).toString('base64')]),
    // XLA writes a module's input program in a folder of its own.
    ['xla/module_0022.jit_cnn/module.mlir', read('xla/cnn.stablehlo.mlir').toString('base64')]];
  const n = (await page.evaluate(() => window.__memplan.files())).length;
  await page.evaluate((items) => {
    // What the browser hands for a dropped folder: one File that cannot be read, and
    // its FileSystemDirectoryEntry, whose reader gives the entries in batches.
    const file = (path, data) => ({ isFile: true, isDirectory: false, fullPath: `/${path}`,
      file: (ok) => ok(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], path.split('/').pop())) });
    const folder = (path, children) => {
      const batches = [children.slice(0, 2), children.slice(2), []];
      return { isFile: false, isDirectory: true, fullPath: `/${path}`,
        createReader: () => { let k = 0; return { readEntries: (ok) => ok(batches[Math.min(k++, 2)]) }; } };
    };
    const top = items.filter(([p]) => p.split('/').length === 2).map(([p, d]) => file(p, d));
    const sub = items.filter(([p]) => p.split('/').length === 3).map(([p, d]) => file(p, d));
    const root = folder('xla', [...top, folder('xla/module_0022.jit_cnn', sub)]);
    const ev = new Event('drop', { cancelable: true });
    Object.defineProperty(ev, 'dataTransfer', { value: { items: [{ webkitGetAsEntry: () => root }], files: [new File([], 'xla')] } });
    window.dispatchEvent(ev);
  }, payload);
  await h.waitForFiles(page, n + 1);
  await page.waitForFunction(() => !window.__memplan.planning.busy);
  assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
  const opened = await page.evaluate(() => window.__memplan.files());
  assert.equal(opened.length, n + 1, opened.join());
  assert.equal(opened.at(-1), `${stem}-buffer-assignment.txt`);
  const notice = await page.textContent('#notice');
  for (const f of [`${stem}-memory-usage-report.txt`, `${stem}-buffer-assignment-values.txt`, 'xla/module_0022.jit_cnn/module.mlir']) {
    assert.ok(notice.includes(`${f}: `), `${f} not noted: ${notice}`);
  }
  assert.match(notice, /thread-local allocation/);
});
