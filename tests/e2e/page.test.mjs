// End-to-end tests of planning in the page: files are read, parsed and planned in a
// Web Worker; the strategy selector re-plans in the background (the page keeps
// drawing frames), Cancel stops it, the compare view shows two plans on one scale,
// and errors from the worker reach the error box. Peaks and bounds are checked
// against the data sets' own figures (MiniMalloc's challenging set C has a lower
// bound below its 1,048,576-byte capacity), never against our earlier output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const { bench, results } = h;
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

const csv = (name) => fs.readFileSync(path.join(bench, 'minimalloc', name));
const current = () => page.evaluate(() => window.__memplan.viewer.file_name(window.__memplan.viewer.current()));

/**
 * Starts watching the main thread: animation frames ticking, and long tasks (main
 * thread busy > 50 ms, the Long Tasks API). Returns a function that stops and reports.
 */
async function watchMainThread() {
  await page.evaluate(() => {
    const w = { frames: [], longTasks: [], on: true };
    window.__watch = w;
    w.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, ms: Math.round(e.duration) });
    });
    w.observer.observe({ type: 'longtask' });
    const tick = (t) => {
      if (!w.on) return;
      w.frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  // Only what happened while the worker planned counts: other parts of the page
  // (the link fragment, share.js) do their own work after a plan is shown.
  return () => page.evaluate(() => {
    const w = window.__watch;
    w.on = false;
    w.observer.disconnect();
    const { asked, answered } = window.__memplan.planning.last;
    const during = (t) => t >= asked && t <= answered;
    return {
      seconds: (answered - asked) / 1000,
      frames: w.frames.filter(during).length,
      longTasks: w.longTasks.filter((e) => during(e.start)).map((e) => e.ms),
    };
  });
}

/** Waits until the main thread has been free of long tasks for 600 ms. */
function settle() {
  return page.evaluate(() => new Promise((resolve) => {
    let timer = setTimeout(done, 600);
    const obs = new PerformanceObserver(() => { clearTimeout(timer); timer = setTimeout(done, 600); });
    obs.observe({ type: 'longtask' });
    function done() { obs.disconnect(); resolve(); }
  }));
}

async function replan(strategy, millis) {
  await page.selectOption('#strategy', strategy);
  await page.fill('#budget', String(millis));
  await page.click('#replan');
}

test('a dropped CSV is planned in the worker; best reaches the lower bound without freezing the page', async () => {
  await h.drop(page, [['C.1048576.csv', csv('C.1048576.csv')]]);
  await page.waitForFunction(() => window.__memplan.files().includes('C.1048576.csv') && !window.__memplan.planning.busy);
  assert.equal(await current(), 'C.1048576.csv');
  const loaded = await h.summary(page);
  assert.equal(loaded.planes, 203, 'every buffer of set C');
  assert.equal(loaded.findings.length, 0);
  const greedyPeak = BigInt(loaded.peak_bytes);
  const bound = BigInt(await page.evaluate(
    () => window.__memplan.report('C.1048576.csv').lower_bound));
  assert.ok(greedyPeak > bound, `greedy ${greedyPeak} above the bound ${bound}`);
  assert.ok(bound <= 1048576n, 'set C fits its capacity');

  await settle();
  const stop = await watchMainThread();
  await replan('best', 10000);
  await page.waitForSelector('#cancel:not([hidden])');
  await page.waitForFunction(() => window.__memplan.files().includes('C.1048576.csv · best') && !window.__memplan.planning.busy,
    null, { timeout: 30000 });
  const main = await stop();
  const report = await page.evaluate(() => window.__memplan.report('C.1048576.csv · best'));
  const s = await h.summary(page);
  assert.equal(await current(), 'C.1048576.csv · best');
  assert.equal(BigInt(s.peak_bytes), bound, 'best reaches the lower bound');
  assert.equal(report.peak, s.peak_bytes);
  assert.equal(report.proven_optimal, true);
  assert.equal(s.findings.length, 0, 'the checker finds no overlap');
  assert.match(await page.textContent('#report'), /proven optimal/);
  // The main thread kept painting while the worker searched: frames ticked all
  // along and no task held the main thread (frame rates themselves depend on the
  // machine's load, so they are not asserted beyond ticking).
  const { seconds } = main;
  assert.ok(report.worker_ms > 200, `the search took ${report.worker_ms} ms, long enough to measure`);
  assert.ok(main.frames >= seconds * 5, `${main.frames} frames in ${seconds} s`);
  assert.ok(main.longTasks.every((ms) => ms < 250), `main-thread long tasks: ${main.longTasks} ms`);
  await page.screenshot({ path: path.join(results, 'page-best-1280x800.png') });
});

test('cancel stops a search and keeps the shown plan; the next plan still works', async () => {
  await h.drop(page, [['D.1048576.csv', csv('D.1048576.csv')]]);
  await page.waitForFunction(() => window.__memplan.files().includes('D.1048576.csv') && !window.__memplan.planning.busy);
  const before = (await h.summary(page)).peak_bytes;
  const files = await page.evaluate(() => window.__memplan.files().length);
  await replan('search', 60000);
  await page.waitForSelector('#cancel:not([hidden])');
  await page.waitForFunction(() => /D\.1048576\.csv: /.test(document.getElementById('progress').textContent));
  await page.click('#cancel');
  await page.waitForSelector('#cancel', { state: 'hidden', timeout: 2000 });
  assert.equal(await page.evaluate(() => window.__memplan.planning.busy), false);
  assert.equal(await current(), 'D.1048576.csv');
  assert.equal((await h.summary(page)).peak_bytes, before, 'the shown plan is kept');
  assert.equal(await page.evaluate(() => window.__memplan.files().length), files, 'no half plan added');
  assert.equal(await page.isHidden('#error'), true, 'cancelling is not an error');
  // The restarted worker plans again (it re-reads the file: its cache went with it).
  await replan('greedy-size-first-fit', 1000);
  await page.waitForFunction(() => window.__memplan.files().includes('D.1048576.csv · greedy-size-first-fit')
    && !window.__memplan.planning.busy);
  assert.equal((await h.summary(page)).planes, 213);
});

test('compare view: shared scale, peak delta equal to the difference of the two summaries', async () => {
  const peakOf = (name) => page.evaluate((n) => {
    const m = window.__memplan;
    m.viewer.select_file(m.idOf(n));
    return m.viewer.summary().peak_bytes;
  }, name);
  const a = BigInt(await peakOf('C.1048576.csv'));
  const b = BigInt(await peakOf('C.1048576.csv · best'));
  await page.selectOption('#files', { label: 'C.1048576.csv · best' });
  await page.click('#compare-open');
  await page.waitForSelector('#compare:not([hidden])');
  assert.equal(await page.isHidden('#stage'), true);
  const s = await page.evaluate(() => window.__memplan.compare.summary());
  assert.equal(await page.textContent('#cmp-label-a'), 'A: C.1048576.csv');
  assert.equal(await page.textContent('#cmp-label-b'), 'B: C.1048576.csv · best');
  const shown = await page.getAttribute('#cmp-delta', 'data-bytes');
  assert.equal(BigInt(shown), b - a, 'peak delta = B − A');
  assert.match(await page.textContent('#cmp-delta'), /^−/);
  assert.equal(s.matched, 203, 'every buffer matched by id');
  assert.ok(s.rows.length > 0 && s.rows.every((r) => r.change.startsWith('moved')));
  const first = s.rows[0];
  // Shown with a true minus sign (U+2212), as every signed number of the page.
  assert.equal(BigInt(first.delta.replace(/,/g, '').replace('\u2212', '-')), BigInt(first.address_b) - BigInt(first.address_a));
  const rows = await page.$$eval('#cmp-rows tr', (trs) => trs.length);
  assert.equal(rows, s.rows.length);
  // Same scale: equal clock widths; the peak line of B sits lower by the delta.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const [fa, fb] = await page.evaluate(() => [0, 1].map((i) => window.__memplan.compare.frame(i)));
  const plane = (f, i) => f.drawn.find((d) => d.plane === i && !d.wrapped);
  const pa = plane(fa, 0);
  const pb = plane(fb, 0);
  assert.ok(pa && pb);
  assert.ok(Math.abs(pa.rect.w - pb.rect.w) < 0.01, 'same clock scale');
  // Rectangles are snapped to whole pixels: the same bytes drawn at different heights
  // of the two halves may round to heights one pixel apart.
  assert.ok(Math.abs(pa.rect.h - pb.rect.h) <= 1, 'same byte scale ' + JSON.stringify([pa, pb]));
  assert.ok(fb.peak_y[0] > fa.peak_y[0], 'B\'s lower peak is drawn lower');
  // The CSV's capacity is the file's: both halves draw it, at one height (aligned by
  // node, B's chart is rebuilt on A's clocks and must keep it).
  assert.ok(fa.capacity_y[0] != null && fb.capacity_y[0] != null, 'capacity line in both halves');
  assert.ok(Math.abs(fa.capacity_y[0] - fb.capacity_y[0]) < 0.01, 'capacity at one height');
  // Gestures on either half move both: the wheel zooms time, a drag pans, a hover names.
  // Followed: a plane under the middle of the chart, so it stays on screen, drawn as a
  // rectangle in both halves (a plane about a pixel tall can round to the raster in one).
  const box = await page.locator('#cmp-bottom').boundingBox();
  const mid = box.width / 2;
  const k = fb.drawn.find((d) => !d.wrapped && d.rect.x < mid - 20 && d.rect.x + d.rect.w > mid + 20 &&
    d.rect.h >= 3 && plane(fa, d.plane)).plane;
  const at = async () => page.evaluate(() => [0, 1].map((i) => window.__memplan.compare.frame(i)))
    .then((fs) => fs.map((f) => plane(f, k).rect));
  const [ra, rb] = await at();
  await page.mouse.move(box.x + mid, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const [za, zb] = await at();
  assert.ok(za.w > ra.w * 1.5, `the wheel on B zooms A too: ${ra.w} -> ${za.w}`);
  assert.ok(Math.abs(za.w - zb.w) < 0.01 && Math.abs(zb.w - rb.w * za.w / ra.w) < 0.01, 'still one scale');
  await page.mouse.down();
  await page.mouse.move(box.x + mid + 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const [da, db] = await at();
  assert.ok(Math.abs(da.x - za.x - 60) < 1, `a drag on B pans A: ${za.x} -> ${da.x}`);
  assert.ok(Math.abs(db.x - zb.x - 60) < 1, 'and B');
  // Hover names the plane under the pointer (the largest one on screen in B).
  const fb2 = await page.evaluate(() => window.__memplan.compare.frame(1));
  const largest = fb2.drawn.filter((d) => !d.wrapped && d.rect.x > 0 && d.rect.x + d.rect.w < box.width && d.rect.h >= 6)
    .sort((p, q) => q.rect.h * q.rect.w - p.rect.h * p.rect.w)[0].rect;
  await page.mouse.move(box.x + largest.x + largest.w / 2, box.y + largest.y + largest.h / 2);
  await page.waitForFunction(() => document.getElementById('cmp-hover').textContent !== '');
  await page.dblclick('#cmp-bottom');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const [fa2] = await at();
  assert.ok(Math.abs(fa2.w - ra.w) < 0.01, `a double click fits again: ${ra.w} ${fa2.w}`);
  await page.screenshot({ path: path.join(results, 'page-compare-1280x800.png') });
  const big = await env.open('', { width: 1920, height: 1080 });
  await h.ready(big);
  await h.drop(big, [['C.1048576.csv', csv('C.1048576.csv')]]);
  await big.waitForFunction(() => window.__memplan.files().includes('C.1048576.csv') && !window.__memplan.planning.busy);
  await big.selectOption('#strategy', 'best');
  await big.fill('#budget', '10000');
  await big.click('#replan');
  await big.waitForFunction(() => window.__memplan.files().includes('C.1048576.csv · best') && !window.__memplan.planning.busy,
    null, { timeout: 30000 });
  await big.screenshot({ path: path.join(results, 'page-best-1920x1080.png') });
  await big.click('#compare-open');
  await big.waitForSelector('#compare:not([hidden])');
  await big.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await big.screenshot({ path: path.join(results, 'page-compare-1920x1080.png') });
  assert.deepEqual(big.consoleErrors, []);
  await big.close();
  await page.click('#cmp-close');
  assert.equal(await page.isHidden('#stage'), false);
});

test('a plan with overlapping buffers reaches the page with the checker\'s findings', async () => {
  // a and b are live together at clocks 2..3 and share bytes [32, 64); c only reuses a's bytes later.
  const text = 'id,lower,upper,size,offset\na,0,4,64,0\nb,2,6,64,32\nc,8,9,16,0\n';
  await h.drop(page, [['overlap.csv', Buffer.from(text)]]);
  await page.waitForFunction(() => window.__memplan.files().includes('overlap.csv') && !window.__memplan.planning.busy);
  assert.equal(await current(), 'overlap.csv');
  const s = await h.summary(page);
  assert.equal(s.planes, 3);
  assert.ok(s.findings.length > 0, 'the checker\'s findings are shown');
  for (const f of s.findings) assert.deepEqual(f.planes.filter((p) => p === 2), [], `c is not involved: ${f.text}`);
  const overlap = s.findings.find((f) => f.text.startsWith('plane overlap'));
  assert.ok(overlap, JSON.stringify(s.findings));
  assert.deepEqual(overlap.planes, [0, 1]);
  const [a, c] = await page.evaluate(() => [0, 2].map((i) => window.__memplan.viewer.plane_info(i)));
  assert.ok(a.findings.some((t) => t.startsWith('plane overlap')), 'hovering a names the overlap');
  assert.deepEqual(c.findings, []);
  assert.deepEqual(page.consoleErrors, []);
});

test('an Aidge log with ends past 2^64 (auto-concat on Inception blocks) opens, its broken planes named', async () => {
  // Written by the real aidge_core 0.10.1 wheel (tests/parity/wrapped_log_diff.py): sizes wrapped
  // in size_t, ends such as 18446744073709552384 (0x10000000000000300U).
  const name = 'inception-autoconcat.memory_info.txt';
  const text = fs.readFileSync(path.join(h.root, 'tests/data/formats', name));
  await h.drop(page, [[name, text]]);
  await page.waitForFunction((n) => window.__memplan.files().includes(n) && !window.__memplan.planning.busy, name);
  assert.equal(await current(), name);
  assert.equal(await page.evaluate(() => document.getElementById('error').hidden), true);
  const s = await h.summary(page);
  assert.equal(s.peak_bytes, '4224', 'Aidge\'s peak (get_peak_usage)');
  assert.equal(s.planes, 18);
  const outside = s.findings.filter((f) => f.text.startsWith('plane outside space'));
  assert.deepEqual(outside.map((f) => f.text.match(/\((\w+#\d+)\)/)[1]).sort(),
    ['i3a_b3b#0', 'i3a_b4#0', 'i3b_b2b#0', 'i3b_b3b#0', 'i3b_b4#0']);
  assert.ok(outside.some((f) => f.text.includes('wrapped part [1792, 18446744073709552384) leaves space')),
    JSON.stringify(outside));
  const f = await h.frame(page);
  assert.ok(f.drawn.length >= 18, `${f.drawn.length} parts drawn`);
  await page.screenshot({ path: path.join(results, 'page-wrapped-ends.png') });
  assert.deepEqual(page.consoleErrors, []);
});

test('a broken file planned in the worker shows its error and keeps the plan', async () => {
  const before = await h.summary(page);
  const shown = await current();
  await h.drop(page, [['broken.csv', Buffer.from('id,lower,upper,size\na,0,2,4\nb,5,3,x\n')]]);
  await page.waitForSelector('#error:not([hidden])');
  const text = await page.textContent('#error');
  assert.match(text, /^broken\.csv: line 3/, text);
  assert.equal(await current(), shown);
  assert.deepEqual(await h.summary(page), before);
  assert.ok(!(await page.evaluate(() => window.__memplan.files())).includes('broken.csv'));
  assert.deepEqual(h.outside(page, env.url), [], 'nothing left the page');
  assert.deepEqual(page.consoleErrors, []);
});

test('compare two dumps of one model: the peak delta is the difference of Aidge\'s own peaks', async () => {
  const dump = (c) => fs.readFileSync(path.join(bench, 'aidge', c, 'memory_info.txt'));
  const [a, b] = ['resnet18-single-None', 'resnet18-single-OptimizeMaxLifetimeMinSizeFirst'];
  await h.drop(page, [[`${a}.txt`, dump(a)], [`${b}.txt`, dump(b)]]);
  await page.waitForFunction((n) => window.__memplan.files().includes(n) && !window.__memplan.planning.busy, `${b}.txt`);
  await page.click('#compare-open');
  await page.waitForSelector('#compare:not([hidden])');
  await page.selectOption('#cmp-a', { label: `${a}.txt` });
  await page.selectOption('#cmp-b', { label: `${b}.txt` });
  assert.equal(await page.textContent('#cmp-label-a'), `A: ${a}.txt`);
  const expected = BigInt(h.golden(b)) - BigInt(h.golden(a));
  assert.ok(expected > 0n);
  assert.equal(BigInt(await page.getAttribute('#cmp-delta', 'data-bytes')), expected);
  const s = await page.evaluate(() => window.__memplan.compare.summary());
  assert.equal(s.only_a + s.only_b, 0, 'the same graph: every buffer matched by node name');
  assert.ok(s.matched > 40 && s.rows.length > 0, `${s.matched} matched, ${s.rows.length} changed`);
  await page.click('#cmp-close');
});
