// End-to-end tests of the viewer in Debian's chromium (playwright-core, node:test):
// files dropped or picked in each format, names toggle, hover, zoom, a broken file,
// and no request leaving the page. Peaks are checked against Aidge's own values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const { root, bench, results, dist, golden } = h;
let env;
let url;
let browser;
let page;

before(async () => {
  env = await h.start();
  ({ url, browser } = env);
  page = await env.open();
  await h.ready(page);
});

after(async () => {
  await env?.stop();
});

const drop = (files) => h.drop(page, files);
const summary = () => h.summary(page);
const frame = () => h.frame(page);
const waitForFiles = (n) => h.waitForFiles(page, n);

/** The bench case of the page's default sample (dist/sample/manifest.json). */
function sampleCase() {
  const [name] = JSON.parse(fs.readFileSync(path.join(dist, 'sample/manifest.json'), 'utf8'));
  return name.replace(/\.memory_info\.txt$|\.json$/, '');
}

test('opens on the sample plan with Aidge\'s peak', async () => {
  assert.equal(sampleCase(), 'resnet18-multi-None');
  const s = await summary();
  assert.equal(s.peak_bytes, golden('resnet18-multi-None'));
  assert.match(await page.textContent('#peak'), /^4,014,080 B \(3\.83 MiB\)$/);
  assert.equal(s.findings.length, 0, 'the checker finds nothing wrong in an Aidge plan');
  const f = await frame();
  assert.ok(f.drawn.length > 30, `${f.drawn.length} planes drawn`);
  assert.ok(f.peak_y[0] > 0);
  await page.screenshot({ path: path.join(results, 'sample-1280x800.png') });
});

test('planes are painted where the plan says', async () => {
  // conv1_Conv writes [0, 3211264) at clock 0 (Aidge's memory_info.txt, first
  // record); relu covers it in place from clock 1, so clock 0 shows conv1's colour.
  const f = await frame();
  const conv1 = f.drawn.find((d) => d.plane === 0 && !d.wrapped);
  assert.ok(conv1, 'conv1 drawn');
  const canvasW = await page.evaluate(() => document.getElementById('chart').clientWidth);
  const plotW = canvasW - 76 - 14; // the chart's left and right margins
  // live at clocks 0 and 1: relu, written over it in place at 1, reads it then
  // (the space lives on to 2 with relu's plane only)
  const perClock = conv1.rect.w / 2;
  const { clocks } = await summary();
  assert.ok(Math.abs(perClock - plotW / clocks) < 1, `${perClock} px per clock`);
  assert.ok(Math.abs(conv1.rect.x - 76) < 1);
  const pixel = await page.evaluate(([x, y]) => {
    const c = document.getElementById('chart');
    const d = window.devicePixelRatio;
    return [...c.getContext('2d').getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data];
  }, [conv1.rect.x + perClock / 2, conv1.rect.y + conv1.rect.h / 2]);
  const info = await page.evaluate(() => window.__memplan.viewer.plane_info(0));
  assert.equal(info.node, 'conv1_Conv');
  assert.equal(info.address, '0 (0x0)');
  assert.equal(info.size, '3,211,264 B (3.06 MiB)');
  const hex = '#' + pixel.slice(0, 3).map((c) => c.toString(16).padStart(2, '0')).join('');
  assert.equal(hex, info.color);
  const peakRow = f.peak_y[0];
  const laneBottom = conv1.rect.y + conv1.rect.h;
  // conv1 spans 0 .. 3211264; the peak line sits at 4014080 on the same scale.
  const expected = laneBottom - conv1.rect.h * (4014080 / 3211264);
  assert.ok(Math.abs(peakRow - expected) < 1.5, `peak line at ${peakRow}, expected ${expected}`);
});

test('hover shows the plane under the pointer, click pins it', async () => {
  const f = await frame();
  const conv1 = f.drawn.find((d) => d.plane === 0 && !d.wrapped);
  const box = await page.locator('#chart').boundingBox();
  const x = box.x + conv1.rect.x + conv1.rect.w / 6;
  const y = box.y + conv1.rect.y + conv1.rect.h / 2;
  await page.mouse.move(x, y);
  await page.waitForSelector('#tooltip:not([hidden])');
  const text = await page.textContent('#tooltip');
  assert.match(text, /conv1_Conv/);
  assert.match(text, /3,211,264 B/);
  // conv1's own life: written at 0, read in place by relu at 1 (per-plane liveness).
  assert.match(text, /0 → 1/);
  await page.screenshot({ path: path.join(results, 'hover-1280x800.png') });
  await page.mouse.down();
  await page.mouse.up();
  assert.match(await page.textContent('#pinned'), /conv1_Conv/);
  await page.mouse.move(2, 2);
});

test('names toggle with the button and the N key', async () => {
  assert.equal((await frame()).labels.length, 0);
  await page.click('#names');
  assert.equal(await page.getAttribute('#names', 'aria-pressed'), 'true');
  const on = await frame();
  assert.ok(on.labels.length > 5, `${on.labels.length} labels`);
  await page.screenshot({ path: path.join(results, 'names-1280x800.png') });
  await page.locator('#stage').focus();
  await page.keyboard.press('n');
  assert.equal((await frame()).labels.length, 0);
  await page.keyboard.press('n');
  assert.ok((await frame()).labels.length > 5);
});

test('each format opens by drop or picker, with Aidge\'s peak', async () => {
  const cases = [
    // memplan JSON (converted from Aidge's log by `memplan convert`).
    ['squeezenet1_1-multi-None.memplan.json', path.join(root, 'tests/e2e/fixtures/squeezenet1_1-multi-None.memplan.json'), 'squeezenet1_1-multi-None'],
    // Aidge's own text log, with wrapped planes.
    ['memory_info.txt', path.join(bench, 'aidge/resnet18-single-wrap-None/memory_info.txt'), 'resnet18-single-wrap-None'],
    // MiniMalloc CSV of Aidge's memory spaces at Aidge's offsets.
    ['mobilenet_v2-multi-None.csv', path.join(bench, 'aidge-spaces/mobilenet_v2-multi-None.csv'), 'mobilenet_v2-multi-None'],
    // The wheel's planes.json dump.
    ['planes.json', path.join(bench, 'aidge/efficientnet_b0-single-wrap-None/planes.json'), 'efficientnet_b0-single-wrap-None'],
  ];
  let n = (await page.evaluate(() => window.__memplan.files())).length;
  for (const [i, [name, file, gold]] of cases.entries()) {
    if (i % 2 === 0) {
      await drop([[name, fs.readFileSync(file)]]);
    } else {
      await page.setInputFiles('#picker', { name, mimeType: 'text/plain', buffer: fs.readFileSync(file) });
    }
    n += 1;
    await waitForFiles(n);
    const s = await summary();
    assert.equal(s.peak_bytes, golden(gold), name);
    assert.equal(await page.isHidden('#error'), true, `no error for ${name}`);
    const f = await frame();
    assert.ok(f.drawn.length + f.rasterized > 10, name);
  }
  await page.screenshot({ path: path.join(results, 'wrap-1280x800.png') });
  // The list switches between opened files.
  await page.selectOption('#files', { index: 0 });
  assert.equal((await summary()).peak_bytes, golden('resnet18-multi-None'));
  // The planning line follows the file shown.
  const peak = BigInt(golden('resnet18-multi-None')).toLocaleString('en-US');
  assert.match(await page.textContent('#report'), new RegExp(`^As loaded: peak ${peak} B`));
});

test('a broken file shows where it is broken and keeps the plan shown', async () => {
  const before = await summary();
  const files = (await page.evaluate(() => window.__memplan.files())).length;
  await drop([['broken.json', Buffer.from('{"format": "memplan", "version": 1, "plan": {"steps": [}')]]);
  await page.waitForSelector('#error:not([hidden])');
  const msg = await page.textContent('#error');
  assert.match(msg, /^broken\.json: /);
  assert.match(msg, /line 1|\$/);
  assert.deepEqual(await summary(), before);
  assert.equal((await page.evaluate(() => window.__memplan.files())).length, files);
  // Names from a dump are text, never markup.
  await drop([['<img src=x onerror=alert(1)>.csv', Buffer.from('id,lower,upper,size\n<b>x</b>,0,2,16\n')]]);
  await waitForFiles(files + 1);
  assert.equal(await page.locator('#title img').count(), 0);
  assert.equal(await page.textContent('#title'), '<img src=x onerror=alert(1)>.csv');
});

test('wheel zooms, drag pans, 0 fits', async () => {
  await page.selectOption('#files', { index: 0 });
  const box = await page.locator('#chart').boundingBox();
  const full = await frame();
  await page.mouse.move(box.x + 400, box.y + 300);
  await page.mouse.wheel(0, -400);
  const zoomed = await frame();
  const w0 = full.drawn.find((d) => d.plane === 2).rect.w;
  const w1 = zoomed.drawn.find((d) => d.plane === 2)?.rect.w ?? Infinity;
  assert.ok(w1 > w0 * 1.5, `zoom in: ${w0} -> ${w1}`);
  await page.mouse.move(box.x + 400, box.y + 300);
  await page.mouse.down();
  await page.mouse.move(box.x + 500, box.y + 300, { steps: 4 });
  await page.mouse.up();
  await page.locator('#stage').focus();
  await page.keyboard.press('0');
  const fitted = await frame();
  assert.deepEqual(fitted.drawn.find((d) => d.plane === 2).rect, full.drawn.find((d) => d.plane === 2).rect);
});

test('the backing store follows devicePixelRatio', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  const hi = await ctx.newPage();
  await hi.goto(url);
  await hi.waitForFunction(() => window.__memplan && window.__memplan.ready);
  await hi.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // The CSS size is fractional when the header's height is (clientWidth rounds it).
  const [cw, ch, w, h] = await hi.evaluate(() => {
    const c = document.getElementById('chart');
    const r = c.getBoundingClientRect();
    return [r.width, r.height, c.width, c.height];
  });
  assert.equal(w, Math.round(cw * 2));
  assert.equal(h, Math.round(ch * 2));
  await hi.screenshot({ path: path.join(results, 'sample-1280x800@2x.png') });
  await ctx.close();
});

test('a phone-width window stacks the panel under a usable chart', async () => {
  const phone = await browser.newPage({ viewport: { width: 420, height: 800 } });
  await phone.goto(url);
  await phone.waitForFunction(() => window.__memplan && window.__memplan.ready);
  const [chart, panel] = await phone.evaluate(() => ['chart', 'panel'].map((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height, bottom: r.bottom };
  }));
  assert.ok(chart.width > 380 && chart.height > 280, `chart ${JSON.stringify(chart)}`);
  assert.ok(panel.top >= chart.bottom - 1, `panel ${JSON.stringify(panel)} not under the chart`);
  await phone.screenshot({ path: path.join(results, 'sample-420x800.png'), fullPage: true });
  await phone.close();
});

test('large screen, and nothing left the page', async () => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForTimeout(100);
  if ((await page.getAttribute('#names', 'aria-pressed')) !== 'true') await page.click('#names');
  const f = await frame();
  assert.ok(f.drawn.length > 30);
  assert.ok(f.labels.length > 10, `${f.labels.length} labels at 1920x1080`);
  await page.screenshot({ path: path.join(results, 'sample-1920x1080.png') });
  assert.deepEqual(h.outside(page, url), []);
  assert.deepEqual(page.consoleErrors, []);
});
