// Opening and re-planning through the worker (www/planner.js): every file is read,
// parsed and planned off the main thread; the strategy selector re-plans the shown
// file's source with another strategy and budget, with progress and Cancel. Plans
// re-planned with a strategy open as `name · strategy`, so the original stays and
// both can be compared. Text from dumps reaches the DOM only through textContent.
import { PlanWorker, Cancelled } from './planner.js';

const $ = (id) => document.getElementById(id);

/** Digits with thousands separators (byte counts arrive as digit strings). */
const digits = (s) => BigInt(s).toLocaleString('en-US');

/** Spaces and planes decoded per slice of a hand-off: tens of ms on the main thread. */
const SLICE = 50000;

/**
 * Shows the worker's wire bytes as the file `shown`, decoding them in slices with a
 * yield to the page between slices, so a million planes do not freeze it.
 */
async function showPlan(viewer, shown, wire) {
  const opening = viewer.begin_plan(shown, wire);
  try {
    do await new Promise((res) => setTimeout(res, 0)); while (!opening.step(SLICE));
  } catch (e) {
    opening.free();
    throw e;
  }
  return viewer.finish_plan(opening);
}

/**
 * A name for an opened file that no other open file has: `name`, else `name (2)`,
 * `name (3)`… Every Aidge dump is called memory_info.txt, and comparing two of them is
 * the point: a second one must not replace the first.
 */
export function uniqueName(name, taken) {
  if (!taken.includes(name)) return name;
  for (let k = 2; ; k++) {
    const candidate = `${name} (${k})`;
    if (!taken.includes(candidate)) return candidate;
  }
}

export function setupPlanning({ viewer, refresh, redraw, showError, clearError, notify }) {
  const worker = new PlanWorker();
  /** Shown file name → { key, name (the file's own, which the worker reads it by), label (as shown, when
   * renamed or made unique), source, strategy, report }. */
  const plans = new Map();
  let nextKey = 1;
  /**
   * The last plan shown, for the benchmark and tests: when it was asked for and when
   * the worker answered (performance.now()), the worker's planning time, the main
   * thread's decode (in slices) + layout (`showPlan`), and the size of the hand-off.
   */
  const last = { asked: 0, answered: 0, drop_to_shown_ms: 0, worker_ms: 0, handoff_ms: 0, wire_bytes: 0 };

  function busy(on) {
    $('cancel').hidden = !on;
    $('replan').disabled = on;
    if (!on) $('progress').textContent = '';
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
    $('progress').textContent = `${name}: ${text}`;
  }

  /** Plans `entry` with `strategy` and shows it as `shown`. Throws on error. */
  async function plan(entry, strategy, shown) {
    const t0 = performance.now();
    busy(true);
    progress(entry.name, { stage: 'reading' });
    try {
      const millis = Math.max(1, Number($('budget').value) || 2000);
      const r = await worker.run({ key: entry.key, name: entry.name, source: entry.source, companion: entry.companion,
        strategy, millis },
        (p) => progress(entry.name, p));
      const t1 = performance.now();
      const index = await showPlan(viewer, shown, r.wire);
      if (r.report.capacity != null) viewer.set_capacity(index, r.report.capacity);
      plans.set(shown, { ...entry, strategy, report: r.report });
      Object.assign(last, {
        asked: t0,
        answered: t1,
        drop_to_shown_ms: performance.now() - t0,
        worker_ms: r.report.worker_ms,
        handoff_ms: performance.now() - t1,
        wire_bytes: r.wire.byteLength,
      });
      return r;
    } finally {
      busy(false);
    }
  }

  function showReport() {
    const box = $('report');
    const cur = viewer.current();
    const p = cur == null ? null : plans.get(viewer.files()[cur]);
    box.replaceChildren();
    box.removeAttribute('data-proven');
    if (!p) return;
    const r = p.report;
    // A buffer list without offsets is not "as loaded": memplan placed it.
    const who = r.strategy !== 'aidge' ? r.strategy
      : r.strategy_used !== 'aidge' ? `No offsets in the file: placed by memplan (${r.strategy_used})` : 'As loaded';
    const won = r.strategy !== 'aidge' && r.strategy_used !== r.strategy ? ` (won by ${r.strategy_used})` : '';
    box.append(`${who}${won}: peak ${digits(r.peak)} B, lower bound ${digits(r.lower_bound)} B`);
    if (r.proven_optimal) {
      const b = document.createElement('strong');
      b.textContent = ' — proven optimal';
      box.append(b);
    }
    box.append(` · ${r.elapsed_ms} ms`);
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
   * show their error.
   */
  async function open(items) {
    const errors = [];
    const renamed = [];
    for (const { name: asked, source, companion } of items) {
      const name = uniqueName(asked, viewer.files());
      try {
        // The worker reads the file under its own name (formats are told by it).
        await plan({ key: nextKey++, name: asked, label: name, source, companion }, 'aidge', name);
        if (name !== asked) renamed.push(`“${name}”`);
      } catch (e) {
        if (e instanceof Cancelled) break; // Cancel stops the whole batch
        errors.push(e.message);
      }
    }
    if (errors.length) showError(errors.join('\n')); else clearError();
    notify(renamed.length
      ? `A file of the same name was already open, so this one opened as ${renamed.join(', ')}. Rename… names it.`
      : null);
    update();
  }

  /** Renames opened file `i` (its plan and report follow); false when the name is refused. */
  function rename(i, name) {
    const old = viewer.files()[i];
    if (!viewer.rename_file(i, name)) return false;
    const entry = plans.get(old);
    if (entry) {
      plans.delete(old);
      plans.set(name, { ...entry, label: name });
    }
    return true;
  }

  /** Re-plans the shown file's source with the selected strategy. */
  async function replan() {
    const cur = viewer.current();
    const entry = cur == null ? null : plans.get(viewer.files()[cur]);
    if (!entry) return;
    const strategy = $('strategy').value;
    const base = entry.label ?? entry.name;
    const shown = strategy === 'aidge' ? base : `${base} · ${strategy}`;
    try {
      await plan(entry, strategy, shown);
      clearError();
    } catch (e) {
      if (!(e instanceof Cancelled)) showError(e.message);
    }
    update();
  }

  $('replan').addEventListener('click', replan);
  $('cancel').addEventListener('click', () => worker.cancel());
  $('files').addEventListener('change', showReport);

  return { open, rename, replan, showReport, last, plans, get busy() { return worker.busy; } };
}
