// Shared plumbing of the end-to-end tests (tests/e2e/*.test.mjs): paths, the static
// server over the built page, Debian's chromium through playwright-core, and the
// user gestures every test needs (dropping files, waiting for frames).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The reference bench copied into the repository (tests/data/bench/README.md). */
export const bench = path.join(root, 'tests/data/bench');
/** Screenshots for a person to look at. */
export const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
/** The built page under test (scripts/build.sh; MEMPLAN_DIST overrides, as there). */
export const dist = path.resolve(root, process.env.MEMPLAN_DIST ?? 'dist');

/** Aidge's peak for a bench case, from golden.log (written by the real aidge_core wheel). */
export function golden(name) {
  const line = fs.readFileSync(path.join(bench, 'aidge/golden.log'), 'utf8')
    .split('\n').find((l) => l.startsWith(`${name}: peak=`));
  assert.ok(line, `${name} in golden.log`);
  return line.split('peak=')[1].split(' ')[0];
}

/**
 * Serves `dist` on a free port and launches chromium. Returns the server's URL, the
 * browser, and `open(path?, viewport?)`, which opens a page that records every request
 * and every console error (`page.requests`, `page.consoleErrors`).
 */
export async function start({ dir = dist } = {}) {
  assert.ok(fs.existsSync(path.join(dir, 'pkg/memplan_bg.wasm')), 'run scripts/build.sh first');
  const { server, url } = await serve(dir, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
  async function open(at = '', viewport = { width: 1280, height: 800 }) {
    const page = await browser.newPage({ viewport });
    page.requests = [];
    page.consoleErrors = [];
    page.on('request', (r) => page.requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') page.consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => page.consoleErrors.push(String(e)));
    await page.goto(url + at);
    return page;
  }
  async function stop() {
    await browser.close();
    server.close();
  }
  return { server, url, browser, open, stop };
}

/** Waits until the viewer page is ready (wasm loaded, sample shown). */
export async function ready(page) {
  await page.waitForFunction(() => window.__memplan && window.__memplan.ready, null, { timeout: 20000 });
}

/**
 * Waits until the page has the bound over every layout of the schedules it opened: after
 * a schedule's first frame, the page asks best for it in a worker of its own
 * (www/strategy.js), and the chart, the panel and exports then show it.
 */
export async function boundsKnown(page) {
  await page.waitForFunction(() => window.__memplan.planning.floorsPending === 0, null, { timeout: 60000 });
}

/** Drops files on the page the way a browser does (DataTransfer + drop event). */
export async function drop(page, files) {
  const payload = files.map(([name, bytes]) => ({ name, data: Buffer.from(bytes).toString('base64') }));
  await page.evaluate(async (items) => {
    const dt = new DataTransfer();
    for (const { name, data } of items) {
      const bin = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      dt.items.add(new File([bin], name));
    }
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, payload);
}

/** The scene summary the page exposes for tests (peak, findings, clocks...). */
export function summary(page) {
  return page.evaluate(() => window.__memplan.summary());
}

/** The last drawn frame (planes drawn with their rectangles, labels, peak line). */
export async function frame(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => window.__memplan.frame());
}

/** Waits until at least `n` files are open in the page. */
export async function waitForFiles(page, n) {
  await page.waitForFunction((k) => window.__memplan.files().length >= k, n);
}

/** Requests that went anywhere but the page's own origin. */
export function outside(page, url) {
  return page.requests.filter((r) => !r.startsWith(url) && !r.startsWith('data:') && !r.startsWith('blob:'));
}

/**
 * Starts listening for the next `type` event on element `#id` and returns a function that waits
 * for it (its `detail`). The listener is in place before this resolves, so an input sent after it
 * cannot race the registration (a pending `page.evaluate` is not guaranteed to run first).
 */
export async function armEvent(page, id, type, timeout = 10000) {
  const key = `${id}:${type}`;
  await page.evaluate(([id, type, key]) => {
    window.__armed ??= {};
    window.__armed[key] = new Promise((resolve) => {
      document.getElementById(id).addEventListener(type, (e) => resolve(e.detail), { once: true });
    });
  }, [id, type, key]);
  return () => page.evaluate(([key, timeout]) => Promise.race([
    window.__armed[key],
    new Promise((_, no) => setTimeout(() => no(new Error(`no ${key} event`)), timeout)),
  ]), [key, timeout]);
}
