// Trust: bad files get the CLI's message in the page and the shown plan stays; nothing
// leaves the browser while dumps are dropped, planned and exported; the CSP forbids
// remote scripts and eval; names from dumps are text, never HTML; the built page works
// from a subfolder and offline. The bad files are the CLI suite's (tests/data/bad).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, ready, drop, summary, frame, waitForFiles, outside, root, dist, results, boundsKnown } from './harness.mjs';

const BAD = path.join(root, 'tests/data/bad');
const bad = (name) => [name, fs.readFileSync(path.join(BAD, name))];

let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

/** Drops one file and waits until the error box names it; returns the box's text. */
async function dropBad(page, name) {
  await drop(page, [bad(name)]);
  await page.waitForFunction((n) => {
    const box = document.getElementById('error');
    return !box.hidden && box.textContent.includes(n);
  }, name, { timeout: 20000 });
  return page.textContent('#error');
}

// File, then the place and what was expected, as `memplan check` prints them.
const CASES = [
  ['empty.json', 'empty file', 'expected memplan JSON'],
  ['binary.bin', 'line 1, column 1', 'not a text file'],
  ['latin1.csv', 'line 2, column 4', 'in UTF-8'],
  ['other-json.json', '$.format', 'expected memplan JSON v1'],
  ['wrong-version.json', '$.version', 'reads version 1'],
  ['truncated.json', 'line 3, column 46', 'truncated?'],
  ['nan.json', 'line 5, column 17', 'JSON has no NaN or Infinity'],
  ['deep.json', 'line 1, column 138', 'nested more than 128 levels'],
  ['negative.json', '$.plan.spaces[0].size', 'negative values are not allowed'],
  ['beyond-u64.json', '$.plan.spaces[0].size', 'whole number from 0 to 2^64-1'],
  ['bad-index.json', '$.plan.planes[0].space', 'space 3 out of range'],
  ['duplicate-id.json', '$.buffers.buffers[1].id', 'expected unique ids'],
  ['schedule-cycle.json', '$.schedule.nodes[1].inputs[0].parent', 'form a cycle'],
  ['schedule-dangling-input.json', '$.schedule.nodes[1].inputs[0].parent.node', 'node 7 does not exist'],
  ['csv-columns.csv', 'line 3, column 1', 'expected 4 fields, found 3'],
  ['csv-lower-above-upper.csv', 'line 2, column 5', 'upper must be greater than lower'],
  ['log-garbled.txt', 'line 5, column 35', 'does not match 3072'],
  ['log-truncated.txt', 'line 5, column 31', 'expected ` (0x`'],
];

test(`${CASES.length} kinds of bad file: the CLI's message, and the shown plan stays`, async () => {
  const page = await env.open();
  await ready(page);
  // The sample's bound over every layout arrives after its first frame (best, asked then).
  await boundsKnown(page);
  const before = await summary(page);
  const files = await page.evaluate(() => window.__memplan.files().length);
  for (const [name, place, expected] of CASES) {
    const text = await dropBad(page, name);
    assert.ok(text.includes(`${name}: ${place}`), `${name}: place missing in «${text}»`);
    assert.ok(text.includes(expected), `${name}: «${expected}» missing in «${text}»`);
    assert.deepEqual(await summary(page), before, `${name} changed the shown plan`);
    assert.equal(await page.evaluate(() => window.__memplan.files().length), files);
  }
  await page.screenshot({ path: path.join(results, 'robust-bad-file.png') });
  // Still usable: a good file opens after all of them.
  await drop(page, [bad('valid.json')]);
  await waitForFiles(page, files + 1);
  assert.equal(await page.evaluate(() => document.getElementById('error').hidden), true);
  assert.deepEqual(page.consoleErrors.filter((e) => /panicked|RuntimeError|unreachable/.test(e)), []);
  await page.close();
});

test('nothing leaves the browser while dumps are dropped, planned and exported', async () => {
  const page = await env.open();
  await ready(page);
  const own = new Set(listFiles(dist));
  const seen = [];
  await page.route('**/*', (route) => {
    const r = route.request();
    seen.push([r.method(), r.url()]);
    if (!r.url().startsWith(env.url)) return route.abort();
    return route.continue();
  });
  await drop(page, [bad('schedule-valid.json'), bad('beyond-2-53.csv'), bad('log-valid.txt')]);
  await waitForFiles(page, 4);
  // (Cancel stands in Re-plan's place until the last file is planned.)
  await page.waitForFunction(() => !window.__memplan.planning.busy);
  // Re-plan with a strategy (in the background when the page has a worker).
  if (await page.locator('#replan').isVisible()) {
    await page.selectOption('#strategy', { index: 1 });
    await page.click('#replan');
    await page.waitForFunction(() => document.getElementById('cancel').hidden, null, { timeout: 20000 });
  }
  // Every export.
  await page.click('#export summary');
  for (const id of ['export-memplan', 'export-aidge', 'export-csv', 'export-header', 'export-svg']) {
    const wait = page.waitForEvent('download');
    await page.click(`#${id}`);
    const dl = await wait;
    assert.match(dl.url(), /^blob:/, id);
  }
  for (const [method, url] of seen) {
    assert.equal(method, 'GET', url);
    assert.ok(url.startsWith(env.url), `left the origin: ${url}`);
    const file = decodeURIComponent(new URL(url).pathname.slice(1));
    assert.ok(own.has(file) || file === '', `not one of the page's files: ${url}`);
  }
  assert.deepEqual(outside(page, env.url), []);
  await page.close();
});

function listFiles(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`)
    : [`${prefix}${e.name}`]));
}

test('the Content-Security-Policy forbids remote scripts and eval', async () => {
  const page = await env.open();
  await ready(page);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  const directive = (name) => (csp.split(';').map((d) => d.trim().split(/\s+/)).find((d) => d[0] === name) ?? []).slice(1);
  const scripts = directive('script-src').length ? directive('script-src') : directive('default-src');
  assert.deepEqual(scripts.filter((s) => s !== "'self'" && s !== "'wasm-unsafe-eval'"), [], csp);
  assert.deepEqual(directive('default-src'), ["'self'"], csp);
  const failed = [];
  page.on('requestfailed', (r) => failed.push({ url: r.url(), error: r.failure()?.errorText }));
  // Code run by page.evaluate is exempt from the CSP (the debugger runs it), so the
  // eval attempt comes from a same-origin script, as the page's own code would.
  await page.route(`${env.url}__probe.js`, (route) => route.fulfill({
    contentType: 'text/javascript',
    body: "try { window.__eval = String(eval('1 + 1')); } catch (e) { window.__eval = e.name; }"
      + "try { window.__fn = String(new Function('return 2')()); } catch (e) { window.__fn = e.name; }",
  }));
  const outcome = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
    await new Promise((resolve) => {
      const probe = document.createElement('script');
      probe.src = '__probe.js';
      probe.onload = resolve;
      probe.onerror = resolve;
      document.head.append(probe);
    });
    const evaluated = window.__eval;
    const fn = window.__fn;
    const loaded = await new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = 'https://cdn.example.com/x.js';
      s.onload = () => resolve('loaded');
      s.onerror = () => resolve('blocked');
      document.head.append(s);
    });
    const inline = document.createElement('script');
    inline.textContent = 'window.__inline = 1';
    document.head.append(inline);
    await new Promise((r) => setTimeout(r, 50));
    return { evaluated, fn, loaded, inline: window.__inline ?? null, violations };
  });
  assert.equal(outcome.evaluated, 'EvalError');
  assert.equal(outcome.fn, 'EvalError');
  assert.equal(outcome.loaded, 'blocked');
  assert.equal(outcome.inline, null);
  assert.ok(outcome.violations.some((v) => v.startsWith('script-src')), JSON.stringify(outcome.violations));
  // Chromium lists the attempt as a request, failed by the CSP before it left.
  const remote = failed.filter((f) => f.url.startsWith('https://cdn.example.com'));
  assert.equal(remote.length, 1);
  assert.match(remote[0].error, /csp/i);
  await page.close();
});

const XSS = '<img src=x onerror=alert(1)>';

test('names from dumps are text: an HTML node name runs nothing', async () => {
  const page = await env.open();
  await ready(page);
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  const schedule = fs.readFileSync(path.join(BAD, 'schedule-valid.json'), 'utf8').replace('"conv"', JSON.stringify(XSS));
  const csv = `id,lower,upper,size\n${XSS},0,2,64\n"><svg onload=alert(2)>,1,3,32\n`;
  const before = await page.evaluate(() => window.__memplan.files().length);
  await drop(page, [[`${XSS}.json`, Buffer.from(schedule)], [`${XSS}.csv`, Buffer.from(csv)]]);
  await waitForFiles(page, before + 2);
  // Names on, hover and pin each plane, search for it: every place a name goes.
  await page.click('#names');
  for (const file of [before, before + 1]) {
    await page.selectOption('#files', { index: file });
    const f = await frame(page);
    // Canvas labels are pixels, never markup; they are drawn for the named planes.
    assert.ok(f.labels.length > 0, 'names drawn');
    const box = await page.locator('#chart').boundingBox();
    const d = f.drawn.find((p) => p.plane === 0);
    await page.mouse.move(box.x + d.rect.x + d.rect.w / 2, box.y + d.rect.y + d.rect.h / 2);
    await page.waitForSelector('#tooltip:not([hidden])');
    assert.ok((await page.textContent('#tooltip')).includes(XSS));
    await page.mouse.down();
    await page.mouse.up();
    assert.ok((await page.textContent('#pinned')).includes(XSS));
  }
  await page.fill('#search', 'onerror');
  assert.ok((await page.textContent('#title')).includes(XSS));
  assert.ok((await page.textContent('#files')).includes(XSS));
  await page.screenshot({ path: path.join(results, 'robust-html-names.png') });
  const injected = await page.evaluate(() => document.querySelectorAll('img, svg[onload], [onerror]').length);
  assert.equal(injected, 0);
  await page.waitForTimeout(200);
  assert.deepEqual(dialogs, []);
  await page.close();
});

test('the built page works from a subfolder and offline', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memplan-sub-'));
  fs.mkdirSync(path.join(tmp, 'sub'));
  fs.symlinkSync(dist, path.join(tmp, 'sub/memplan'), 'dir');
  // start() checks for the wasm at the root; the test below checks nothing asks for it there.
  fs.mkdirSync(path.join(tmp, 'pkg'));
  fs.copyFileSync(path.join(dist, 'pkg/memplan_bg.wasm'), path.join(tmp, 'pkg/memplan_bg.wasm'));
  const sub = await start({ dir: tmp });
  try {
    const page = await sub.open('sub/memplan/');
    await ready(page);
    assert.ok((await summary(page)).peak, 'the sample opened');
    // An Aidge log is read by the whole crate's module (pkg/), fetched on the first such
    // file; once it is there, offline from here on: opening and planning need nothing
    // from the network.
    await drop(page, [bad('log-valid.txt')]);
    await waitForFiles(page, 2);
    await page.context().setOffline(true);
    const n = await page.evaluate(() => window.__memplan.files().length);
    await drop(page, [bad('schedule-valid.json'), bad('log-crlf-bom.txt')]);
    await waitForFiles(page, n + 2);
    assert.ok((await frame(page)).drawn.length > 0);
    await page.context().setOffline(false);
    const fresh = await sub.open('sub/memplan/');
    await ready(fresh);
    assert.ok(fresh.requests.every((u) => !u.startsWith(sub.url) || new URL(u).pathname.startsWith('/sub/memplan/')),
      `asked outside the subfolder: ${fresh.requests.filter((u) => !new URL(u).pathname.startsWith('/sub/memplan/'))}`);
    await page.close();
    await fresh.close();
  } finally {
    await sub.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
