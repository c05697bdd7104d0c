// End-to-end tests of the tool bar and its Export… menu (issue #39, items 2, 6 and 10)
// at the three sizes of the walkthrough: 1440×900, 1920×1080 and a 390×844 phone. The
// menu stays in the window with every format reachable and clickable; a long file name
// or a status message never changes the bar's height nor widens the page; the phone's
// bar leaves the screen to the chart and folds its other controls behind More…; Escape
// closes Export…; every format downloads under a name of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const SIZES = [{ width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }];
const vit = fs.readFileSync(path.join(h.root, 'tests/data/vit/plain/memory_info.txt'));
const LONG = 'vit_small_patch16_224.quantized-int8.exported-with-aidge-0.10.1-for-the-stm32h7-board-with-wrap-around.memory_info.txt';

let env;
before(async () => { env = await h.start(); });
after(async () => { await env?.stop(); });

async function open(viewport) {
  const page = await env.open('', viewport);
  await h.ready(page);
  return page;
}

/** Drops `bytes` as `name` and waits until it is planned and shown. */
async function dropOne(page, name, bytes) {
  const n = (await page.evaluate(() => window.__memplan.files())).length;
  await h.drop(page, [[name, bytes]]);
  await h.waitForFiles(page, n + 1);
  await page.waitForFunction(() => !window.__memplan.planning.busy);
  await h.frame(page);
}

const barHeight = (page) => page.evaluate(() => document.querySelector('header.bar').getBoundingClientRect().height);
const pageWidth = (page) => page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);

/**
 * The controls of `selector` that are shown and whose box is not wholly inside the
 * window, or whose middle is covered by something else (a click there would miss).
 */
function unreachable(page, selector) {
  return page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility()).flatMap((e) => {
    const r = e.getBoundingClientRect();
    const inside = r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const label = e.closest('label');
    const clickable = hit && (e.contains(hit) || (label && label.contains(hit)));
    return inside && clickable ? [] : [`${e.id || e.textContent.trim()} at ${Math.round(r.left)}..${Math.round(r.right)} × `
      + `${Math.round(r.top)}..${Math.round(r.bottom)}${clickable ? '' : ' (covered)'}`];
  }), selector);
}

for (const viewport of SIZES) {
  test(`${viewport.width}×${viewport.height}: Export… stays in the window, every format reachable and clickable`, async () => {
    const page = await open(viewport);
    await page.click('#export summary');
    await h.frame(page);
    const formats = await page.evaluate(() => [...document.querySelectorAll('#export .formats button')].map((b) => b.id));
    assert.ok(formats.length >= 9, `${formats}`);
    assert.deepEqual(await unreachable(page, '#export .menu-body button, #export .menu-body input, #export .menu-body select'), []);
    const [scroll, inner] = await pageWidth(page);
    assert.ok(scroll <= inner, `the page is ${scroll} px wide in a ${inner} px window`);
    // The last format downloads from where it is (no scrolling sideways to reach it).
    const last = formats[formats.length - 1];
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(`#${last}`)]);
    assert.match(d.suggestedFilename(), /\.meminfo\.h$/);
    await page.screenshot({ path: path.join(h.results, `toolbar-export-${viewport.width}.png`) });
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });

  test(`${viewport.width}×${viewport.height}: a long file name and status messages leave the tool bar as it is`, async () => {
    const page = await open(viewport);
    const start = await barHeight(page);
    await dropOne(page, LONG, vit);
    assert.equal(await barHeight(page), start, 'a long name wrapped the bar');
    // The name is cut in the bar, whole in the menu's title (and the panel's heading).
    assert.equal(await page.getAttribute('#files', 'title'), LONG);
    const files = await page.locator('#files').boundingBox();
    assert.ok(files.x + files.width <= viewport.width, `the file menu ends at ${files.x + files.width} px`);
    // Re-planning says what it does in the bar (file name, stage, the search's figures):
    // the bar's height at every change of that text.
    await page.evaluate(() => {
      window.__heights = [];
      const bar = document.querySelector('header.bar');
      new MutationObserver(() => {
        const text = document.getElementById('progress').textContent;
        if (text) window.__heights.push([bar.getBoundingClientRect().height, text]);
      }).observe(document.getElementById('progress'), { childList: true, characterData: true, subtree: true });
    });
    await page.selectOption('#strategy', 'best');
    // (The budget field may be folded behind More…: set as its value, not typed.)
    await page.evaluate(() => { document.getElementById('budget').value = '600'; });
    await page.click('#replan');
    await h.waitForFiles(page, 3);
    await page.waitForFunction(() => !window.__memplan.planning.busy);
    const seen = await page.evaluate(() => window.__heights);
    assert.ok(seen.some(([, t]) => t.startsWith(LONG)), `the status named the file: ${JSON.stringify(seen)}`);
    for (const [height, text] of seen) assert.equal(height, start, `“${text}” made the bar ${height} px tall`);
    assert.equal(await page.getAttribute('#progress', 'title'), '', 'the status title follows its text');
    const [scroll, inner] = await pageWidth(page);
    assert.ok(scroll <= inner, `the page is ${scroll} px wide in a ${inner} px window`);
    await page.screenshot({ path: path.join(h.results, `toolbar-long-name-${viewport.width}.png`) });
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });
}

test('a .tflite export\'s message is shown whole in the menu, the bar unchanged', async () => {
  for (const viewport of [SIZES[0], SIZES[2]]) {
    const page = await open(viewport);
    const start = await barHeight(page);
    await dropOne(page, 'dag6.tflite', fs.readFileSync(path.join(h.root, 'tests/data/tflm/dag6.tflite')));
    await page.selectOption('#strategy', 'best');
    await page.click('#replan');
    await h.waitForFiles(page, 3);
    await page.waitForFunction(() => !window.__memplan.planning.busy);
    await page.click('#export summary');
    const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-tflite')]);
    assert.equal(d.suggestedFilename(), 'dag6.planned.tflite');
    await page.waitForFunction(() => /kTensorArenaSize/.test(document.getElementById('export-status').textContent));
    assert.equal(await barHeight(page), start, 'the message changed the bar');
    assert.deepEqual(await unreachable(page, '#export-status'), [], 'the message is on screen, not under the menu');
    const [scroll, inner] = await pageWidth(page);
    assert.ok(scroll <= inner, `the page is ${scroll} px wide in a ${inner} px window`);
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  }
});

test('390×844: the phone\'s tool bar takes little of the screen; More… reaches every other control', async () => {
  const page = await open(SIZES[2]);
  const bar = await barHeight(page);
  assert.ok(bar <= 844 * 0.15, `the tool bar is ${bar} px of 844`);
  const controls = ['picker', 'files', 'rename', 'close-file', 'names', 'hex', 'fit', 'theme', 'strategy', 'budget',
    'replan', 'compare-open', 'copy-link', 'search'];
  const folded = [];
  for (const id of controls) if (!(await page.isVisible(`#${id}`)) && id !== 'picker') folded.push(id);
  assert.ok(folded.length >= 5, `folded: ${folded}`);
  await page.click('#more');
  assert.equal(await page.getAttribute('#more', 'aria-expanded'), 'true');
  for (const id of controls.filter((c) => c !== 'picker')) assert.ok(await page.isVisible(`#${id}`), `#${id} shown`);
  assert.deepEqual(await unreachable(page, 'header.bar > :is(button, select, label, input, details)'), []);
  // A folded control works once shown.
  await page.click('#names');
  assert.equal(await page.getAttribute('#names', 'aria-pressed'), 'true');
  const [scroll, inner] = await pageWidth(page);
  assert.ok(scroll <= inner, `the page is ${scroll} px wide in a ${inner} px window`);
  await page.screenshot({ path: path.join(h.results, 'toolbar-phone-more.png') });
  // Escape folds them again and gives the focus back to More….
  await page.focus('#search');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#names'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'more');
  assert.equal(await barHeight(page), bar);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('Escape closes Export… and gives the focus back to it', async () => {
  const page = await open(SIZES[0]);
  const isOpen = () => page.evaluate(() => document.getElementById('export').open);
  await page.click('#export summary');
  assert.equal(await isOpen(), true);
  // From a format button, as Tab reaches it…
  await page.focus('#export-csv');
  await page.keyboard.press('Escape');
  assert.equal(await isOpen(), false);
  assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#export summary')), true);
  // …and from the width field, with a plane pinned: the menu closes, the pin stays.
  await page.focus('#stage');
  await page.keyboard.press('p');
  const pinned = await page.evaluate(() => window.__memplan.viewer.selected());
  assert.equal(typeof pinned, 'number', 'P pinned the plane at the peak');
  await page.click('#export summary');
  await page.focus('#export-width');
  await page.keyboard.press('Escape');
  assert.equal(await isOpen(), false);
  assert.equal(await page.evaluate(() => window.__memplan.viewer.selected()), pinned, 'Escape only closed the menu');
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

/** The names the text formats download as, by format, for the file shown. */
async function downloadNames(page) {
  await page.click('#export summary');
  const formats = await page.evaluate(() => [...document.querySelectorAll('#export .formats button')].map((b) => b.id.slice('export-'.length)));
  const out = {};
  for (const f of formats) {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(`#export-${f}`)]);
    out[f] = d.suggestedFilename();
  }
  await page.keyboard.press('Escape');
  return out;
}

test('each text format downloads under the shown file\'s name and a suffix of its own', async () => {
  // A page per file: this chromium drops a download event now and then after ten or so
  // in one page (the page's old build too), which is no concern of these names.
  let page = await open(SIZES[0]);
  await dropOne(page, 'memory_info.txt', vit);
  const names = await downloadNames(page);
  assert.deepEqual(names, {
    memplan: 'memory_info.memplan.json',
    aidge: 'memory_info.txt',
    'aidge-single': 'memory_info.single.txt',
    'aidge-cpp': 'memory_info.cpp.txt',
    n2d2: 'memory_info.n2d2.txt',
    csv: 'memory_info.csv',
    header: 'memory_info.h',
    'mem-info': 'memory_info.meminfo.json',
    'export-cpp': 'memory_info.meminfo.h',
  });
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
  // Another name: the same suffixes after it.
  page = await open(SIZES[0]);
  await dropOne(page, 'memory_info.txt', vit);
  await page.evaluate(() => window.__memplan.viewer.rename_file(window.__memplan.viewer.current(), 'ViT plain'));
  const renamed = await downloadNames(page);
  assert.equal(renamed.aidge, 'ViT_plain.memory_info.txt');
  assert.equal(renamed['aidge-cpp'], 'ViT_plain.memory_info.cpp.txt');
  assert.equal(new Set(Object.values(renamed)).size, Object.keys(renamed).length, JSON.stringify(renamed));
  await page.close();
  // A .tflite's C header is dag6.h (its exports drop .tflite as an .onnx's drop .onnx).
  page = await open(SIZES[0]);
  await dropOne(page, 'dag6.tflite', fs.readFileSync(path.join(h.root, 'tests/data/tflm/dag6.tflite')));
  const model = await downloadNames(page);
  assert.equal(model.header, 'dag6.h');
  assert.equal(model.csv, 'dag6.csv');
  assert.equal(model['export-cpp'], 'dag6.meminfo.h');
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});
