// Opening and re-planning through the worker (www/planner.js): every file is read,
// parsed and planned off the main thread; the strategy selector re-plans the shown
// file's source with another strategy and budget, with progress and Cancel. The
// Viewer keeps the files (src/web/files.rs): it says what a job reads and which file
// its plan becomes (a plan re-planned with a strategy opens as a planned copy, so the
// original stays and both can be compared), and holds each file's report. Text from
// dumps reaches the DOM only through textContent.
import { PlanWorker, Cancelled } from './planner.js';
import { strategy_names as strategyNames, strategy_help as strategyHelp, as_loaded as asLoaded } from './pkg-lite/memplan.js';
import { el } from './memplan-ui.js';

const $ = (id) => document.getElementById(id);

/** Digits with thousands separators (byte counts arrive as digit strings). */
const digits = (s) => BigInt(s).toLocaleString('en-US');

/** Spaces and planes decoded per slice of a hand-off: tens of ms on the main thread. */
const SLICE = 50000;

/**
 * Shows the plan the worker made for `job` (its answer `r`: wire bytes and report),
 * decoding in slices with a yield to the page between slices, so a million planes do
 * not freeze it. Returns the id of the file shown.
 */
async function showPlan(viewer, job, r) {
  const opening = viewer.begin_plan(job, r.wire, r.report);
  try {
    do await new Promise((res) => setTimeout(res, 0)); while (!opening.step(SLICE));
  } catch (e) {
    opening.free();
    throw e;
  }
  return viewer.finish_plan(opening);
}

/**
 * Fills the strategy menu from the Rust list (`strategy_names`: as loaded, then every
 * strategy `memplan plan --strategy` takes), `best` chosen.
 */
function fillStrategies(select) {
  select.replaceChildren(...strategyNames().map((name) => {
    const o = el('option', name.replaceAll('-', ' '));
    o.value = name;
    o.title = strategyHelp(name) ?? '';
    return o;
  }));
  select.value = 'best';
}

export function setupPlanning({ viewer, refresh, redraw, showError, clearError, notify }) {
  const worker = new PlanWorker();
  fillStrategies($('strategy'));
  /**
   * The last plan shown, for the benchmark and tests: when it was asked for and when
   * the worker answered (performance.now()), the worker's planning time, the main
   * thread's decode (in slices) + layout (`showPlan`), and the size of the hand-off.
   */
  const last = { asked: 0, answered: 0, drop_to_shown_ms: 0, worker_ms: 0, handoff_ms: 0, wire_bytes: 0 };
  /**
   * Per file id: what its reader warned of, and the names of its nodes sized from the
   * model (ONNX operators Aidge cannot size), whose planes' details say so.
   */
  const notes = new Map();

  function busy(on) {
    // Cancel takes Re-plan's place (style.css gives both one width), so the tool bar
    // keeps its rows while a plan is made; the focus goes along.
    const [from, to] = on ? [$('replan'), $('cancel')] : [$('cancel'), $('replan')];
    const focused = document.activeElement === from;
    $('cancel').hidden = !on;
    $('replan').hidden = on;
    $('replan').disabled = on;
    if (focused) to.focus();
    if (!on) say('');
  }

  function progress(name, p) {
    const text = {
      reading: 'reading…',
      parsing: `parsing ${p.bytes != null ? digits(String(p.bytes)) + ' B' : ''}…`,
      planning: 'planning…',
      searching: p.best_peak
        ? `searching: best ${digits(p.best_peak)} B, bound ${digits(p.lower_bound)} B (${p.elapsed_ms} ms)`
        : 'searching…',
    }[p.stage] ?? p.stage;
    say(`${name}: ${text}`);
  }

  /** The status box of the tool bar: one line, cut; its title holds the whole text. */
  function say(text) {
    $('progress').textContent = text;
    $('progress').title = text;
  }

  /** Runs `job` (a PlanJob of the Viewer, freed here) in the worker and shows its plan; returns the file's id. Throws on error. */
  async function plan(job) {
    const t0 = performance.now();
    const name = job.name;
    busy(true);
    progress(name, { stage: 'reading' });
    try {
      const millis = Math.max(1, Number($('budget').value) || 2000);
      const r = await worker.run({ key: job.key, name, source: job.source, companion: job.companion,
        deploy: job.deploy, strategy: job.strategy, millis },
        (p) => progress(name, p));
      const t1 = performance.now();
      const id = await showPlan(viewer, job, r);
      notes.set(id, { warnings: r.warnings ?? [], sized: new Set(r.sized_by_model ?? []) });
      Object.assign(last, {
        asked: t0,
        answered: t1,
        drop_to_shown_ms: performance.now() - t0,
        worker_ms: r.report.worker_ms,
        handoff_ms: performance.now() - t1,
        wire_bytes: r.wire.byteLength,
      });
      return id;
    } finally {
      busy(false);
      job.free();
    }
  }

  function showReport() {
    const box = $('report');
    const cur = viewer.current();
    const r = cur == null ? null : viewer.report(cur);
    box.replaceChildren();
    box.removeAttribute('data-proven');
    if (!r) return;
    // A buffer list without offsets is not "as loaded": memplan placed it. A link's plan
    // (`linked`: it travelled in the link) is the one its sender made with the strategy.
    const kept = asLoaded();
    const who = r.linked ? `${r.strategy}, as the link's sender planned it (the plan travelled in the link)`
      : r.strategy !== kept ? r.strategy
        : r.strategy_used !== kept ? `No offsets in the file: placed by memplan (${r.strategy_used})` : 'As loaded';
    const won = !r.linked && r.strategy !== kept && r.strategy_used !== r.strategy ? ` (won by ${r.strategy_used})` : '';
    // Several memories: the report's peak is the largest memory's alone; say the total.
    const m = viewer.summary()?.memories;
    if (m) {
      box.append(`${who}${won}: ${digits(m.total_bytes)} B in ${m.count} memories (sum of their peaks)`);
      if (r.proven_optimal) box.append(el('strong', ' — each memory at its lower bound'));
    } else if (r.bound_scope === 'layouts') {
      // A schedule's plan measured against the bound over every layout memplan makes
      // (no re-plan goes under it), with what best reached when the page asked.
      box.append(`${who}${won}: peak ${digits(r.peak)} B, lower bound over every layout memplan makes ${digits(r.lower_bound)} B`);
      if (r.proven_optimal) box.append(el('strong', ' — proven optimal'));
      if (r.best_reaches != null && r.best_reaches !== r.peak) {
        const pct = (Number(BigInt(r.best_reaches) * 1000n / BigInt(r.peak)) / 10 - 100).toFixed(1);
        box.append(el('strong', ` · best reaches ${digits(r.best_reaches)} B (${pct.replace('-', '−')} %): Re-plan with best`));
      } else if (r.best_reaches != null) {
        box.append(' · best reaches no lower');
      }
    } else if (r.bound_scope === 'layout') {
      // A schedule's plan: its bound is its layout's, which another layout can beat;
      // best, having made every layout it tries, also gives the bound over all of them.
      box.append(`${who}${won}: peak ${digits(r.peak)} B, layout bound ${digits(r.lower_bound)} B`);
      if (r.layouts_bound != null) box.append(`, lower bound over every layout memplan makes ${digits(r.layouts_bound)} B`);
      if (r.proven_optimal) box.append(el('strong', ' — proven optimal'));
      else if (r.at_bound) {
        box.append(el('strong', ' — at its layout\'s bound'));
        if (r.layouts_bound == null) box.append(' (another layout can be smaller: Re-plan with best)');
      }
    } else {
      box.append(`${who}${won}: peak ${digits(r.peak)} B, lower bound ${digits(r.lower_bound)} B`);
      if (r.proven_optimal) box.append(el('strong', ' — proven optimal'));
    }
    if (!r.linked) box.append(` · ${r.elapsed_ms} ms`);
    if (r.limits) box.append(el('span', r.limits, 'limits'));
    if (r.order) box.append(el('span', r.order, 'limits'));
    box.dataset.proven = String(r.proven_optimal);
    // The menu is the next re-plan's choice: it is left as the user set it, so that
    // Re-plan right after an open does something.
  }

  function update() {
    refresh();
    showReport();
    redraw();
  }

  /**
   * Opens `{ name, source: Blob, companion?: { name, source } }` items as loaded; bad ones
   * show their error. `aside`: `{ name, what }` of files dropped with them that hold no
   * plan (a dump folder's other files), noted in the same notice as the readers'
   * warnings. Resolves to the ids of the files opened.
   */
  async function open(items, aside = []) {
    const errors = [];
    const renamed = [];
    const ids = [];
    const warned = [];
    for (const { name, source, companion } of items) {
      try {
        const id = await plan(viewer.open_job(name, source, companion?.name, companion?.source));
        ids.push(id);
        followUp(id);
        // A second memory_info.txt opens as `memory_info.txt (2)`: say so.
        const shown = viewer.file_name(id);
        if (shown !== name) renamed.push(`“${shown}”`);
        for (const w of notes.get(id)?.warnings ?? []) warned.push(`${shown}: ${w}`);
      } catch (e) {
        if (e instanceof Cancelled) break; // Cancel stops the whole batch
        errors.push(e.message);
      }
    }
    if (errors.length) showError(errors.join('\n')); else clearError();
    const said = renamed.length
      ? [`A file of the same name was already open, so this one opened as ${renamed.join(', ')}. Rename… names it.`]
      : [];
    // Files that are what they are (a report, a list of values, an input program), not
    // failures: named in the notice, each with what it is and which file holds its plan.
    const left = aside.length
      ? [`Also dropped, not plans (left aside): ${aside.map((a) => a.name).join(', ')}.`] : [];
    notify([...said, ...warned, ...left].join('\n') || null, aside.map((a) => `${a.name}: ${a.what}`));
    update();
    return ids;
  }

  /**
   * Opens file `id` as `recipes` and `dtype` deploy it ("Deploy as", deploy.js): the worker
   * reads its source again, deploys it and plans it as loaded; the result is a file of its
   * own named `name · label`. Resolves to { id, warnings } (what the recipes did); throws
   * the worker's message (a node the deployment cannot take).
   */
  async function deploy(id, { recipes, dtype, label }) {
    const shown = await plan(viewer.deploy_job(id, recipes, dtype, label));
    followUp(shown);
    update();
    return { id: shown, warnings: notes.get(shown)?.warnings ?? [] };
  }

  /** Re-plans the shown file's source with the selected strategy. */
  async function replan() {
    const cur = viewer.current();
    if (cur == null) return;
    try {
      await plan(viewer.replan_job(cur, $('strategy').value));
      clearError();
    } catch (e) {
      if (!(e instanceof Cancelled)) showError(e.message ?? String(e));
    }
    update();
  }

  /**
   * After the first frame of a schedule's plan shown with its layout's bound (the first
   * module makes no other layout), the whole crate's module runs best on it in a worker
   * of its own, within BEST_MS: its bound over every layout memplan makes replaces the
   * layout's (Viewer.set_floor), and the report says what best reaches. Another open
   * cancels it; a file closed meanwhile is left alone.
   */
  let background = null;
  const BEST_MS = 2000;
  const pendingFloors = new Set();
  function followUp(id) {
    const r = viewer.report(id);
    if (!r || (r.bound_scope !== 'layout' && r.bound_scope !== 'layouts')) return;
    let job;
    try { job = viewer.replan_job(id, 'best'); } catch { return; }
    const ask = { key: job.key, name: job.name, source: job.source, companion: job.companion,
      deploy: job.deploy, strategy: 'best', millis: BEST_MS };
    job.free();
    pendingFloors.add(id);
    // After the first frame (and out of the page's first load: scripts/page-weight.mjs).
    setTimeout(async () => {
      background ??= new PlanWorker();
      try {
        const b = await background.run(ask);
        if (b.report.layouts_bound != null && viewer.set_floor(id, b.report.layouts_bound, b.report.peak)
          && viewer.current() === id) update();
      } catch { /* cancelled by a later open, or the file cannot be re-planned: keep its layout's bound */ }
      pendingFloors.delete(id);
    }, 300);
  }

  $('replan').addEventListener('click', replan);
  $('cancel').addEventListener('click', () => worker.cancel());
  $('files').addEventListener('change', showReport);

  /** Whether node `node` of file `id` was sized from the model, not from Aidge's kernels. */
  const sizedByModel = (id, node) => notes.get(id)?.sized.has(node) ?? false;

  return { open, replan, deploy, showReport, sizedByModel, last, get busy() { return worker.busy; },
    get floorsPending() { return pendingFloors.size; } };
}
