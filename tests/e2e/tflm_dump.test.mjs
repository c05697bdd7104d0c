// End-to-end: TensorFlow Lite Micro's PrintMemoryPlan() output (tests/data/tflm/,
// printed by the real tflite-micro interpreter, see its README) dropped on the page
// as a TFLM user would: it opens at the peak TFLM reports, every buffer at the place
// and clocks the dump gives, named by its planner id, and re-planned by memplan in
// less than TFLM's arena.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const DATA = path.join(h.root, 'tests/data/tflm');
const dump = (m) => fs.readFileSync(path.join(DATA, `${m}.plan.txt`));
const figures = (m) => JSON.parse(fs.readFileSync(path.join(DATA, `${m}.json`), 'utf8'));
/** [size, offset, first_used, last_used] of each buffer line, read here on its own. */
const buffers = (m) => dump(m).toString().split('\n').filter((l) => l.includes('(id='))
  .map((l) => ['size', 'offset', 'first_used', 'last_used'].map((k) => Number(l.match(new RegExp(`${k}=(\\d+)`))[1])));

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

test('a TFLM dump opens at the peak TFLM reports, each buffer where the dump puts it', async () => {
  await h.drop(page, [['dag10.plan.txt', dump('dag10')]]);
  await page.waitForFunction(() => window.__memplan.files().includes('dag10.plan.txt') && !window.__memplan.planning.busy);
  const s = await h.summary(page);
  const expected = buffers('dag10');
  assert.equal(s.peak_bytes, String(figures('dag10').planner_peak), 'the planner\'s GetMaximumMemorySize()');
  assert.equal(s.planes, expected.length);
  assert.deepEqual(s.findings, []);
  const bytes = (text) => Number(text.split(' ')[0].replace(/,/g, ''));
  for (const [i, [size, offset, first, last]] of expected.entries()) {
    const info = await page.evaluate((k) => window.__memplan.viewer.plane_info(k), i);
    assert.equal(info.name, `id=${i}`);
    assert.deepEqual([bytes(info.address), bytes(info.size), info.allocated, info.last_live],
      [offset, size, first, last], `id=${i}: ${JSON.stringify(info)}`);
  }
  const f = await h.frame(page);
  // Buffers of 16 B in a 43 KB arena are thinner than a pixel: folded into the raster.
  assert.equal(f.drawn.length + f.rasterized, expected.length, 'every buffer is drawn');
  assert.ok(f.drawn.length >= 9, `${f.drawn.length} drawn as rectangles`);
  await page.screenshot({ path: path.join(h.results, 'tflm-dag10.png') });
});

test('re-planned with best, the dump needs less than TFLM\'s arena', async () => {
  const tflm = BigInt(figures('dag10').planner_peak);
  await page.selectOption('#strategy', 'best');
  await page.fill('#budget', '2000');
  await page.click('#replan');
  await page.waitForFunction(() => window.__memplan.files().includes('dag10.plan.txt · best') && !window.__memplan.planning.busy,
    null, { timeout: 30000 });
  const s = await h.summary(page);
  assert.ok(BigInt(s.peak_bytes) < tflm, `memplan ${s.peak_bytes} B, TFLM ${tflm} B`);
  assert.deepEqual(s.findings, []);
  const bound = await page.evaluate(() => window.__memplan.report('dag10.plan.txt · best').lower_bound);
  assert.equal(s.peak_bytes, bound, 'at the lower bound');
});

test('a cut TFLM dump is refused with its line and column', async () => {
  const text = dump('dag21').toString();
  const second = text.split('\r\n')[1];
  await h.drop(page, [['cut.plan.txt', text.replace(second, second.slice(0, 28))]]);
  await page.waitForFunction(() => {
    const box = document.getElementById('error');
    return !box.hidden && box.textContent.includes('cut.plan.txt');
  });
  assert.match(await page.textContent('#error'), /cut\.plan\.txt: line 2, column 29: expected a number after `offset=`/);
});
