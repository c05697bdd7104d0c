// Issue #39, item 1: "Lower bound" and "proven optimal" are not contradicted by the next
// click. A model's plan as loaded is one layout of its schedule: the page names its
// bound "Layout bound" (panel, chart, report), never "proven optimal" at it; best then
// goes under that bound and says the bound over every layout it made, "proven optimal"
// only at that one. A buffer list's bound stays a lower bound.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as h from './harness.mjs';

let env;
before(async () => { env = await h.start(); });
after(async () => { await env?.stop(); });

const digits = (s) => BigInt(String(s).replace(/[^\d]/g, ''));
const rowLabel = (p, id) => p.evaluate((i) => document.getElementById(i)?.previousElementSibling?.textContent, id);

test('a model\'s bound is its layout\'s, and best says the bound over every layout', async () => {
  const p = await env.open();
  await h.ready(p);
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['squeezenet1_1.onnx', zlib.gunzipSync(fs.readFileSync(path.join(h.bench, 'models/squeezenet1_1.onnx.gz')))]]);
  await h.waitForFiles(p, n + 1);
  assert.equal(await rowLabel(p, 'bound'), 'Layout bound');
  const loaded = await p.evaluate(() => window.__memplan.viewer.report(window.__memplan.viewer.current()));
  assert.equal(loaded.bound_scope, 'layout');
  let report = await p.textContent('#report');
  assert.match(report, /layout bound 3,928,576 B — at its layout's bound \(another layout can be smaller: Re-plan with best\)/);
  assert.doesNotMatch(report, /proven optimal|lower bound/);
  assert.equal((await h.summary(p)).bound_name, 'Layout bound');
  await p.selectOption('#strategy', 'best');
  await p.click('#replan');
  await h.waitForFiles(p, n + 2);
  const best = await p.evaluate(() => window.__memplan.viewer.report(window.__memplan.viewer.current()));
  assert.ok(BigInt(best.peak) < BigInt(loaded.lower_bound), `best ${best.peak} under the loaded layout's bound`);
  assert.ok(best.layouts_bound != null && BigInt(best.layouts_bound) <= BigInt(best.peak));
  report = await p.textContent('#report');
  assert.match(report, /lower bound over every layout memplan makes [\d,]+ B/);
  assert.equal(/proven optimal/.test(report), best.layouts_bound === best.peak);
  assert.ok(digits(report.match(/over every layout memplan makes ([\d,]+) B/)[1]) <= BigInt(best.peak));
  assert.deepEqual(p.consoleErrors, []);
  await p.close();
});

test('a buffer list keeps its lower bound and proven optimal', async () => {
  const p = await env.open();
  await h.ready(p);
  const n = (await p.evaluate(() => window.__memplan.files())).length;
  await h.drop(p, [['C.1048576.csv', fs.readFileSync(path.join(h.bench, 'minimalloc/C.1048576.csv'))]]);
  await h.waitForFiles(p, n + 1);
  assert.equal(await rowLabel(p, 'bound'), 'Lower bound');
  assert.match(await p.textContent('#report'), /lower bound [\d,]+ B/);
  await p.close();
});
