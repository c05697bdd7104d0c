// The notebook widget of `memplan.show()` (python/memplan/notebook.py): the viewer
// inline in JupyterLab, Notebook, VS Code, Colab or marimo, through anywidget. Not a
// file of the site: scripts/widget.mjs bundles it with the wasm-bindgen glue,
// memplan-ui.js, memplan-view.js and the wasm itself into one ES module (the widget's
// `_esm`), so the notebook page makes no request at all.
//
// The chart is a <memplan-view> (hover, click, keys, names, theme: the element's); this
// file adds a bar: the strategy menu (re-plans on this thread, as the element does, with
// its 300 ms search budget), Names, Compare (two plans on one scale: the plan and the one
// given as `compare=`, else the plan as loaded and re-planned), Fit, and the summary
// line. The widget's state (the model) holds the file's bytes and the choices; the
// summary goes back to Python (`widget.summary`). DOM plumbing only; names from plans
// reach the DOM only as text.
import * as glue from './pkg/memplan.js';
import { MemplanView, useWasm } from './memplan-view.js';
import { bindGestures, el as make, frameLoop } from './memplan-ui.js';

const CSS = `
.mpw { display: flex; flex-direction: column; width: 100%; box-sizing: border-box;
  font: 12px/1.4 system-ui, sans-serif; color: #222; background: #fff;
  border: 1px solid #ccc; border-radius: 4px; overflow: hidden; }
.mpw.mpw-dark { color: #ddd; background: #1b1d23; border-color: #444; }
.mpw-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 4px 6px;
  border-bottom: 1px solid #ccc; }
.mpw.mpw-dark .mpw-bar { border-color: #444; }
.mpw-bar button, .mpw-bar select { font: inherit; padding: 1px 6px; color: inherit;
  background: transparent; border: 1px solid #999; border-radius: 3px; }
.mpw-bar button[aria-pressed=true] { background: #4a90d9; border-color: #4a90d9; color: #fff; }
.mpw-bar option { color: #222; background: #fff; }
.mpw-summary { flex: 1 1 auto; min-width: 12em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.mpw-body { position: relative; flex: 1 1 auto; min-height: 0; }
.mpw-view { position: absolute; inset: 0; --memplan-height: 100%; border: 0; border-radius: 0; }
.mpw-cmp { position: absolute; inset: 0; display: flex; flex-direction: column; }
.mpw-half { display: flex; flex-direction: column; flex: 1 1 0; min-height: 0; }
.mpw-half + .mpw-half { border-top: 1px solid #ccc; }
.mpw.mpw-dark .mpw-half + .mpw-half { border-color: #444; }
.mpw-label { padding: 1px 6px; font-weight: bold; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.mpw-canvas { position: relative; flex: 1 1 auto; min-height: 0; }
.mpw-canvas canvas { position: absolute; inset: 0; width: 100%; height: 100%; display: block; touch-action: none; }
.mpw-bar select { max-width: 14em; }
.mpw-hover { min-height: 1.4em; padding: 0 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.mpw-error { margin: 6px; color: #b00; white-space: pre-wrap; }
.mpw [hidden] { display: none !important; }
`;

const base64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The started wasm module of this build, one per window: every widget's module is a
 * Blob import of its own (module state is not shared between widgets), so the started
 * module is kept on `globalThis`, by build.
 */
function started(wasm, build) {
  const cache = (globalThis.__memplanWidget ??= new Map());
  if (!cache.has(build)) {
    cache.set(build, (async () => {
      await glue.default({ module_or_path: await gunzip(base64(wasm)) });
      return glue;
    })());
  }
  return cache.get(build);
}

/** A `bytes` trait as a Uint8Array (ipywidgets sends binary traits as DataViews). */
function bytesOf(v) {
  if (!v) return new Uint8Array();
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return new Uint8Array();
}

/**
 * The theme a notebook shows, for `theme="auto"`: JupyterLab's (`data-jp-theme-light`),
 * VS Code's (`vscode-dark`), else the system's scheme.
 */
function hostTheme() {
  const b = document.body;
  if (b?.dataset.jpThemeLight === 'false') return 'dark';
  if (b?.dataset.jpThemeLight === 'true') return 'light';
  if (b?.classList.contains('vscode-dark') || b?.classList.contains('vscode-high-contrast')) return 'dark';
  if (b?.classList.contains('vscode-light')) return 'light';
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function button(text, title, pressed) {
  const b = make('button', text);
  b.type = 'button';
  b.title = title;
  if (pressed != null) b.setAttribute('aria-pressed', String(pressed));
  return b;
}

/** anywidget's module: `{ render }`, for the wasm `wasm` (gzip, base64) of build `build`. */
export function widget(wasm, build) {
  const tag = `memplan-view-${build}`;
  if (!customElements.get(tag)) {
    // This module's element class loads the started module of its build.
    useWasm(() => started(wasm, build));
    customElements.define(tag, class extends MemplanView {});
  }

  async function render({ model, el }) {
    const cleanup = [];
    const style = make('style', CSS);
    const root = make('div', null, 'mpw');
    const bar = make('div', null, 'mpw-bar');
    const strategy = make('select');
    strategy.setAttribute('aria-label', 'Placement strategy');
    const names = button('Names', 'Show the node names on the planes (N)', false);
    const compareButton = button('Compare', 'Two plans on one scale', false);
    const fit = button('Fit', 'Fit the whole plan (0 or double-click)');
    const summary = make('span', '', 'mpw-summary');
    summary.setAttribute('role', 'status');
    bar.append(strategy, names, compareButton, fit, summary);
    const body = make('div', null, 'mpw-body');
    const view = document.createElement(tag);
    view.className = 'mpw-view';
    const cmp = make('div', null, 'mpw-cmp');
    cmp.hidden = true;
    const halves = [0, 1].map(() => {
      const half = make('div', null, 'mpw-half');
      const label = make('div', '', 'mpw-label');
      const box = make('div', null, 'mpw-canvas');
      const canvas = make('canvas');
      box.append(canvas);
      half.append(label, box);
      return { half, box, label, canvas };
    });
    const hoverLine = make('div', '', 'mpw-hover');
    cmp.append(halves[0].half, halves[1].half, hoverLine);
    const error = make('p', '', 'mpw-error');
    error.setAttribute('role', 'alert');
    error.hidden = true;
    body.append(view, cmp);
    root.append(bar, body, error);
    el.replaceChildren(style, root);
    // Keys on the chart are the chart's: the notebook's own shortcuts must not see them
    // (in JupyterLab's command mode, 0 0 restarts the kernel and arrows move between cells).
    root.dataset.lmSuppressShortcuts = 'true';
    root.addEventListener('keydown', (e) => e.stopPropagation());

    const fail = (e) => {
      error.textContent = `memplan: ${e?.message ?? e}`;
      error.hidden = false;
    };

    let m;
    try {
      m = await started(wasm, build);
    } catch (e) {
      fail(`the viewer could not start: ${e?.message ?? e}`);
      return undefined;
    }
    const asLoaded = m.as_loaded();
    for (const name of m.strategy_names()) {
      const o = make('option', name);
      o.value = name;
      o.title = m.strategy_help(name) ?? '';
      strategy.append(o);
    }

    const file = () => ({ name: model.get('name') || 'plan', bytes: bytesOf(model.get('data')) });
    const other = () => {
      const bytes = bytesOf(model.get('compare_data'));
      return bytes.length ? { name: model.get('compare_name') || 'plan B', bytes } : null;
    };
    const chosen = () => model.get('strategy') || asLoaded;
    /** Compare pairs the plan with `compare=`, else the plan as loaded with its re-plan. */
    const canCompare = () => other() != null || chosen() !== asLoaded;

    // Sizes: the cell's width, the height asked for.
    const applyHeight = () => {
      const h = Number(model.get('height')) || 420;
      root.style.height = `${Math.max(160, h)}px`;
    };
    applyHeight();

    // Theme: the one asked for, or the notebook's.
    let dark = false;
    let cv = null;
    const drawCompare = frameLoop(() => cv?.view.render() ?? false);
    const applyTheme = () => {
      const asked = model.get('theme');
      const t = asked === 'light' || asked === 'dark' ? asked : hostTheme();
      dark = t === 'dark';
      root.classList.toggle('mpw-dark', dark);
      view.setAttribute('theme', t);
      cv?.view.set_theme(t);
      drawCompare();
    };
    applyTheme();
    const watch = new MutationObserver(applyTheme);
    if (document.body) watch.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-jp-theme-light'] });
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', applyTheme);
    cleanup.push(() => { watch.disconnect(); scheme.removeEventListener('change', applyTheme); });

    /** What the summary line says, and what Python reads as `widget.summary`. */
    let facts = {};
    const publish = () => {
      model.set('summary', facts);
      model.save_changes();
    };

    const describeOne = () => {
      const s = view.viewer?.summary();
      if (!s) return;
      const f = file();
      const used = view.viewer.report(view.viewer.current())?.strategy_used;
      const peak = s.memories ? s.memories.total : s.peak;
      const peakBytes = s.memories ? s.memories.total_bytes : s.peak_bytes;
      summary.textContent = `${f.name}${chosen() === asLoaded ? '' : ` · ${chosen()}`}: peak ${peak}`
        + ` · ${s.bound_name.toLowerCase()} ${s.lower_bound} · ${s.planes} planes · ${s.steps - s.producers} steps`;
      summary.title = summary.textContent;
      summary.dataset.peakBytes = peakBytes;
      facts = { name: f.name, strategy: chosen(), strategy_used: used ?? chosen(), peak, peak_bytes: peakBytes,
        lower_bound: s.lower_bound, bound_name: s.bound_name, planes: s.planes, steps: s.steps - s.producers,
        findings: s.findings.length };
      publish();
    };

    const describeCompare = () => {
      const s = cv.view.summary();
      summary.textContent = `A peak ${s.peak_a} · B peak ${s.peak_b} · B − A ${s.peak_delta}`
        + ` · ${s.matched} buffers matched, ${s.matched - s.unchanged} changed`;
      summary.title = summary.textContent;
      summary.dataset.peakBytes = '';
      facts = { ...facts, compare: { a: cv.a, b: cv.b, peak_a: s.peak_a, peak_b: s.peak_b,
        peak_delta: s.peak_delta, peak_delta_bytes: s.peak_delta_bytes, matched: s.matched,
        changed: s.matched - s.unchanged, only_a: s.only_a, only_b: s.only_b } };
      publish();
    };

    // The single chart: the file, with the strategy chosen.
    const openOne = async () => {
      const f = file();
      const s = chosen();
      if (s !== asLoaded) {
        summary.textContent = `planning ${f.name} with ${s}…`;
        // Let the line paint before the search holds the thread (its budget: 300 ms).
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      }
      view.setAttribute('strategy', s);
      view.open(f.name, f.bytes);
      if (view.viewer.current() == null) {
        summary.textContent = `${f.name}: could not open (see below)`;
        return;
      }
      describeOne();
    };

    // The compare view: its own Viewer (both files) and CompareView on two canvases.
    const closeCompare = () => {
      cv?.view.free();
      cv?.viewer.free();
      cv = null;
    };
    const openCompare = () => {
      closeCompare();
      const f = file();
      const o = other();
      const viewer = new m.Viewer(make('canvas'));
      let a;
      let b;
      if (o) {
        a = viewer.open_with(f.name, f.bytes, chosen(), undefined, undefined);
        b = viewer.open_with(o.name, o.bytes, '', undefined, undefined);
      } else {
        a = viewer.open_with(f.name, f.bytes, '', undefined, undefined);
        b = viewer.open_with(`${f.name} · ${chosen()}`, f.bytes, chosen(), undefined, undefined);
      }
      const names2 = [viewer.file_name(a), viewer.file_name(b)];
      const cmpView = new m.CompareView(halves[0].canvas, halves[1].canvas, viewer, a, b, true);
      cv = { viewer, view: cmpView, a: names2[0], b: names2[1] };
      halves[0].label.textContent = `A: ${names2[0]}`;
      halves[1].label.textContent = `B: ${names2[1]}` + (cmpView.aligned() ? ' (clocks aligned to A by node)' : '');
      cmpView.set_theme(dark ? 'dark' : 'light');
      fitCompare();
      cmpView.fit();
      describeCompare();
      drawCompare();
    };
    const fitCompare = () => {
      if (!cv) return;
      const r = halves[0].box.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      cv.view.resize(r.width, r.height, window.devicePixelRatio || 1);
      drawCompare();
    };
    const sizes = new ResizeObserver(fitCompare);
    sizes.observe(halves[0].box);
    cleanup.push(() => sizes.disconnect(), closeCompare);
    halves.forEach(({ canvas }, which) => bindGestures(canvas, {
      pan: (dx, dy) => { cv?.view.pan(which, dx, dy); drawCompare(); },
      hover: (x, y) => {
        const info = cv?.view.hover(which, x, y);
        hoverLine.textContent = info ? `${which ? 'B' : 'A'}: ${info.name} — ${info.size} at ${info.address}, clocks ${info.allocated}–${info.last_live}` : '';
        drawCompare();
      },
      leave: () => { cv?.view.hover(which, -1, -1); drawCompare(); },
      fit: () => { cv?.view.fit(); drawCompare(); },
      zoom: (x, y, factor, addresses) => {
        if (!cv) return;
        if (addresses) cv.view.zoom_address(which, y, factor); else cv.view.zoom_time(x, factor);
        drawCompare();
      },
    }));

    /**
     * Shows what the model asks for: the chart, or the compare view when it can compare.
     * A later call supersedes one still planning.
     */
    let turn = 0;
    const refresh = async () => {
      const mine = ++turn;
      await view.viewerReady;
      if (mine !== turn) return;
      error.hidden = true;
      strategy.value = chosen();
      const comparing = Boolean(model.get('compare')) && canCompare();
      compareButton.disabled = !canCompare();
      compareButton.title = other() ? 'Compare this plan (A) with the other one given (B)'
        : canCompare() ? `Compare the plan as loaded (A) with its re-plan by ${chosen()} (B)`
          : 'Pick a strategy to compare the plan as loaded with its re-plan';
      compareButton.setAttribute('aria-pressed', String(comparing));
      try {
        await openOne();
        if (mine !== turn) return;
        if (comparing) openCompare(); else closeCompare();
      } catch (e) {
        fail(e);
      }
      view.hidden = comparing;
      cmp.hidden = !comparing;
      if (comparing) {
        fitCompare();
        describeCompare();
      } else if (view.viewer.current() != null) {
        describeOne();
      }
    };

    const setNames = (on) => {
      names.setAttribute('aria-pressed', String(on));
      view.setAttribute('names', on ? 'on' : 'off');
    };
    setNames(Boolean(model.get('names')));

    // The bar's controls set the model; its change events (below) do the rest.
    strategy.addEventListener('change', () => {
      model.set('strategy', strategy.value);
      model.save_changes();
    });
    names.addEventListener('click', () => {
      model.set('names', names.getAttribute('aria-pressed') !== 'true');
      model.save_changes();
    });
    // N on the chart toggles its names itself: the button and the model follow.
    view.addEventListener('keyup', (e) => {
      if ((e.key === 'n' || e.key === 'N') && view.viewer) {
        model.set('names', view.viewer.names());
        model.save_changes();
      }
    });
    compareButton.addEventListener('click', () => {
      model.set('compare', !model.get('compare'));
      model.save_changes();
    });
    fit.addEventListener('click', () => {
      if (cv && !cmp.hidden) {
        cv.view.fit();
        drawCompare();
      } else if (view.viewer) {
        view.viewer.fit();
        view.viewChanged();
      }
    });

    // A trait changed (by the bar, or from Python): follow it.
    const on = (name, f) => {
      model.on(`change:${name}`, f);
      cleanup.push(() => model.off(`change:${name}`, f));
    };
    on('names', () => setNames(Boolean(model.get('names'))));
    on('height', applyHeight);
    on('theme', applyTheme);
    for (const name of ['strategy', 'compare', 'data', 'name', 'compare_data', 'compare_name']) {
      on(name, () => { refresh(); });
    }

    // For tests and the curious: the element and the compare view of this output.
    root.memplan = { view, compare: () => cv?.view ?? null, summary: () => facts };
    // Not awaited: the element starts when the output is in the page, which the
    // notebook does once render() returns.
    refresh();
    return () => cleanup.forEach((f) => f());
  }

  return { render };
}
