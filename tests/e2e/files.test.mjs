// End-to-end tests of the page's opened files (issue #14): the Rust Viewer registers
// them by id with their source, strategy, report and lineage (which file a planned
// copy came from), so two dumps of the same name, their planned copies, renames,
// closes, the compare view's default pair and links all keep to the right file. The
// dumps are the small ViT exported plain and fused by the real aidge_core
// (tests/data/vit/): both are called memory_info.txt, and the plain one holds the
// MatMul outputs that fusion removed, so pairing the wrong two shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const vit = (which) => fs.readFileSync(path.join(h.root, 'tests/data/vit', which, 'memory_info.txt'));
let env;

before(async () => {
  env = await h.start();
});

after(async () => {
  await env?.stop();
});

async function open(at = '') {
  const page = await env.open(at);
  await h.ready(page);
  return page;
}

const names = (page) => page.evaluate(() => window.__memplan.files());
const shown = (page) => page.textContent('#title');
const report = (page, name) => page.evaluate((n) => window.__memplan.report(n), name);

/** Drops `bytes` as `name` and waits until it is planned and shown; returns its name as shown. */
async function dropOne(page, name, bytes) {
  const n = (await names(page)).length;
  await h.drop(page, [[name, bytes]]);
  await h.waitForFiles(page, n + 1);
  await page.waitForFunction(() => !window.__memplan.planning.busy);
  return shown(page);
}

/** Re-plans the shown file with `strategy` and waits for `expect` to be shown. */
async function replan(page, strategy, expect) {
  await page.selectOption('#strategy', strategy);
  await page.fill('#budget', '500');
  await page.click('#replan');
  await page.waitForFunction((n) => !window.__memplan.planning.busy &&
    document.getElementById('title').textContent === n, expect, { timeout: 30000 });
}

async function rename(page, name) {
  await page.click('#rename');
  await page.fill('#rename-name', name);
  await page.press('#rename-name', 'Enter');
}

/** Opens the compare view on its default pair; returns the two labels and the summary. */
async function compareDefaults(page) {
  await page.click('#compare-open');
  await page.waitForSelector('#compare:not([hidden])');
  const labels = [await page.textContent('#cmp-label-a'), await page.textContent('#cmp-label-b')];
  const summary = await page.evaluate(() => window.__memplan.compare.summary());
  await page.click('#cmp-close');
  return { labels, summary };
}

test('two dumps of one name and a planned copy of each: renamed, compared, the right ones are paired', async () => {
  const page = await open();
  assert.equal(await dropOne(page, 'memory_info.txt', vit('plain')), 'memory_info.txt');
  await replan(page, 'greedy-size', 'memory_info.txt · greedy-size');
  assert.equal(await dropOne(page, 'memory_info.txt', vit('fused')), 'memory_info.txt (2)');
  await replan(page, 'greedy-size', 'memory_info.txt (2) · greedy-size');

  // Renaming a file renames the copies planned from it that the user did not name.
  await page.selectOption('#files', { label: 'memory_info.txt (2)' });
  await rename(page, 'ViT fused');
  await page.selectOption('#files', { label: 'memory_info.txt · greedy-size' });
  await rename(page, 'plain, greedy');
  await page.selectOption('#files', { label: 'memory_info.txt' });
  await rename(page, 'ViT plain');
  const list = await names(page);
  for (const n of ['ViT plain', 'plain, greedy', 'ViT fused', 'ViT fused · greedy-size']) {
    assert.ok(list.includes(n), `${n} in ${JSON.stringify(list)}`);
  }
  assert.ok(!list.some((n) => n.startsWith('memory_info.txt')), JSON.stringify(list));

  // Compare pairs a planned copy with the file it was planned from, whatever their names.
  for (const [copy, parent] of [['ViT fused · greedy-size', 'ViT fused'], ['plain, greedy', 'ViT plain']]) {
    await page.selectOption('#files', { label: copy });
    const { labels, summary } = await compareDefaults(page);
    assert.equal(labels[0], `A: ${parent}`);
    assert.match(labels[1], new RegExp(`^B: ${copy}`));
    assert.equal(summary.only_a + summary.only_b, 0, `${copy}: the same graph as ${parent}`);
    const [a, b] = [await report(page, parent), await report(page, copy)];
    assert.equal(a.strategy, 'as-loaded');
    assert.equal(b.strategy, 'greedy-size');
    assert.equal(BigInt(summary.peak_delta_bytes), BigInt(b.peak) - BigInt(a.peak), `${copy} − ${parent}`);
  }
  // The plain and the fused graphs compared by hand: fusion removed buffers.
  await page.click('#compare-open');
  await page.selectOption('#cmp-a', { label: 'ViT plain' });
  await page.selectOption('#cmp-b', { label: 'ViT fused' });
  assert.ok((await page.evaluate(() => window.__memplan.compare.summary())).only_a > 0);
  await page.click('#cmp-close');

  // Re-planning a family again replaces its copy of that strategy (from the file or
  // from the copy); another strategy adds a copy of the file, not of the copy.
  const count = (await names(page)).length;
  await page.selectOption('#files', { label: 'ViT fused' });
  await replan(page, 'greedy-size', 'ViT fused · greedy-size');
  assert.equal((await names(page)).length, count, 'replaced, not added');
  await replan(page, 'greedy-conflicts', 'ViT fused · greedy-conflicts');
  assert.equal((await names(page)).length, count + 1);
  const { labels } = await compareDefaults(page);
  assert.deepEqual(labels.map((l) => l.split(' (')[0]), ['A: ViT fused', 'B: ViT fused · greedy-conflicts']);
  // The planning line is the shown file's.
  assert.match(await page.textContent('#report'), /^greedy-conflicts/);
  await page.selectOption('#files', { label: 'ViT plain' });
  assert.match(await page.textContent('#report'), /^As loaded/);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('closing files: the next is shown, copies keep their source, compare follows, names stay text', async () => {
  const page = await open();
  const sample = await shown(page);
  await dropOne(page, 'memory_info.txt', vit('fused'));
  await replan(page, 'greedy-size', 'memory_info.txt · greedy-size');
  // A name from a file is text wherever it goes: menus, title, compare labels.
  const html = '<img src=x onerror=alert(1)>';
  await page.selectOption('#files', { label: 'memory_info.txt' });
  await rename(page, html);
  assert.equal(await shown(page), html);
  assert.equal(await page.locator('#title img, #files img').count(), 0);
  await page.selectOption('#files', { label: `${html} · greedy-size` });
  await page.click('#compare-open');
  assert.equal(await page.textContent('#cmp-label-a'), `A: ${html}`);
  assert.equal(await page.locator('#compare img').count(), 0);

  await page.click('#cmp-close');

  // Closing the file shown while the compare view shows it as B: the next file is
  // shown, the menus lose the closed one, the view compares what is left.
  await page.selectOption('#files', { label: html });
  await page.click('#compare-open');
  assert.match(await page.textContent('#cmp-label-b'), /^B: <img/);
  await page.click('#close-file');
  assert.deepEqual(await names(page), [sample, `${html} · greedy-size`]);
  assert.equal(await shown(page), `${html} · greedy-size`, 'the file after the closed one is shown');
  const options = await page.$$eval('#cmp-a option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(options, [sample, `${html} · greedy-size`]);
  assert.equal(await page.textContent('#cmp-label-a'), `A: ${sample}`, 'no parent open: the file before it');
  assert.match(await page.textContent('#cmp-label-b'), /^B: <img src=x onerror=alert\(1\)> · greedy-size/);
  // Renamed while compared: the title follows.
  await rename(page, 'the copy');
  assert.match(await page.textContent('#cmp-label-b'), /^B: the copy/);
  await page.click('#cmp-close');

  // The copy outlives the file it came from and still re-plans from its source.
  await replan(page, 'greedy-conflicts', `${html} · greedy-conflicts`);
  assert.equal((await report(page, `${html} · greedy-conflicts`)).strategy, 'greedy-conflicts');

  // Closing every file leaves an empty page, Rename and Close disabled.
  while ((await names(page)).length) await page.click('#close-file');
  assert.equal(await shown(page), 'No plan');
  assert.equal(await page.isDisabled('#rename'), true);
  assert.equal(await page.isDisabled('#close-file'), true);
  assert.equal(await page.evaluate(() => window.__memplan.summary()), null);
  assert.equal((await h.frame(page)).drawn.length, 0, 'the chart is blank');
  assert.equal(await page.getAttribute('#stage', 'aria-label'), 'Memory plan chart: no plan open');
  assert.equal(await page.textContent('#live-title'), 'Live at the peak');
  assert.equal(await page.locator('#live li, #findings li, #buffers tr').count(), 0, 'no panel row of a closed file');
  await page.click('#export summary');
  assert.equal(await page.isDisabled('#export-svg'), true, 'nothing to export');
  assert.equal(await page.isDisabled('#export-memplan'), true);
  assert.equal(await page.isVisible('#export-hint'), true, 'the menu says why');
  await page.click('#export summary');
  // And a file opened then is shown as usual; its exports drop the folder and the extension.
  assert.equal(await dropOne(page, 'plain/memory_info.txt', vit('plain')), 'plain/memory_info.txt');
  await page.click('#export summary');
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-aidge')]);
  assert.equal(d.suggestedFilename(), 'memory_info.txt');
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('a file opened from a link keeps its address when renamed; its planned copy travels inline; exports use the name', async () => {
  const src = 'sample/resnet18-multi-None.json';
  const page = await open(`#src=${src}`);
  /** The address's fragment once written (200 ms after a change), decoded. */
  const hash = async () => decodeURIComponent(await raw());
  const raw = () => page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 400));
    return location.hash;
  });
  assert.match(await hash(), new RegExp(`src=${src}`));
  await rename(page, 'ResNet-18 schedule');
  assert.match(await hash(), new RegExp(`src=${src}`), 'renamed, the plan is still the one at the address');
  await replan(page, 'greedy-size', 'ResNet-18 schedule · greedy-size');
  const copied = new URLSearchParams((await raw()).slice(1));
  assert.equal(copied.get('src'), null, 'the copy is not the plan at the address');
  assert.match(copied.get('data'), /^[\w-]+$/);
  assert.equal(copied.get('name'), 'ResNet-18 schedule · greedy-size');
  // The link opens the copy's plan.
  const again = await open(await raw());
  assert.equal((await h.summary(again)).peak_bytes, (await report(page, 'ResNet-18 schedule · greedy-size')).peak);
  await again.close();
  // Exports are named after the file shown.
  await page.click('#export summary');
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  assert.equal(d.suggestedFilename(), 'ResNet-18_schedule_greedy-size.csv');
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});
