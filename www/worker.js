// The page's Web Worker: reads, parses and plans files off the main thread, so the
// page never freezes, and hands each plan back with its stats and checker report as
// compact wire bytes (a transferred ArrayBuffer, not JSON). Same first wasm module
// as the page (pkg-lite/: well-formed memplan JSON planned as loaded); anything else
// (other formats, broken files, companions, strategies) is read and planned by the
// whole crate's module (pkg/), imported only then. Protocol (main → worker):
//   { id, key, name, source: Blob, companion?: { name, source: Blob }, deploy?: { recipes, dtype },
//     strategy, millis }
// deploy: the read document is deployed (its schedule rewritten by the recipes) before planning.
// key names a source: the last parsed one is kept, so re-planning skips parsing.
// Replies: { id, type: 'progress', stage, ...numbers } then { id, type: 'done',
// wire, report (with own: the framework's own figures, budget_ms: the budget given), warnings,
// sized_by_model } or { id, type: 'error', message }.
import init, { Planner as FirstPlanner, as_loaded as asLoaded } from './pkg-lite/memplan.js';

const ready = init();
let whole = null;
/** The whole crate's module, imported and started once, when first needed. */
const full = () => (whole ??= import('./pkg/memplan.js').then(async (m) => {
  await m.default();
  return m;
}));
let cached = null; // { key, planner, first: read by pkg-lite }

self.onmessage = async (e) => {
  const { id, key, name, source, companion, deploy, strategy, millis } = e.data;
  const say = (stage, extra = {}) => self.postMessage({ id, type: 'progress', stage, ...extra });
  try {
    await ready;
    const t = performance.now();
    // A file pkg-lite read, re-planned with a strategy, is read again by the whole crate.
    if (!cached || cached.key !== key || (cached.first && strategy !== asLoaded())) {
      if (cached) cached.planner.free();
      cached = null;
      say('reading');
      const bytes = new Uint8Array(await source.arrayBuffer());
      say('parsing', { bytes: bytes.length });
      // A file read with the one it needs beside it (XLA's live ranges).
      let planner = companion || deploy || strategy !== asLoaded() ? undefined : FirstPlanner.read(name, bytes);
      const first = planner !== undefined;
      if (!first) {
        const { Planner } = await full();
        planner = companion
          ? Planner.pair(name, bytes, companion.name, new Uint8Array(await companion.source.arrayBuffer()))
          : new Planner(name, bytes);
        if (deploy) planner.deploy(deploy.recipes, deploy.dtype);
      }
      cached = { key, planner, first };
    }
    say('planning');
    const wire = cached.planner.plan(strategy, millis, (p) => say('searching', p));
    const report = cached.planner.report();
    report.worker_ms = Math.round(performance.now() - t);
    report.budget_ms = millis; // a link to a planned copy re-plans with it
    report.own = cached.planner.own();
    self.postMessage({ id, type: 'done', wire, report, warnings: cached.planner.warnings(),
      sized_by_model: cached.planner.sizedByModel() },
      [wire.buffer]);
  } catch (err) {
    // A trap (a panic in the wasm) leaves the instance unusable: say so, and let the
    // page start a fresh worker.
    const fatal = err instanceof WebAssembly.RuntimeError;
    if (fatal) cached = null;
    const text = String(err && err.message ? err.message : err);
    self.postMessage({ id, type: 'error', fatal, message: fatal ? `${name}: internal error (${text})` : text });
  }
};
