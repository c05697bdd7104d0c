// End-to-end tests of the page where others put it (issue #34): `?url=` and `#url=`
// open a file from an address (the page's own site, or another that allows it: CORS),
// a refusal and a 404 are said naming the address, and Copy link of a plan too large
// for a link gives the address; the postMessage API, driven by an embedding page of
// another origin that frames index.html or embed.html (tests/e2e/fixtures/embedder/);
// and the built site served from a sub-path (`/memplan/`, as GitHub Pages serves it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const { root, results, bench } = h;
let env;
let url;
/** Other sites: one that allows any page to read its files (CORS), one that does not. */
let cors;
let plain;
/** The embedding page's own site. */
let embedder;
let big;
const servers = [];

const RESNET = 'aidge/resnet18-multi-None/memory_info.txt';
const SQUEEZE = 'aidge/squeezenet1_1-single-None/memory_info.txt';

before(async () => {
  env = await h.start();
  ({ url } = env);
  // A plan too large to travel inside a link (more records than a link carries).
  big = fs.mkdtempSync(path.join(os.tmpdir(), 'memplan-hosting-'));
  fs.writeFileSync(path.join(big, 'big.csv'), execFileSync('node', [path.join(root, 'scripts/gen-synthetic.mjs'), '6000']));
  fs.cpSync(bench, path.join(big, 'bench'), { recursive: true, filter: (p) => !p.includes('models') });
  cors = await serve(big, 0, { cors: true });
  plain = await serve(big, 0);
  embedder = await serve(path.join(root, 'tests/e2e/fixtures/embedder'), 0);
  servers.push(cors.server, plain.server, embedder.server);
});

after(async () => {
  await env?.stop();
  for (const s of servers) s.close();
  if (big) fs.rmSync(big, { recursive: true, force: true });
});

/** Waits for the page to be ready and returns the names of its files. */
async function opened(page) {
  await h.ready(page);
  return page.evaluate(() => window.__memplan.files());
}

test('?url= opens a file of the site, and its link keeps the address', async () => {
  const page = await env.open('?url=demo/resnet18.memory_info.txt');
  assert.deepEqual(await opened(page), ['resnet18.memory_info.txt'], 'the file, not the sample');
  assert.equal((await h.summary(page)).peak_bytes, h.golden('resnet18-multi-None'));
  assert.ok((await h.frame(page)).drawn.length > 30);
  // The address moved into the fragment, absolute, with the view.
  await page.waitForFunction(() => !location.search && /[#&]url=/.test(location.hash) && /view=/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  assert.equal(new URLSearchParams(hash.slice(1)).get('url'), `${url}demo/resnet18.memory_info.txt`);
  const again = await env.open(hash);
  assert.deepEqual(await opened(again), ['resnet18.memory_info.txt']);
  assert.deepEqual(page.consoleErrors, []);
  await Promise.all([page.close(), again.close()]);
});

test('#url= opens a file of another site that allows it (CORS)', async () => {
  const address = `${cors.url}bench/${SQUEEZE}`;
  const page = await env.open(`#url=${encodeURIComponent(address)}&names=1`);
  assert.deepEqual(await opened(page), ['memory_info.txt']);
  assert.equal((await h.summary(page)).peak_bytes, h.golden('squeezenet1_1-single-None'));
  assert.equal(await page.evaluate(() => window.__memplan.viewer.names()), true);
  // Only the page's site and the address named were asked.
  assert.deepEqual(h.outside(page, url).filter((r) => r !== address), []);
  await page.close();
});

test('a refused or missing address is said, naming the address, and no plan stands in for it', async () => {
  // Another site that does not allow this page to read its files.
  const refused = `${plain.url}bench/${SQUEEZE}`;
  const page = await env.open(`?url=${encodeURIComponent(refused)}`);
  await h.ready(page);
  await page.waitForSelector('#error:not([hidden])');
  const said = await page.textContent('#error');
  assert.ok(said.startsWith(`link: could not read ${refused}: the request was refused or did not reach the server`), said);
  assert.match(said, /CORS, Access-Control-Allow-Origin/);
  assert.deepEqual(await page.evaluate(() => window.__memplan.files()), [], 'not the sample');
  assert.equal(await page.isVisible('#empty'), true);
  await page.screenshot({ path: path.join(results, 'url-refused-1280x800.png') });
  // A file that is not there.
  const missing = await env.open('?url=demo/no-such-plan.json');
  await h.ready(missing);
  await missing.waitForSelector('#error:not([hidden])');
  assert.equal(await missing.textContent('#error'),
    `link: could not read ${url}demo/no-such-plan.json: the server answered 404 Not Found (no such file)`);
  assert.deepEqual(await missing.evaluate(() => window.__memplan.files()), []);
  await Promise.all([page.close(), missing.close()]);
});

test('Copy link of a plan too large for a link gives its address when it came from one', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.slice(0, -1) });
  const address = `${cors.url}big.csv`;
  // Dropped, the same file is too large for a link: the link names it only (plan=).
  const dropped = await context.newPage();
  await dropped.goto(url);
  await h.ready(dropped);
  await h.drop(dropped, [['big.csv', fs.readFileSync(path.join(big, 'big.csv'))]]);
  await h.waitForFiles(dropped, 2);
  await dropped.click('#copy-link');
  await dropped.waitForSelector('#notice:not([hidden])');
  assert.match(await dropped.evaluate(() => navigator.clipboard.readText()), /#plan=big\.csv/);
  // From its address: the link carries the address and the view.
  const page = await context.newPage();
  await page.goto(`${url}?url=${encodeURIComponent(address)}`);
  assert.deepEqual(await opened(page), ['big.csv']);
  await page.focus('#stage');
  await page.keyboard.press('p');
  await page.click('#copy-link');
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice'), /Link copied \([\d.]+ KB\): it opens this plan at this view\./);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const f = new URLSearchParams(new URL(link).hash.slice(1));
  assert.equal(f.get('url'), address);
  assert.equal(f.get('data'), null);
  assert.ok(f.get('view') && f.get('sel'), link);
  const want = await page.evaluate(() => ({ sel: window.__memplan.viewer.selected(), planes: window.__memplan.viewer.plane_count() }));
  const again = await context.newPage();
  await again.goto(link);
  assert.deepEqual(await opened(again), ['big.csv']);
  const got = await again.evaluate(() => ({ sel: window.__memplan.viewer.selected(), planes: window.__memplan.viewer.plane_count() }));
  assert.deepEqual(got, want);
  await context.close();
});

/** Opens the embedding page framing `target` and waits for the page's PONG. */
async function embedding(target) {
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 700 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${embedder.url}?page=${encodeURIComponent(url + target)}`);
  const pong = await page.evaluate(() => window.embedder.pong);
  assert.deepEqual(pong, { type: 'PONG', id: 0, version: 1 });
  page.errors = errors;
  return page;
}

/** Sends `message` from the embedding page; `file` (a path) goes as its transferred `bytes`. */
function request(page, message, file) {
  const data = file ? fs.readFileSync(file).toString('base64') : null;
  return page.evaluate(([m, b64]) => {
    if (b64 == null) return window.embedder.request(m);
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
    return window.embedder.request({ ...m, bytes }, [bytes]);
  }, [message, data]);
}

test('postMessage API: an embedding page opens a plan in the page, sets names and theme, reads the report', async () => {
  const page = await embedding('index.html');
  const frame = page.frames().find((f) => f.url().startsWith(url));
  await frame.waitForFunction(() => window.__memplan?.ready);
  const peak = h.golden('squeezenet1_1-single-None');
  const open = await request(page, { type: 'open', name: 'squeezenet.memory_info.txt' }, path.join(bench, SQUEEZE));
  assert.equal(open.ok, true, JSON.stringify(open));
  assert.equal(open.type, 'reply');
  assert.equal(open.result.name, 'squeezenet.memory_info.txt');
  assert.equal(open.result.summary.peak_bytes, peak);
  assert.ok(open.result.summary.planes > 30);
  assert.equal(await frame.evaluate(() => window.__memplan.viewer.file_name(window.__memplan.viewer.current())), 'squeezenet.memory_info.txt');
  // Text is bytes too.
  const csv = await request(page, { type: 'open', name: 'tiny.csv', bytes: 'id,lower,upper,size\n0,0,2,64\n1,1,3,32\n' });
  assert.equal(csv.ok, true, JSON.stringify(csv));
  assert.equal(csv.result.summary.peak_bytes, '96');
  const set = await request(page, { type: 'set', names: true, theme: 'dark' });
  assert.deepEqual(set, { type: 'reply', id: set.id, ok: true, result: { names: true, hex: false, theme: 'dark' } });
  assert.equal(await frame.evaluate(() => window.__memplan.viewer.names()), true);
  assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const report = await request(page, { type: 'report' });
  assert.equal(report.ok, true, JSON.stringify(report));
  assert.equal(report.result.name, 'tiny.csv');
  assert.equal(String(report.result.report.peak), '96');
  // Replies carry their request's id; bad requests are answered with what is wrong.
  const ids = [report.id, set.id, csv.id, open.id];
  assert.equal(new Set(ids).size, 4);
  const unknown = await request(page, { type: 'upload' });
  assert.equal(unknown.ok, false);
  assert.match(unknown.error, /unknown request type “upload”/);
  const nameless = await request(page, { type: 'open', name: '', bytes: 'x' });
  assert.match(nameless.error, /`name` must be a file name/);
  const broken = await request(page, { type: 'open', name: 'broken.json', bytes: '{"format": "memplan"' });
  assert.equal(broken.ok, false);
  assert.match(broken.error, /broken\.json/);
  // A file the user opens in the page is not the embedder's to read.
  await frame.evaluate(async (b64) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'mine.memory_info.txt'));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, fs.readFileSync(path.join(bench, RESNET)).toString('base64'));
  await frame.waitForFunction(() => window.__memplan.files().includes('mine.memory_info.txt'));
  const refused = await request(page, { type: 'report' });
  assert.equal(refused.ok, false);
  assert.match(refused.error, /not opened through this API/);
  await page.screenshot({ path: path.join(results, 'embed-api-index-1100x700.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('postMessage API in embed.html: a frame with no fragment waits for its embedder\'s plan', async () => {
  const page = await embedding('embed.html');
  const frame = page.frames().find((f) => f.url().startsWith(url));
  await frame.waitForFunction(() => window.__embed?.ready);
  assert.equal(await frame.evaluate(() => window.__embed.view.error.hidden), true, 'no error while it waits');
  const open = await request(page, { type: 'open', name: 'resnet18.memory_info.txt' }, path.join(bench, RESNET));
  assert.equal(open.ok, true, JSON.stringify(open));
  assert.equal(open.result.summary.peak_bytes, h.golden('resnet18-multi-None'));
  const set = await request(page, { type: 'set', names: true, hex: true, theme: 'light' });
  assert.deepEqual(set.result, { names: true, hex: true, theme: 'light' });
  const report = await request(page, { type: 'report' });
  assert.equal(report.ok, true);
  assert.equal(String(report.result.report.peak), h.golden('resnet18-multi-None'));
  await frame.waitForFunction(() => window.__embed.view.viewer.frame().labels.length > 0);
  await page.screenshot({ path: path.join(results, 'embed-api-embed-1100x700.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the built site works from a sub-path (/memplan/, as GitHub Pages serves it)', async () => {
  const sub = await serve(h.dist, 0, { at: '/memplan/' });
  servers.push(sub.server);
  const origin = sub.url.replace(/\/memplan\/$/, '');
  const open = async (at) => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.requests = [];
    page.failed = [];
    page.errors = [];
    page.on('request', (r) => page.requests.push(r.url()));
    page.on('response', (r) => { if (r.status() >= 400) page.failed.push(`${r.status()} ${r.url()}`); });
    page.on('pageerror', (e) => page.errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
    await page.goto(at);
    return page;
  };
  // The page without its slash is redirected to it.
  const page = await open(`${origin}/memplan`);
  assert.equal(page.url(), sub.url);
  assert.deepEqual(await opened(page), ['sample: resnet18-multi-None.json']);
  assert.ok((await h.frame(page)).drawn.length > 30);
  // Files that need the whole crate's module (a Aidge log, read by pkg/ in the worker)
  // and the ONNX module (pkg-onnx/, its own worker): loaded from under the sub-path.
  await h.drop(page, [['squeeze.memory_info.txt', fs.readFileSync(path.join(bench, SQUEEZE))]]);
  await h.waitForFiles(page, 2);
  assert.equal((await h.summary(page)).peak_bytes, h.golden('squeezenet1_1-single-None'));
  await h.drop(page, [['param_readers.onnx', fs.readFileSync(path.join(root, 'tests/data/onnx/param_readers.onnx'))]]);
  await h.waitForFiles(page, 3);
  const loaded = page.requests.filter((r) => /pkg(-onnx)?\/memplan_bg\.wasm$/.test(r));
  assert.ok(loaded.some((r) => r.endsWith('/memplan/pkg/memplan_bg.wasm')), loaded.join(' '));
  assert.ok(loaded.some((r) => r.endsWith('/memplan/pkg-onnx/memplan_bg.wasm')), loaded.join(' '));
  // ?url= relative to the sub-path, embed.html and the docs demo.
  const linked = await open(`${sub.url}?url=demo/resnet18.memory_info.txt`);
  assert.deepEqual(await opened(linked), ['resnet18.memory_info.txt']);
  const frame = await open(`${sub.url}embed.html#src=demo/resnet18.memory_info.txt`);
  await frame.waitForFunction(() => window.__embed?.ready && window.__embed.view.viewer?.current() != null);
  const demo = await open(`${sub.url}docs-demo.html`);
  await demo.waitForFunction(() => customElements.get('memplan-view'));
  assert.ok((await demo.evaluate(() => Promise.all([...document.querySelectorAll('memplan-view')].map((e) => e.ready)))).every(Boolean));
  for (const p of [page, linked, frame, demo]) {
    const elsewhere = p.requests.filter((r) => !r.startsWith(sub.url) && !/^(data|blob):/.test(r) && r !== `${origin}/memplan`);
    assert.deepEqual(elsewhere, [], `${p.url()}: only under /memplan/`);
    assert.deepEqual(p.failed, [], p.url());
    assert.deepEqual(p.errors, [], p.url());
  }
  await page.screenshot({ path: path.join(results, 'subpath-1280x800.png') });
  await Promise.all([page, linked, frame, demo].map((p) => p.close()));
});
