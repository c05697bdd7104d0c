// End-to-end tests of embedding and sharing (issue 6): the <memplan-view> element in
// the demo docs page (three plans, one wasm, events, themes), links whose fragment
// reopens the same view (main page and embed.html), exports that download complete
// files (SVG with the canvas's shapes and the CLI's, a 30,000-px-wide PNG at 2×,
// text formats), and keyboard navigation between planes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import * as h from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const { root, results } = h;
let env;
let url;

before(async () => {
  env = await h.start();
  ({ url } = env);
});

after(async () => {
  await env?.stop();
});

const twoFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Waits until every <memplan-view> of the page shows a plan; returns their ids. */
async function elementsReady(page) {
  await page.waitForFunction(() => customElements.get('memplan-view'));
  const ids = await page.evaluate(async () => {
    const els = [...document.querySelectorAll('memplan-view')];
    const ok = await Promise.all(els.map((e) => e.ready));
    return els.map((e, i) => [e.id, ok[i]]);
  });
  await twoFrames(page);
  return ids;
}

function elementFrame(page, id) {
  return page.evaluate((i) => document.getElementById(i).viewer.frame(), id);
}

/** `<rect>`s of an SVG as strings `x y w h fill`, pattern overlays and outlines apart. */
function rects(svg) {
  const out = { filled: [], patterns: [], outlines: [] };
  for (const m of svg.matchAll(/<rect x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)" ([^/]*)\/>/g)) {
    const key = `${m[1]} ${m[2]} ${m[3]} ${m[4]} ${m[5]}`;
    if (m[5].includes('class="pattern"')) out.patterns.push(key);
    else if (m[5].startsWith('fill="none"')) out.outlines.push(key);
    else out.filled.push(key);
  }
  return out;
}

/** Saves a download triggered by `click` and returns its path and suggested name. */
async function download(page, click) {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), click()]);
  const file = path.join(results, `download-${d.suggestedFilename()}`);
  await d.saveAs(file);
  return { file, name: d.suggestedFilename() };
}

/** The CLI binary built next to the wasm (cargo build --release). */
function cli() {
  const target = process.env.CARGO_TARGET_DIR ?? path.join(root, 'target');
  for (const p of ['release/memplan', 'debug/memplan']) {
    if (fs.existsSync(path.join(target, p))) return path.join(target, p);
  }
  assert.fail(`no memplan binary in ${target}: run cargo build --release first`);
}

/** Decodes an RGBA PNG whose rows all use filter 0 (what png.js writes). */
function decodePng(buf) {
  assert.equal(buf.subarray(0, 8).toString('hex'), '89504e470d0a1a0a');
  let at = 8;
  let width = 0;
  let height = 0;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.deepEqual([...data.subarray(8, 13)], [8, 6, 0, 0, 0], 'RGBA 8-bit');
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, (width * 4 + 1) * height, 'every row present');
  const px = (x, y) => {
    const o = y * (width * 4 + 1) + 1 + x * 4;
    return [raw[o], raw[o + 1], raw[o + 2], raw[o + 3]];
  };
  return { width, height, px };
}

test('the docs demo embeds three plans with one wasm instance, events fire', async () => {
  const page = await env.open('docs-demo.html');
  const ids = await elementsReady(page);
  assert.deepEqual(ids, [['aidge', true], ['csv', true], ['before', true], ['after', true]]);
  for (const [id] of ids) {
    const f = await elementFrame(page, id);
    assert.ok(f.drawn.length > 10, `${id}: ${f.drawn.length} planes drawn`);
  }
  const wasm = page.requests.filter((r) => r.endsWith('.wasm'));
  assert.equal(wasm.length, 1, 'one wasm download for four elements');
  assert.deepEqual(h.outside(page, url), []);
  assert.deepEqual(page.consoleErrors, []);
  // The CSV had no offsets: the element placed it (strategy="search") validly.
  const csv = await page.evaluate(() => document.getElementById('csv').viewer.summary());
  assert.equal(csv.findings.length, 0);

  // select: click the middle of a large plane of the Aidge chart.
  const f = await elementFrame(page, 'aidge');
  const big = f.drawn.reduce((a, b) => (b.rect.w * b.rect.h > a.rect.w * a.rect.h ? b : a));
  await page.locator('#aidge').scrollIntoViewIfNeeded();
  await twoFrames(page);
  const box = await page.locator('#aidge').boundingBox();
  const selected = await h.armEvent(page, 'aidge', 'select');
  await page.mouse.click(box.x + 1 + big.rect.x + big.rect.w / 2, box.y + 1 + big.rect.y + big.rect.h / 2);
  const info = await selected();
  assert.ok(info, 'the click landed on a plane');
  // The plane under the pointer is the last one painted there (in-place planes overlap).
  const [px, py] = [big.rect.x + big.rect.w / 2, big.rect.y + big.rect.h / 2];
  const top = f.drawn.filter((d) => d.rect.x <= px && px < d.rect.x + d.rect.w && d.rect.y <= py && py < d.rect.y + d.rect.h).pop();
  assert.equal(info.plane, top.plane);
  assert.match(await page.textContent('#aidge-event'), new RegExp(`selected: ${info.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

  // viewchange: zooming the first compared chart fires it and the second follows.
  await page.locator('#before').scrollIntoViewIfNeeded();
  await twoFrames(page);
  const changed = await h.armEvent(page, 'before', 'viewchange');
  const b = await page.locator('#before').boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.wheel(0, -400);
  const v = (await changed()).view;
  assert.equal(v.length, 4);
  await twoFrames(page);
  const after = await page.evaluate(() => document.getElementById('after').view);
  assert.ok(Math.abs(after[0] - v[0]) < 1e-9 && Math.abs(after[1] - v[1]) < 1e-9, 'time views linked');

  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(results, 'docs-demo-1280x800.png') });
  await page.close();
  const wide = await env.open('docs-demo.html', { width: 1920, height: 1080 });
  await elementsReady(wide);
  await wide.screenshot({ path: path.join(results, 'docs-demo-1920x1080.png'), fullPage: true });
  await wide.close();
});

test('elements follow the host page\'s dark scheme unless theme is set', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  await page.goto(url + 'docs-demo.html');
  await elementsReady(page);
  assert.equal(await page.evaluate(() => document.getElementById('aidge').dataset.theme), 'dark');
  // The chart's background (top-left corner of the canvas) is dark.
  const corner = await page.evaluate(() => {
    const c = document.getElementById('aidge').shadowRoot.querySelector('canvas');
    return [...c.getContext('2d').getImageData(2, 2, 1, 1).data];
  });
  assert.ok(corner[0] < 60 && corner[1] < 60 && corner[2] < 60, `dark background ${corner}`);
  await page.evaluate(() => document.getElementById('aidge').setAttribute('theme', 'light'));
  await twoFrames(page);
  assert.equal(await page.evaluate(() => document.getElementById('aidge').dataset.theme), 'light');
  await page.screenshot({ path: path.join(results, 'docs-demo-dark-1280x800.png') });
  await page.close();
});

test('a link\'s fragment reopens the same view and selection, in the page and in embed.html', async () => {
  const page = await env.open();
  await h.ready(page);
  await page.focus('#stage');
  await page.keyboard.press('p');
  const box = await page.locator('#chart').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await twoFrames(page);
  await page.waitForFunction(() => location.hash.includes('view=') && location.hash.includes('sel='));
  await page.waitForTimeout(400); // the fragment is rewritten at most every 200 ms
  const want = await page.evaluate(() => ({
    view: Array.from(window.__memplan.viewer.view()),
    sel: window.__memplan.viewer.selected(),
    hash: location.hash,
  }));
  assert.match(want.hash, /data=/, 'a small plan travels inside the link');
  assert.ok(want.hash.length < 16000, `link of ${want.hash.length} characters`);

  const again = await env.open(want.hash);
  await h.ready(again);
  await twoFrames(again);
  const got = await again.evaluate(() => ({
    view: Array.from(window.__memplan.viewer.view()),
    sel: window.__memplan.viewer.selected(),
  }));
  assert.equal(got.sel, want.sel);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(got.view[i] - want.view[i]) <= 1e-5 * Math.abs(want.view[i]) + 1e-9, `view[${i}]`);
  const same = await again.evaluate(() => window.__memplan.frame().drawn.length);
  const orig = await page.evaluate(() => window.__memplan.frame().drawn.length);
  assert.equal(same, orig, 'same planes drawn');
  // The request log shows the plan never went to the server.
  assert.ok(!again.requests.some((r) => r.includes('data=')));

  // The same fragment in the iframe page.
  const frame = await env.open('embed.html' + want.hash, { width: 900, height: 400 });
  await frame.waitForFunction(() => window.__embed && window.__embed.ready);
  await twoFrames(frame);
  const emb = await frame.evaluate(() => ({ view: window.__embed.view.view, sel: window.__embed.view.selected }));
  assert.equal(emb.sel, want.sel);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(emb.view[i] - want.view[i]) <= 1e-5 * Math.abs(want.view[i]) + 1e-9);
  await frame.screenshot({ path: path.join(results, 'embed-iframe-900x400.png') });

  // And a src= link to a file served next to the page.
  const bySrc = await env.open('embed.html#src=demo/resnet18.memory_info.txt&names=1', { width: 900, height: 400 });
  await bySrc.waitForFunction(() => window.__embed && window.__embed.ready);
  const n = await bySrc.evaluate(() => window.__embed.view.viewer.plane_count());
  assert.ok(n > 30);
  await Promise.all([page.close(), again.close(), frame.close(), bySrc.close()]);
});

test('SVG export: same shapes as the canvas frame and as `memplan render`', async () => {
  const page = await env.open();
  await h.ready(page);
  // The CLI states the bound over every layout; the page does once best gave it.
  await h.boundsKnown(page);
  await page.click('#export summary');
  const [w, h2] = [1200, 500];
  await page.fill('#export-width', String(w));
  await page.fill('#export-height', String(h2));
  const { file, name } = await download(page, () => page.click('#export-svg'));
  assert.equal(name, 'sample_resnet18-multi-None.svg');
  const svg = fs.readFileSync(file, 'utf8');
  assert.match(svg, /<\/svg>\n$/, 'complete file');
  const pageRects = rects(svg);
  // The canvas at the same size draws the same planes: each drawn plane is a <rect>.
  await page.setViewportSize({ width: 1280, height: 800 });
  const pic = await page.evaluate(([W, H]) => {
    const p = window.__memplan.viewer.picture(W, H, 1);
    const f = p.frame();
    p.free();
    return f;
  }, [w, h2]);
  const fmt = (x) => String(Math.round(x * 1000) / 1000);
  for (const d of pic.drawn) {
    const r = `${fmt(d.rect.x)} ${fmt(d.rect.y)} ${fmt(d.rect.w)} ${fmt(d.rect.h)}`;
    assert.ok(pageRects.filled.some((k) => k.startsWith(r + ' ')), `plane ${d.plane} at ${r}`);
  }
  // The CLI, given the same file and the same view, writes the same rectangles.
  const view = await page.evaluate(() => Array.from(window.__memplan.viewer.view()).join(','));
  const sample = path.join(h.dist, 'sample', 'resnet18-multi-None.json');
  const out = path.join(results, 'cli-render.svg');
  execFileSync(cli(), ['render', sample, '-o', out, '--width', String(w), '--height', String(h2), `--view=${view}`]);
  const cliRects = rects(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(cliRects.filled, pageRects.filled);
  assert.deepEqual(cliRects.patterns, pageRects.patterns);
  assert.deepEqual(cliRects.outlines, pageRects.outlines);
  assert.ok(pageRects.filled.length > pic.drawn.length);
  await page.close();
});

test('text exports download complete files', async () => {
  const page = await env.open();
  await h.ready(page);
  await page.click('#export summary');
  for (const [format, ext, check] of [
    ['memplan', '.memplan.json', (t) => assert.ok(JSON.parse(t).plan.planes.length > 30)],
    ['aidge', '.memory_info.txt', (t) => assert.match(t, /MEM_0/)],
    ['csv', '.csv', (t) => assert.match(t, /^id,lower,upper,size,offset\n/)],
    ['header', '.h', (t) => assert.match(t, /#define/)],
  ]) {
    const { file, name } = await download(page, () => page.click(`#export-${format}`));
    assert.ok(name.endsWith(ext), name);
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(text, await page.evaluate((f) => window.__memplan.exportText(f), format));
    check(text);
  }
  await page.close();
});

test('a size typed right after opening the Export menu is the size exported; out of range is refused', async () => {
  const page = await env.open();
  await h.ready(page);
  // Open the menu and select the empty width field in one task, so the menu's `toggle`
  // event runs between the selection and the typing (as it can for a quick user, or for
  // page.fill under load): the page used to write the chart's width into the field
  // then, and the typed digits were appended to it.
  await page.evaluate(() => {
    document.getElementById('export').open = true;
    const w = document.getElementById('export-width');
    w.focus();
    w.select();
  });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  await page.keyboard.insertText('1200');
  assert.equal(await page.inputValue('#export-width'), '1200');
  assert.equal(await page.inputValue('#export-height'), '', 'an empty field exports the chart\'s height');
  const { file } = await download(page, () => page.click('#export-svg'));
  const svg = fs.readFileSync(file, 'utf8');
  const height = await page.evaluate(() => Math.round(document.getElementById('stage').clientHeight));
  assert.match(svg, new RegExp(`^<svg[^>]* width="1200" height="${height}"`));
  // What the clobbered field asked for: refused with a message (and no download, which is
  // how the SVG and PNG export tests failed: a download that never started).
  await page.fill('#export-width', '9801200');
  await page.click('#export-svg');
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /^export: export size 9801200 × \d+: each side must be in 100\.\.200000/);
  await page.close();
});

test('a 30,000-px-wide PNG at 2× is complete (tiled, no canvas limit)', async () => {
  const page = await env.open();
  await h.ready(page);
  // 20,000 buffers over 5,000 clocks: planes all the way to the right edge.
  const csv = execFileSync('node', [path.join(root, 'scripts/gen-synthetic.mjs'), '20000']);
  await h.drop(page, [['wide.csv', csv]]);
  await h.waitForFiles(page, 2);
  await page.click('#export summary');
  await page.fill('#export-width', '30000');
  await page.fill('#export-height', '600');
  await page.selectOption('#export-scale', '2');
  const { file, name } = await download(page, () => page.click('#export-png'));
  assert.equal(name, 'wide.png');
  const png = decodePng(fs.readFileSync(file));
  assert.equal(png.width, 60000);
  assert.equal(png.height, 1200);
  // Every plane drawn at the right end, at the left end and across tile seams (every
  // 4096 output pixels) shows in the PNG: its centre is not background.
  const drawn = await page.evaluate(() => {
    const p = window.__memplan.viewer.picture(30000, 600, 2);
    const f = p.frame();
    p.free();
    return f.drawn.filter((d) => d.rect.w >= 3 && d.rect.h >= 3).map((d) => d.rect);
  });
  const right = Math.max(...drawn.map((r) => r.x + r.w));
  assert.ok(right > 30000 - 14 - 8, `planes reach the right end (${right})`);
  const checks = drawn.filter((r) => r.x + r.w > right - 8 || r.x < 80
    || Math.floor(2 * r.x / 4096) !== Math.floor(2 * (r.x + r.w) / 4096));
  assert.ok(checks.length > 20, `${checks.length} planes checked`);
  for (const r of checks) {
    const [cr, cg, cb] = png.px(Math.floor(2 * (r.x + r.w / 2)), Math.floor(2 * (r.y + r.h / 2)));
    assert.ok(!(cr === 255 && cg === 255 && cb === 255), `plane at ${r.x},${r.y} painted`);
  }
  // And the far right column of the plot is not blank.
  let painted = 0;
  for (let y = 0; y < 1200; y++) {
    const [cr, cg, cb] = png.px(2 * (right - 3), y);
    if (!(cr === 255 && cg === 255 && cb === 255)) painted++;
  }
  assert.ok(painted > 20, `${painted} painted pixels in the last column`);
  await page.close();
});

test('keyboard: P jumps to the peak, arrows move between planes, Esc clears, / searches', async () => {
  const page = await env.open();
  await h.ready(page);
  await page.focus('#stage');
  await page.keyboard.press('p');
  await twoFrames(page);
  const sel = () => page.evaluate(() => window.__memplan.viewer.selected() ?? null);
  const peak = await sel();
  assert.notEqual(peak, null);
  const s = await h.summary(page);
  // The peak plane reaches the peak: its top is the peak line.
  const f0 = await h.frame(page);
  const top = Math.min(...f0.drawn.filter((d) => d.plane === peak).map((d) => d.rect.y));
  assert.ok(Math.abs(top - f0.peak_y[0]) <= 1.5, `top ${top} vs peak line ${f0.peak_y[0]} (${s.peak})`);
  assert.match(await page.textContent('#announce'), /live from clock/);
  const centre = (f, p) => {
    const r = f.drawn.find((d) => d.plane === p).rect;
    return [r.x + r.w / 2, r.y + r.h / 2];
  };
  await page.keyboard.press('ArrowLeft');
  await twoFrames(page);
  const left = await sel();
  assert.notEqual(left, peak);
  const f1 = await h.frame(page);
  assert.ok(centre(f1, left)[0] < centre(f1, peak)[0], 'left is earlier');
  await page.keyboard.press('ArrowDown');
  await twoFrames(page);
  const down = await sel();
  const f2 = await h.frame(page);
  assert.ok(centre(f2, down)[1] > centre(f2, left)[1], 'down is a lower address');
  assert.match(await page.textContent('#pinned'), /plane/);
  await page.keyboard.press('Escape');
  assert.equal(await sel(), null);
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'search');
  // The hidden table lists the buffers for screen readers.
  const rows = await page.locator('#buffers tbody tr').count();
  assert.equal(rows, s.planes);
  await page.screenshot({ path: path.join(results, 'keyboard-1280x800.png') });
  // Dark theme toggle.
  await page.click('#theme'); // auto → light
  await page.click('#theme'); // light → dark
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await twoFrames(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await twoFrames(page);
  await page.screenshot({ path: path.join(results, 'dark-1920x1080.png') });
  await page.click('#theme'); // back to auto for other tests
  await page.close();
});

test('an embedder who copies only what the README names gets a working, keyboard-navigable element', async () => {
  // README, "Embedding in docs": memplan-view.js, memplan-ui.js and pkg/, beside the pages.
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'memplan-embedder-'));
  for (const f of ['memplan-view.js', 'memplan-ui.js', 'pkg']) {
    fs.cpSync(path.join(h.dist, f), path.join(site, f), { recursive: true });
  }
  for (const f of ['resnet18.memory_info.txt', 'squeezenet1_1-single.memory_info.txt']) {
    fs.copyFileSync(path.join(h.dist, 'demo', f), path.join(site, f));
  }
  fs.writeFileSync(path.join(site, 'chapter.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="memplan-view.js"></script>
<memplan-view id="v" src="resnet18.memory_info.txt" theme="dark" height="300"></memplan-view>`);
  const { server, url: at } = await serve(site, 0);
  const page = await env.browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(at + 'chapter.html');
    assert.deepEqual(await elementsReady(page), [['v', true]]);
    assert.ok((await elementFrame(page, 'v')).drawn.length > 10);
    assert.equal(await page.getAttribute('#v', 'data-theme'), 'dark');
    await page.evaluate(() => document.getElementById('v').setAttribute('theme', 'light'));
    assert.equal(await page.getAttribute('#v', 'data-theme'), 'light');
    // The chart's keys, as on the page: P selects the peak plane, Shift+arrow pans.
    await page.evaluate(() => document.getElementById('v').stage.focus());
    const selected = await h.armEvent(page, 'v', 'select');
    await page.keyboard.press('p');
    const info = await selected();
    assert.ok(info && info.name, 'P selected a plane');
    await twoFrames(page); // P's own viewchange is sent by then
    const view = () => page.evaluate(() => document.getElementById('v').view);
    const [t0] = await view();
    const moved = await h.armEvent(page, 'v', 'viewchange');
    await page.keyboard.press('Shift+ArrowRight');
    const [t1] = (await moved()).view;
    assert.ok(t1 > t0, `Shift+ArrowRight pans later clocks in: ${t0} → ${t1}`);
    assert.equal(await page.evaluate(() => document.getElementById('v').selected), info.plane, 'the selection stays');
    // A new src replaces the plan shown: the element holds one file, not every one it showed.
    const planes = () => page.evaluate(() => document.getElementById('v').viewer.summary().planes);
    const resnet = await planes();
    await page.evaluate(() => document.getElementById('v').setAttribute('src', 'squeezenet1_1-single.memory_info.txt'));
    await page.waitForFunction((n) => document.getElementById('v').viewer.summary().planes !== n, resnet);
    assert.equal(await page.evaluate(() => document.getElementById('v').viewer.files().length), 1);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    server.close();
    fs.rmSync(site, { recursive: true, force: true });
  }
});
