// One planning path (issue #14): the CLI (`memplan plan`), the page (its Web Worker, through
// the strategy menu and Re-plan) and the <memplan-view> element give the same plan for the same
// file and strategy, including an Aidge export that holds both Aidge's plan and the schedule it
// came from (all three start from the file's own plan). The native twin is
// tests/planning_faces.rs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './harness.mjs';

/** Every kind of document: plan + schedule (auto-concat: the default driver plans it otherwise),
 * Aidge's text log, a buffer list without offsets. */
const DOCUMENTS = [
  'tests/data/aidge/squeezenet1_1-autoconcat-None.json',
  'tests/data/vit/fused/memory_info.txt',
  'tests/data/bench/minimalloc/example.12.csv',
];
/** Strategies whose plan does not depend on the time given (the element has 300 ms, the page 2 s). */
const STRATEGIES = ['aidge', 'greedy-size', 'greedy-conflicts'];

let env;
before(async () => { env = await h.start(); });
after(async () => { await env.stop(); });

/** The CLI binary built next to the wasm (cargo build --release). */
function cli() {
  const target = process.env.CARGO_TARGET_DIR ?? path.join(h.root, 'target');
  for (const p of ['release/memplan', 'debug/memplan']) {
    if (fs.existsSync(path.join(target, p))) return path.join(target, p);
  }
  assert.fail(`no memplan binary in ${target}: run cargo build --release first`);
}

/** The `plan` object of memplan JSON text; numbers kept as digits (sizes pass 2^53). */
const planOf = (json) => JSON.parse(json.replace(/:\s*(\d{16,})/g, ':"$1"')).plan;

function cliPlan(file, strategy) {
  return planOf(execFileSync(cli(), ['plan', file, '--strategy', strategy, '-o', '-'], { encoding: 'utf8' }));
}

/** The page: drop the file (opened as loaded), then Re-plan with `strategy`; the shown plan. */
async function pagePlan(page, file, strategy) {
  const before = await page.evaluate(() => window.__memplan.files().length);
  await h.drop(page, [[path.basename(file), fs.readFileSync(path.join(h.root, file))]]);
  await h.waitForFiles(page, before + 1);
  if (strategy !== 'aidge') {
    const n = before + 2;
    await page.selectOption('#strategy', strategy);
    await page.click('#replan');
    await h.waitForFiles(page, n);
  }
  return planOf(await page.evaluate(() => window.__memplan.exportText('memplan')));
}

/** A <memplan-view strategy=…> given the file's bytes under its name. */
async function elementPlan(page, file, strategy) {
  const bytes = [...fs.readFileSync(path.join(h.root, file))];
  const json = await page.evaluate(async ([name, data, strategy]) => {
    const el = document.createElement('memplan-view');
    if (strategy !== 'aidge') el.setAttribute('strategy', strategy);
    document.body.append(el);
    await el.viewerReady;
    el.open(name, new Uint8Array(data));
    const text = el.viewer.export('memplan');
    el.remove();
    return text;
  }, [path.basename(file), bytes, strategy]);
  return planOf(json);
}

test('the CLI, the page and <memplan-view> give one plan for a file and a strategy', async () => {
  const page = await env.open();
  await h.ready(page);
  const embed = await env.open('docs-demo.html');
  await embed.waitForFunction(() => customElements.get('memplan-view'));
  for (const file of DOCUMENTS) {
    for (const strategy of STRATEGIES) {
      const want = cliPlan(path.join(h.root, file), strategy);
      assert.ok(want.planes.length > 0, `${file}: the CLI planned something`);
      assert.deepEqual(await pagePlan(page, file, strategy), want, `${file} ${strategy}: the page differs from the CLI`);
      assert.deepEqual(await elementPlan(embed, file, strategy), want, `${file} ${strategy}: <memplan-view> differs from the CLI`);
    }
  }
  assert.deepEqual(page.consoleErrors, []);
  assert.deepEqual(embed.consoleErrors, []);
});

test('an export holding a plan and a schedule is shown as its plan, not as the schedule replanned', async () => {
  const file = 'tests/data/aidge/squeezenet1_1-autoconcat-None.json';
  const given = planOf(fs.readFileSync(path.join(h.root, file), 'utf8'));
  const fromSchedule = planOf(execFileSync(cli(), ['plan', path.join(h.root, file), '--from', 'schedule', '-o', '-'],
    { encoding: 'utf8' }));
  assert.notDeepEqual(fromSchedule.planes.map((p) => p.cont_offset), given.planes.map((p) => p.cont_offset),
    'the default driver plans this schedule otherwise');
  const page = await env.open();
  await h.ready(page);
  const shown = await pagePlan(page, file, 'aidge');
  const places = (plan) => plan.spaces.map((s) => [String(s.offset), String(s.size)]);
  assert.deepEqual(places(shown), places(given));
  assert.notDeepEqual(places(shown), places(fromSchedule));
  assert.deepEqual(shown.planes.map((p) => p.cont_offset), given.planes.map((p) => p.cont_offset));
});
