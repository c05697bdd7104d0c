// End-to-end tests of the page's two wasm modules (issue #14, page weight): the first
// frame of the sample needs only pkg-lite/ (the viewer, memplan JSON planned as loaded);
// the whole crate (pkg/) is fetched when a file, a strategy or a text export needs it,
// and then gives what it gave before: other formats, errors with their JSON path,
// strategies, exports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

let env;
before(async () => { env = await h.start(); });
after(async () => { await env.stop(); });

const whole = (p) => p.requests.filter((r) => new URL(r).pathname.startsWith('/pkg/'));
const bad = (name) => [name, fs.readFileSync(path.join(h.root, 'tests/data/bad', name))];

test('the sample is drawn with the first module alone; a CSV fetches the whole crate', async () => {
  const page = await env.open();
  await h.ready(page);
  assert.ok((await h.frame(page)).drawn.length > 10);
  assert.ok(page.requests.some((r) => r.endsWith('/pkg-lite/memplan_bg.wasm')));
  assert.deepEqual(whole(page), [], 'the whole crate fetched for the sample');
  // The link of the sample's view (memplan JSON) is written too. (Whether by the first
  // module is no longer observable here: 300 ms after the first frame the page asks
  // the whole crate for best's bound over every layout, www/strategy.js `followUp`,
  // a race with the link's 200 ms coalescing.)
  await page.waitForFunction(() => location.hash.includes('data='));

  const csv = fs.readFileSync(path.join(h.bench, 'minimalloc/C.1048576.csv'));
  await h.drop(page, [['C.1048576.csv', csv]]);
  await h.waitForFiles(page, 2);
  assert.ok(whole(page).some((r) => r.endsWith('/pkg/memplan_bg.wasm')));
  assert.ok((await h.frame(page)).drawn.length > 100);
  assert.deepEqual(h.outside(page, env.url), []);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('a memplan JSON buffer list without offsets is placed by the whole crate', async () => {
  // place_default (greedy by size, or the sweep) is not in the first module: the
  // worker leaves such a list to pkg/, which places it as loaded always did.
  const page = await env.open();
  await h.ready(page);
  const list = JSON.stringify({ format: 'memplan', version: 1, buffers: { buffers: [
    { id: 'a', lower: 0, upper: 2, size: 64, offset: null },
    { id: 'b', lower: 1, upper: 3, size: 32, offset: null },
    { id: 'c', lower: 2, upper: 4, size: 64, offset: null },
  ], capacity: null } });
  await h.drop(page, [['list.memplan.json', Buffer.from(list)]]);
  await h.waitForFiles(page, 2);
  assert.ok(whole(page).some((r) => r.endsWith('/pkg/memplan_bg.wasm')));
  const s = await h.summary(page);
  // a and b, then b and c live together: 96 B is the bound, and greedy-size reaches it.
  assert.equal(s.peak_bytes, '96');
  assert.equal(s.findings.length, 0);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('a broken memplan JSON is explained by the whole crate, with its JSON path', async () => {
  const page = await env.open();
  await h.ready(page);
  await h.drop(page, [bad('negative.json')]);
  await page.waitForFunction(() => !document.getElementById('error').hidden);
  const text = await page.textContent('#error');
  assert.match(text, /negative\.json: \$\.plan\.spaces\[0\]\.size: .*negative values are not allowed/);
  assert.equal((await page.evaluate(() => window.__memplan.files())).length, 1);
  await page.close();
});

test('re-planning the sample with a strategy and exporting text use the whole crate', async () => {
  const page = await env.open();
  await h.ready(page);
  const asLoaded = await h.summary(page);
  await page.selectOption('#strategy', 'greedy-size');
  await page.click('#replan');
  await h.waitForFiles(page, 2);
  const replanned = await h.summary(page);
  assert.ok(BigInt(replanned.peak_bytes) <= BigInt(asLoaded.peak_bytes), `${replanned.peak} > ${asLoaded.peak}`);
  assert.equal(replanned.findings.length, 0);
  // The Aidge log of the shown plan, written by the whole crate from the first module's plan.
  const log = await page.evaluate(() => window.__memplan.exportText('aidge'));
  assert.match(log, /MEM_0/);
  assert.ok(whole(page).some((r) => r.endsWith('/pkg/memplan_bg.wasm')));
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});
