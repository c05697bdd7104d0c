// End-to-end tests of issue #17: the page as an Aidge engineer uses it, on a small
// ViT exported plain and fused by the real aidge_core 0.10.1 (tests/data/vit/, written
// by tests/parity/vit_fixture.py: both files are called memory_info.txt, and the
// fused one holds nodes without a name) and on MiniMalloc's CSVs. One test per thing
// that stopped a team from adopting the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const vit = (which) => fs.readFileSync(path.join(h.root, 'tests/data/vit', which, 'memory_info.txt'));
const csv = (name) => fs.readFileSync(path.join(h.bench, 'minimalloc', name));
let env;

before(async () => {
  env = await h.start();
});

after(async () => {
  await env?.stop();
});

/** A page at `viewport` with the sample shown; `theme` is stored before the page runs. */
async function open(viewport = { width: 1440, height: 900 }, { theme, touch } = {}) {
  const page = touch
    ? await env.browser.newPage({ viewport, hasTouch: true, isMobile: true })
    : await env.open('', viewport);
  if (touch) await page.goto(env.url);
  if (theme) {
    await page.evaluate((t) => localStorage.setItem('memplan-theme', t), theme);
    await page.reload();
  }
  await h.ready(page);
  return page;
}

/**
 * Opens the plain then the fused ViT dump one after the other, by default as Aidge
 * names them (both memory_info.txt); tests of other things name them apart.
 */
async function openBoth(page, names = ['memory_info.txt', 'memory_info.txt']) {
  const n = await page.evaluate(() => window.__memplan.files().length);
  await h.drop(page, [[names[0], vit('plain')]]);
  await h.waitForFiles(page, n + 1);
  await h.drop(page, [[names[1], vit('fused')]]);
  await h.waitForFiles(page, n + 2);
  return page.evaluate(() => window.__memplan.files());
}

const APART = ['plain/memory_info.txt', 'fused/memory_info.txt'];

/** Opens the compare view on files `a` and `b` (their places in the list). */
async function openCompare(page, a, b) {
  await page.click('#compare-open');
  await page.waitForSelector('#compare:not([hidden])');
  await page.selectOption('#cmp-a', { index: a });
  await page.selectOption('#cmp-b', { index: b });
  await h.frame(page);
}

/** Relative luminance (WCAG) of a CSS rgb() colour. */
function luminance(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

/** Text colour of `selector` and the first opaque background behind it. */
function colours(page, selector) {
  return page.$eval(selector, (e) => {
    const color = getComputedStyle(e).color;
    for (let n = e; n; n = n.parentElement) {
      const bg = getComputedStyle(n).backgroundColor;
      if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return { color, bg };
    }
    return { color, bg: 'rgb(255, 255, 255)' };
  });
}

test('1. the page is as tall as the window: no blank void to scroll into', async () => {
  const page = await open();
  const height = () => page.evaluate(() => document.scrollingElement.scrollHeight);
  assert.equal(await height(), 900);
  const panel = await page.locator('#panel').boundingBox();
  await page.mouse.move(panel.x + panel.width / 2, panel.y + panel.height / 2);
  await page.mouse.wheel(0, 3000);
  await page.waitForTimeout(100); // a wheel scroll is applied on a later frame
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the wheel over the panel moved the page');
  await page.close();
  // A phone scrolls (the panel is under the chart) but only as far as the panel goes.
  const phone = await open({ width: 400, height: 800 });
  const { total, end } = await phone.evaluate(() => ({
    total: document.scrollingElement.scrollHeight,
    end: document.querySelector('main').getBoundingClientRect().bottom + window.scrollY,
  }));
  assert.ok(total <= Math.ceil(end) + 1, `document ${total} px, content ends at ${end} px`);
  await phone.close();
});

test('2. two files of the same name both stay open, can be renamed and compared', async () => {
  const page = await open();
  const files = await openBoth(page);
  const vits = files.filter((f) => f.startsWith('memory_info.txt'));
  assert.equal(vits.length, 2, `both dumps are open: ${JSON.stringify(files)}`);
  assert.notEqual(vits[0], vits[1]);
  assert.match(await page.textContent('#notice'), /same name/);
  // Rename the fused one (shown) from the bar.
  await page.click('#rename');
  await page.fill('#rename-name', 'ViT fused');
  await page.press('#rename-name', 'Enter');
  const renamed = await page.evaluate(() => window.__memplan.files());
  assert.ok(renamed.includes('ViT fused'), JSON.stringify(renamed));
  assert.equal(await page.textContent('#title'), 'ViT fused');
  const a = renamed.indexOf(vits[0]);
  const b = renamed.indexOf('ViT fused');
  await openCompare(page, a, b);
  const s = await page.evaluate(() => window.__memplan.compare.summary());
  assert.ok(s.only_a > 0, 'A (plain) holds MatMul outputs that fusion removed: the two plans are both there');
  assert.match(await page.textContent('#cmp-label-b'), /^B: ViT fused/);
  await page.close();
});

test('3. the panel lists what is live at a clock where a live plane tops the peak', async () => {
  const page = await open();
  const cases = [['fused.memory_info.txt', vit('fused')], ['plain.memory_info.txt', vit('plain')]];
  for (const dir of ['resnet18-single-None', 'mobilenet_v2-multi-None', 'efficientnet_b0-single-wrap-None']) {
    cases.push([`${dir}.txt`, fs.readFileSync(path.join(h.bench, 'aidge', dir, 'memory_info.txt'))]);
  }
  for (const [name, bytes] of cases) {
    const n = await page.evaluate(() => window.__memplan.files().length);
    await h.drop(page, [[name, bytes]]);
    await h.waitForFiles(page, n + 1);
    const peak = BigInt(await page.evaluate(() => window.__memplan.summary().peak_bytes));
    // Listed at the fullest of the clocks where a plane tops the peak.
    const title = await page.textContent('#live-title');
    const clock = Number(title.match(/^Live at clock (\d+) \(the peak\)$/)?.[1]);
    assert.ok(Number.isInteger(clock), `${name}: ${title}`);
    const first = page.locator('#live button').first();
    assert.match(await first.textContent(), /sets the peak/, name);
    const plane = Number(await first.getAttribute('data-plane'));
    const info = await page.evaluate((p) => window.__memplan.viewer.plane_info(p), plane);
    const digits = (s) => BigInt(s.split(' ')[0].replace(/,/g, ''));
    // A wrapped plane's contiguous part ends where the wrap text says.
    const top = info.wrap ? digits(info.wrap.split('..')[1]) : digits(info.address) + digits(info.size);
    assert.equal(top, peak, `${name}: ${info.name} tops the peak`);
    assert.ok(info.allocated <= clock && clock <= info.last_live, `${name}: live at clock ${clock}`);
    // The clock of most live bytes is shown too, as what it is.
    assert.match(await page.textContent('#busiest-clock'), /at clock \d+$/);
  }
  await page.close();
});

for (const viewport of [{ width: 1440, height: 900 }, { width: 400, height: 800 }]) {
  test(`4/8. compare is legible in the dark theme at ${viewport.width} px`, async () => {
    const page = await open(viewport, { theme: 'dark' });
    const files = await openBoth(page, APART);
    await openCompare(page, files.length - 2, files.length - 1);
    // The charts are dark, as the page.
    const corner = await page.evaluate(() => [...document.getElementById('cmp-top').getContext('2d')
      .getImageData(2, 2, 1, 1).data]);
    assert.ok(corner[0] + corner[1] + corner[2] < 3 * 80, `chart background ${corner}`);
    for (const sel of ['#cmp-label-a', '#cmp-label-b', '#cmp-head th', '#cmp-rows td', '#cmp-stats dt']) {
      const { color, bg } = await colours(page, sel);
      assert.ok(luminance(bg) < 0.1, `${sel}: background ${bg} is dark`);
      assert.ok(contrast(color, bg) >= 4.5, `${sel}: ${color} on ${bg}`);
    }
    // The labels sit above their charts, not over the lane title drawn inside them.
    for (const [label, canvas] of [['#cmp-label-a', '#cmp-top'], ['#cmp-label-b', '#cmp-bottom']]) {
      const l = await page.locator(label).boundingBox();
      const c = await page.locator(canvas).boundingBox();
      assert.ok(l.y + l.height <= c.y + 0.5, `${label} ends above ${canvas}`);
      assert.ok(c.height >= 200, `${canvas} is ${c.height} px tall`);
    }
    // Stats read as words, not a column of letters; the table is bounded.
    const dd = await page.$$eval('#cmp-stats dd', (ds) => ds.map((d) => d.getBoundingClientRect().width));
    assert.ok(Math.min(...dd) >= 80, `stats values ${dd} px wide`);
    const table = await page.locator('.cmp-table').boundingBox();
    assert.ok(table.height <= viewport.height * 0.6, `table ${table.height} px`);
    await page.screenshot({ path: path.join(h.results, `adoption-compare-dark-${viewport.width}.png`), fullPage: true });
    await page.close();
  });
}

test('5. every control is reachable by Tab, with a visible focus', async () => {
  const page = await open();
  await page.evaluate(() => document.activeElement?.blur());
  const seen = new Map();
  for (let k = 0; k < 60; k++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const st = getComputedStyle(e);
      const label = e.closest('label');
      const ring = (s) => (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
      const visible = ring(st) || (label && ring(getComputedStyle(label))) || ring(getComputedStyle(e, '::after'));
      const key = e.id ? `#${e.id}` : e.closest('#live') ? '#live button' : e.tagName;
      return { key, visible };
    });
    if (!f) continue;
    if (!seen.has(f.key)) seen.set(f.key, f.visible);
  }
  for (const key of ['#picker', '#files', '#names', '#fit', '#strategy', '#replan', '#compare-open', '#search',
    '#stage', '#live button']) {
    assert.ok(seen.has(key), `${key} reached by Tab (reached: ${[...seen.keys()]})`);
    assert.ok(seen.get(key), `${key} shows its focus`);
  }
  // The chart's ring is really on screen (not under the canvas): the stage's edge changes.
  const box = await page.locator('#stage').boundingBox();
  const edge = { x: box.x, y: box.y + box.height / 2, width: 4, height: 40 };
  await page.evaluate(() => document.activeElement?.blur());
  const plain = await page.screenshot({ clip: edge });
  await page.focus('#stage');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'stage');
  const ringed = await page.screenshot({ clip: edge });
  assert.notDeepEqual(plain, ringed, 'the focus ring of the chart is visible');
  // Enter on a "live at the peak" entry selects its plane.
  const first = page.locator('#live button').first();
  await first.focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.__memplan.viewer.selected()),
    Number(await first.getAttribute('data-plane')));
  await page.close();
});

test('6. P and the arrows keep the view inside the plan', async () => {
  const page = await open();
  await h.drop(page, [['fused.memory_info.txt', vit('fused')]]);
  await h.waitForFiles(page, 2);
  const clocks = await page.evaluate(() => window.__memplan.summary().clocks);
  await page.focus('#stage');
  const inside = async (what) => {
    const [t0, t1, a0, a1] = await page.evaluate(() => window.__memplan.viewer.view());
    assert.ok(t0 >= 0 && t1 <= clocks && a0 >= 0 && a1 <= 1.08 + 1e-9,
      `${what}: view ${[t0, t1, a0, a1]} outside clocks 0..${clocks}, addresses 0..1.08`);
    const sel = await page.evaluate(() => window.__memplan.viewer.plane_info(window.__memplan.viewer.selected()));
    assert.ok(sel.allocated < t1 && sel.last_live + 1 > t0, `${what}: ${sel.name} is in the view's clocks`);
  };
  await page.keyboard.press('p');
  await inside('P');
  const keys = ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight'];
  for (let k = 0; k < 30; k++) {
    await page.keyboard.press(keys[Math.floor(k / 6) % keys.length]);
    await inside(`after ${k + 1} arrows`);
  }
  await page.close();
});

test('7. no empty name reaches the page', async () => {
  const page = await open();
  const files = await openBoth(page, APART);
  const bad = (t) => !t.trim() || /^\s*[:—#]/.test(t);
  const texts = () => page.evaluate(() => [
    ...[...document.querySelectorAll('#live button, #buffers tbody th, #pinned dd, #tooltip .name')]
      .map((e) => e.textContent),
    document.getElementById('announce').textContent,
  ]);
  for (const t of await texts()) assert.ok(!bad(t), `shown: ${JSON.stringify(t)}`);
  // The plane that sets the fused plan's peak is unnamed in the dump.
  await page.focus('#stage');
  await page.keyboard.press('p');
  const announced = await page.textContent('#announce');
  assert.ok(!bad(announced), announced);
  assert.match(await page.textContent('#live'), /unnamed · step \d+ · output \d+/);
  // Hover every drawn plane: each tooltip has a title.
  const f = await h.frame(page);
  const box = await page.locator('#chart').boundingBox();
  for (const d of f.drawn.filter((_, i) => i % 7 === 0)) {
    await page.mouse.move(box.x + d.rect.x + d.rect.w / 2, box.y + d.rect.y + d.rect.h / 2);
    const t = await page.textContent('#tooltip .name');
    assert.ok(!bad(t), `tooltip ${JSON.stringify(t)}`);
  }
  await page.keyboard.press('Escape');
  await openCompare(page, files.length - 2, files.length - 1);
  const cells = await page.$$eval('#cmp-rows tr td:first-child', (tds) => tds.map((td) => td.textContent));
  assert.ok(cells.length > 0);
  for (const t of cells) assert.ok(!bad(t), `compare row ${JSON.stringify(t)}`);
  await page.close();
});

test('8. on a phone a pinch zooms the chart, not the page, and the hints say so', async () => {
  const page = await open({ width: 400, height: 800 }, { touch: true });
  assert.equal(await page.$eval('#chart', (c) => getComputedStyle(c).touchAction), 'none');
  assert.ok(await page.isVisible('.hint.touch'), 'the touch hint is shown');
  assert.ok(!(await page.isVisible('.hint.mouse')), 'the mouse hint is not');
  const before = await page.evaluate(() => window.__memplan.viewer.view());
  // Two real touches (the browser's own touch input, as a phone sends it), spreading apart.
  const r = await page.locator('#chart').boundingBox();
  const y = r.y + r.height / 2;
  const cx = r.x + r.width / 2;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y, id: 1 }, { x: cx + d, y, id: 2 }],
  });
  await touch('touchStart', 40);
  for (let d = 50; d <= 120; d += 10) await touch('touchMove', d);
  await touch('touchEnd', 0);
  await h.frame(page);
  const after = await page.evaluate(() => window.__memplan.viewer.view());
  assert.ok(after[1] - after[0] < (before[1] - before[0]) * 0.6, `pinch zoomed time: ${before} → ${after}`);
  assert.equal(await page.evaluate(() => window.visualViewport.scale), 1);
  await page.close();
});

test('9. a CSV\'s capacity is shown, its greedy placement is named, the strategy menu stays', async () => {
  const page = await open();
  await page.selectOption('#strategy', 'greedy-size');
  await h.drop(page, [['A.1048576.csv', csv('A.1048576.csv')]]);
  await h.waitForFiles(page, 2);
  const stats = await page.textContent('#stats');
  assert.match(stats, /Capacity1,048,576 B \(1\.00 MiB\): (fits|over by)/);
  assert.match(await page.textContent('#report'), /No offsets in the file: placed by memplan/);
  assert.equal(await page.inputValue('#strategy'), 'greedy-size', 'the menu keeps the user\'s choice');
  const f = await h.frame(page);
  assert.ok(f.capacity_y.some((y) => y != null), 'the capacity line is drawn');
  await page.close();
});

test('10. compare: aligned by node, rows select their buffer, headers sort, one minus sign', async () => {
  const page = await open();
  const files = await openBoth(page, APART);
  await openCompare(page, files.length - 2, files.length - 1);
  // Aligned by node: a layer both graphs name alike is drawn at the same clocks in
  // both charts, though fusion removed steps before it; unaligned, it is not.
  const xOf = (which, name) => page.evaluate(([w, n]) => {
    const c = window.__memplan.compare;
    const d = c.frame(w).drawn.find((e) => c.planeInfo(w, e.plane)?.name === n);
    return d ? d.rect.x : null;
  }, [which, name]);
  for (const layer of ['block1_softmax', 'block1_residual2']) {
    const [xa, xb] = [await xOf(0, layer), await xOf(1, layer)];
    assert.ok(xa != null && Math.abs(xa - xb) < 1, `${layer} at x ${xa} and ${xb}`);
  }
  assert.match(await page.textContent('#cmp-label-b'), /aligned to A by node/);
  await page.uncheck('#cmp-align');
  await h.frame(page);
  assert.ok(Math.abs((await xOf(0, 'block1_softmax')) - (await xOf(1, 'block1_softmax'))) > 5, 'unaligned differs');
  await page.check('#cmp-align');
  await h.frame(page);
  const delta = await page.textContent('#cmp-delta');
  assert.ok(!delta.includes('-'), `one minus sign: ${delta}`);
  const sizes = async () => page.$$eval('#cmp-rows tr', (trs) => trs.map((tr) => tr.children[5]?.textContent));
  await page.click('#cmp-head th:nth-child(6) button');
  const up = (await sizes()).filter((s) => s && s !== '—').map((s) => Number(s.replace(/,/g, '')));
  assert.deepEqual(up, [...up].sort((x, y) => x - y), 'sorted by size, ascending');
  await page.click('#cmp-head th:nth-child(6) button');
  const down = (await sizes()).filter((s) => s && s !== '—').map((s) => Number(s.replace(/,/g, '')));
  assert.deepEqual(down, [...up].reverse(), 'then descending');
  const row = page.locator('#cmp-rows tr').first();
  await row.click();
  assert.equal(await row.getAttribute('aria-selected'), 'true');
  const name = await row.locator('td').first().textContent();
  assert.ok((await page.textContent('#cmp-hover')).startsWith(name));
  // The changed buffers are outlined on both charts.
  const [fa, fb] = await page.evaluate(() => [0, 1].map((i) => window.__memplan.compare.frame(i)));
  assert.ok(fa.marked > 0 && fb.marked > 0, `marked ${fa.marked} / ${fb.marked}`);
  await page.close();
});

test('smaller: Copy link says what the link carries; a cut dump says it is cut', async () => {
  const page = await open();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  await h.drop(page, [['plain/memory_info.txt', vit('plain')]]);
  await h.waitForFiles(page, 2);
  // Right after the open: the link must be this plan's, not the one shown before.
  await page.click('#copy-link');
  await page.waitForFunction(() => /Link copied/.test(document.getElementById('notice').textContent));
  assert.match(await page.textContent('#notice'), /it opens this plan at this view/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.evaluate(() => location.href));
  assert.match(copied, /[#&]name=plain%2Fmemory_info\.txt(&|$)/);
  // A download stopped mid-line: the error says so, not "hex 0x00 does not match …".
  const text = vit('fused').toString();
  const cut = text.slice(0, text.indexOf('(0x', text.indexOf('(0x') + 3) + 5);
  await h.drop(page, [['cut/memory_info.txt', Buffer.from(cut)]]);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /the file ends in the middle of a line/);
  await page.close();
});
