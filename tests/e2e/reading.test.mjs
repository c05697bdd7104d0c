// End-to-end tests of issue #39, items 7, 8 and 11, on real dumps (tests/data): names
// that still tell the boxes apart at fit view, each framework's own words (no Aidge
// "planes", "spaces", "Producers" or "stride × length × count" on a TFLM, XLA or
// ExecuTorch plan; TFLM's figure its arena head), tooltips with what the dump says of a
// tensor (shape, type, index, ExecuTorch's module and source line), the node at each
// clock on the x axis; and what users of memory profilers look for: what is live at
// any clock, a sortable table of every buffer, bytes by operator type, and from a
// buffer to its node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const data = path.join(h.root, 'tests/data');
const read = (file) => fs.readFileSync(path.join(data, file));
let env;
let page;

before(async () => {
  env = await h.start();
  page = await env.open('', { width: 1440, height: 900 });
  await h.ready(page);
});

after(async () => {
  await env?.stop();
});

/** Drops `files` (paths under tests/data), waits for the plan, returns its summary. */
async function open(...files) {
  const n = (await page.evaluate(() => window.__memplan.files())).length;
  await h.drop(page, files.map((f) => [path.basename(f), read(f)]));
  await h.waitForFiles(page, n + 1);
  assert.equal(await page.isHidden('#error'), true, `no error for ${files[0]}`);
  return h.summary(page);
}

/** The panel's statistics as `[label, value]` pairs. */
const stats = () => page.evaluate(() => {
  const dl = document.getElementById('stats');
  return [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? '']);
});

/** The tooltip of the first drawn plane of plane index `plane` (or the largest drawn). */
async function tooltipOf(pick) {
  const f = await h.frame(page);
  const d = pick(f.drawn);
  assert.ok(d, 'a plane to hover');
  const box = await page.locator('#chart').boundingBox();
  await page.mouse.move(box.x + d.rect.x + d.rect.w / 2, box.y + d.rect.y + d.rect.h / 2);
  await page.waitForSelector('#tooltip:not([hidden])');
  const text = await page.textContent('#tooltip');
  await page.mouse.move(1, 1);
  return { text, plane: d.plane };
}

const largest = (drawn) => drawn.filter((d) => !d.wrapped).sort((a, b) => b.rect.w * b.rect.h - a.rect.w * a.rect.h)[0];
const AIDGE_WORDS = /\bplanes?\b|\bspaces?\b|Producers|stride × length × count/i;

test('item 7: at fit view the labels of a TFLite model tell its tensors apart', async () => {
  await open('tflm/dag6.tflite');
  // Names on (the N key, or the Names button).
  if (!(await page.evaluate(() => window.__memplan.viewer.names()))) await page.click('#names');
  const f = await h.frame(page);
  const labels = f.labels.map((l) => l[2]);
  assert.ok(labels.length >= 8, `${labels.length} labels drawn: ${labels}`);
  // Every tensor of the model is named functional_1_1/…: a label shorter than its name
  // leaves that start out (the old page drew "functional…" on every box).
  const names = await page.evaluate(() => window.__memplan.viewer.table('name', false, 1000).rows.map((r) => r.cells[0]));
  const short = labels.filter((l) => !names.includes(l));
  assert.ok(short.length >= 4, `shortened labels: ${short.join(' | ')}`);
  assert.equal(short.filter((l) => l.startsWith('functional')).length, 0, `labels: ${labels.join(' | ')}`);
  assert.ok(new Set(labels).size >= labels.length - 1, `labels repeat: ${labels.join(' | ')}`);
  assert.ok(labels.some((l) => /conv2d_\d+/.test(l)), `labels: ${labels.join(' | ')}`);
  await page.screenshot({ path: path.join(h.results, 'reading-dag6-1440x900.png') });
});

test('item 7: hex addresses of a large plan are not cut at the canvas\'s left edge', async () => {
  // SOMAS's BERT-base: 15.7 GB, hex ticks of eleven characters (0x3B9ACA000).
  await open('bench/idealloc/somas_bert_base.csv');
  if (!(await page.evaluate(() => window.__memplan.viewer.hex()))) await page.click('#hex');
  await h.frame(page);
  // Nothing is drawn in the first columns of the canvas: a label cut there would be.
  const inked = await page.evaluate(() => {
    const c = document.getElementById('chart');
    const ctx = c.getContext('2d');
    const { data } = ctx.getImageData(0, 0, 3, c.height);
    let n = 0;
    // Ink: a dark, opaque pixel (the background is white; the canvas's last row can be
    // partly transparent).
    for (let i = 0; i < data.length; i += 4) if (Math.min(data[i], data[i + 1], data[i + 2]) < 160 && data[i + 3] > 200) n++;
    return n;
  });
  assert.equal(inked, 0, 'pixels of a cut label at the left edge');
  await page.screenshot({ path: path.join(h.results, 'reading-hex-1440x900.png') });
  await page.click('#hex');
});

test('item 8: TFLM\'s words, its arena head, tensor facts in the tooltip, operators under the clocks', async () => {
  const s = await open('tflm/dag21.tflite');
  const st = await stats();
  const labels = st.map(([k]) => k);
  assert.ok(labels.includes('Arena head'), `stats: ${labels}`);
  assert.ok(!labels.includes('Peak'), `stats: ${labels}`);
  assert.ok(labels.includes('Buffers') && labels.includes('Operators'), `stats: ${labels}`);
  assert.equal(st.filter(([k]) => AIDGE_WORDS.test(k)).length, 0, `Aidge's words on a TFLM plan: ${labels}`);
  // "reached at" and "Live at clock N (the peak)" agree: N is in a span the head is held.
  const reached = st.find(([k]) => /reached at/.test(k));
  const title = await page.textContent('#live-title');
  const at = Number(title.match(/clock (\d+) \(the peak\)/)[1]);
  const spans = reached[1].split(', ').map((x) => x.split('–').map(Number));
  assert.ok(spans.some(([a, b = a]) => a <= at && at <= b), `${reached[1]} vs ${title}`);
  assert.equal(s.words.key, 'tflm');
  // The tooltip: the writer (an operator), the tensor's index, shape and type.
  const { text } = await tooltipOf(largest);
  assert.match(text, /operator/);
  assert.match(text, /tensor#\d+/);
  assert.match(text, /shape\d+( × \d+)+/);
  assert.match(text, /typeint8/);
  assert.doesNotMatch(text, AIDGE_WORDS);
  // The x axis names the operator at the clock ticks.
  const f = await h.frame(page);
  assert.ok(f.tick_names.length >= 3, `tick names: ${JSON.stringify(f.tick_names)}`);
  assert.ok(f.tick_names.some(([, n]) => /CONV_2D|conv2d/i.test(n)), JSON.stringify(f.tick_names));
  // The short help says the format's own words.
  assert.match(await page.textContent('#help-text'), /kTensorArenaSize/);
});

test('item 8: XLA and ExecuTorch speak their own words; ExecuTorch says the module and source line', async () => {
  await open('xla/cnn.cpu_after_optimizations-buffer-assignment.txt', 'xla/cnn.cpu_after_optimizations-live-range.txt');
  let st = await stats();
  assert.equal(st.filter(([k]) => AIDGE_WORDS.test(k)).length, 0, `XLA: ${st.map(([k]) => k)}`);
  assert.ok(st.some(([k]) => k === 'Values'), `XLA: ${st.map(([k]) => k)}`);
  let tip = (await tooltipOf(largest)).text;
  assert.match(tip, /shape\d+/, tip);
  assert.match(tip, /typef32/, tip);
  assert.doesNotMatch(tip, AIDGE_WORDS);

  await open('executorch/cnn.trace.json');
  st = await stats();
  assert.equal(st.filter(([k]) => AIDGE_WORDS.test(k)).length, 0, `ExecuTorch: ${st.map(([k]) => k)}`);
  assert.ok(st.some(([k]) => k === 'Tensors'), `ExecuTorch: ${st.map(([k]) => k)}`);
  // The first convolution: computed by module c1 at gen.py:52.
  const conv = await page.evaluate(() => window.__memplan.viewer.table('name', false, 1000).rows
    .find((r) => r.cells[0] === 'aten_convolution_default').plane);
  tip = (await tooltipOf((drawn) => drawn.find((d) => d.plane === conv && !d.wrapped))).text;
  assert.match(tip, /modulec1/, tip);
  assert.match(tip, /sourcegen\.py:52 +x = /, tip);
  assert.doesNotMatch(tip, AIDGE_WORDS);
  // Aidge's own plans keep Aidge's words.
  await page.selectOption('#files', { index: 0 });
  await page.waitForFunction(() => window.__memplan.summary()?.words.key !== 'executorch');
  st = await stats();
  assert.ok(st.some(([k]) => k === 'Planes') && st.some(([k]) => k === 'Spaces'), `Aidge: ${st.map(([k]) => k)}`);
});

test('item 11: what is live at any clock, by a click on the chart, typed, stepped', async () => {
  await open('tflm/dag10.tflite');
  const s = await h.summary(page);
  const peakTitle = await page.textContent('#live-title');
  assert.match(peakTitle, /\(the peak\)/);
  // A click on the clock axis under the chart lists what is live then and marks it.
  const box = await page.locator('#chart').boundingBox();
  const f0 = await h.frame(page);
  const d = f0.drawn.find((x) => x.rect.w > 20) ?? f0.drawn[0];
  const axisY = box.y + box.height - 30;
  await page.mouse.click(box.x + d.rect.x + d.rect.w / 2, axisY);
  await page.waitForFunction(() => window.__memplan.viewer.clock() != null);
  const title = await page.textContent('#live-title');
  const t = Number(title.match(/Live at clock (\d+)/)[1]);
  assert.equal(await page.evaluate(() => window.__memplan.viewer.clock()), t);
  assert.equal(await page.inputValue('#clock'), String(t));
  const f = await h.frame(page);
  assert.ok(f.clock_x != null, 'the clock is marked on the chart');
  // The list is the buffers live at t: each row's plane is live then.
  const rows = await page.$$eval('#live [data-plane]', (bs) => bs.map((b) => b.textContent));
  assert.ok(rows.length > 0);
  const live = await page.evaluate((c) => window.__memplan.viewer.live_at(c), t);
  assert.equal(live.clock, t);
  assert.deepEqual(rows, live.rows.map((r) => `${r.name} — ${r.size}` + (r.sets_peak ? ' · sets the peak' : '')));
  assert.match(await page.textContent('#live-note'), /operator: /);
  // Stepping: the next clock, then back to the peak.
  await page.click('#clock-next');
  await page.waitForFunction((c) => document.getElementById('clock').value === String(c + 1), t);
  assert.match(await page.textContent('#live-title'), new RegExp(`Live at clock ${t + 1}`));
  await page.fill('#clock', '0');
  await page.dispatchEvent('#clock', 'change');
  await page.waitForFunction(() => /Live at clock 0/.test(document.getElementById('live-title').textContent));
  // Bytes by operator type at that clock: typed TFLM operators, shares summing to ~100 %.
  const kinds = await page.$$eval('#kinds li', (lis) => lis.map((li) => li.textContent));
  assert.ok(kinds.length >= 1, 'a breakdown by operator type');
  await page.click('#clock-peak');
  assert.equal(await page.textContent('#live-title'), peakTitle);
  const kindsAtPeak = await page.$$eval('#kinds li', (lis) => lis.map((li) => li.textContent));
  assert.ok(kindsAtPeak.some((k) => /CONV_2D/.test(k)), `by kind: ${kindsAtPeak}`);
  const shares = kindsAtPeak.map((k) => Number(k.match(/([\d.]+) %/)[1]));
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 100) < 0.5, `${shares}`);
  assert.ok(s.lanes[0].by_kind.length >= 1);
});

test('item 11: a sortable table of every buffer; from a buffer to its node and clock', async () => {
  const s = await h.summary(page);
  await page.click('#table-box summary');
  const heads = await page.$$eval('#table-head th', (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(heads.map((x) => x.replace(/ [▲▼]$/, '')), ['buffer', 'operator', 'size', 'from', 'to', 'offset']);
  const count = await page.$$eval('#table-rows tr', (trs) => trs.length);
  assert.equal(count, s.planes, 'every buffer of a small model is listed');
  // Sorted by size, largest first; then by offset, ascending, then descending.
  const column = (k) => page.$$eval('#table-rows tr', (trs, i) => trs.map((tr) => tr.children[i].textContent), k);
  assert.equal(await page.getAttribute('#table-head th:nth-child(3)', 'aria-sort'), 'descending', 'largest first');
  await page.click('#table-head th:nth-child(6) button');
  const offsets = (await column(5)).map((x) => Number(x.replace(/,/g, '')));
  for (let i = 1; i < offsets.length; i++) assert.ok(offsets[i - 1] <= offsets[i], `offsets ascend: ${offsets}`);
  assert.equal(await page.getAttribute('#table-head th:nth-child(6)', 'aria-sort'), 'ascending');
  await page.click('#table-head th:nth-child(6) button');
  assert.equal(await page.getAttribute('#table-head th:nth-child(6)', 'aria-sort'), 'descending');
  // A row pins its buffer; the pinned buffer names its operator and leads to its clock.
  const name = await page.textContent('#table-rows tr:first-child th');
  const writer = await page.textContent('#table-rows tr:first-child td:nth-child(2)');
  const from = await page.textContent('#table-rows tr:first-child td:nth-child(4)');
  await page.click('#table-rows tr:first-child th button');
  const pinned = await page.textContent('#pinned');
  assert.ok(pinned.includes(name), `${pinned} names ${name}`);
  assert.ok(pinned.includes(writer), `${pinned} names its operator ${writer}`);
  await page.click('#pinned-clock');
  await page.waitForFunction((c) => document.getElementById('clock').value === c, from);
  assert.match(await page.textContent('#live-title'), new RegExp(`Live at clock ${from}\\b`));
  const listed = await page.$$eval('#live [data-plane]', (bs) => bs.map((b) => b.textContent));
  assert.ok(listed.some((x) => x.startsWith(name)), `${name} is live when it is written: ${listed}`);
  await page.screenshot({ path: path.join(h.results, 'reading-table-1440x900.png'), fullPage: true });
  assert.deepEqual(h.outside(page, env.url), []);
  assert.deepEqual(page.consoleErrors, []);
});
