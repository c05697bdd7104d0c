// Issue #36: Arm Vela's files on the page. Vela's --verbose-allocation report and the
// model it compiled (tests/data/vela, written by the real ethos-u-vela 5.2.0 with
// tests/data/vela/gen.py) are dropped together: each opens without error, its memory
// areas as lanes, the headline naming Vela's own figures, each lane's peak the
// "Allocation Peak Tensor Size" Vela printed (read here from the report itself).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

const dir = path.join(h.root, 'tests/data/vela');
const digits = (n) => BigInt(n).toLocaleString('en-US');
let env;
let page;

before(async () => {
  env = await h.start();
  page = await env.open();
  await h.ready(page);
});

after(async () => {
  await env?.stop();
});

/** Vela's printed peaks, section by section. */
function velaPeaks(text) {
  return [...text.matchAll(/^Allocation Peak Tensor Size: (\d+) bytes/gm)].map((m) => m[1]);
}

test('a Vela report and its compiled model dropped together: Vela\'s peaks, one lane per area', async () => {
  const stem = 'ch17.u65-256-dedicated';
  const report = fs.readFileSync(path.join(dir, `${stem}.txt`));
  const model = fs.readFileSync(path.join(dir, `${stem}.tflite`));
  const peaks = velaPeaks(report.toString());
  assert.equal(peaks.length, 3);
  const n = (await page.evaluate(() => window.__memplan.files())).length;
  await h.drop(page, [[`${stem}.txt`, report], [`${stem}.tflite`, model]]);
  await h.waitForFiles(page, n + 2);
  assert.equal(await page.isHidden('#error'), true);

  await page.selectOption('#files', { label: `${stem}.txt` });
  await page.waitForFunction(() => document.querySelector('#title').textContent.endsWith('.txt'));
  const s = await h.summary(page);
  assert.deepEqual(s.lanes.map((l) => l.name), ['Dram (FeatureMap)', 'Sram (Staging)', 'read-only NPU tensors']);
  const stats = await page.textContent('#stats');
  assert.match(stats, /Vela's “Allocation Peak Tensor Size”/, 'the headline names Vela\'s figure');
  for (const p of peaks) assert.match(stats, new RegExp(`${digits(p)} B`), `Vela's peak ${p} shown`);
  assert.equal(s.findings.length, 0, 'the checker finds nothing');
  await page.screenshot({ path: path.join(h.results, 'vela-report.png') });

  await page.selectOption('#files', { label: `${stem}.tflite` });
  await page.waitForFunction(() => document.querySelector('#title').textContent.endsWith('.tflite'));
  const t = await h.summary(page);
  assert.equal(t.lanes.length, 3, 'arena, fast memory, model constants');
  const tstats = await page.textContent('#stats');
  // The arena holds Vela's Dram area, the fast memory its Sram area.
  assert.match(tstats, new RegExp(`TFLM arena \\(NPU scratch\\)\\s*${digits(peaks[0])} B`));
  assert.match(tstats, new RegExp(`scratch_fast\\)\\s*${digits(peaks[1])} B`));
  assert.equal(t.findings.length, 0);
  await page.screenshot({ path: path.join(h.results, 'vela-tflite.png') });
});
