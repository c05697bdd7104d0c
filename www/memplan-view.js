// <memplan-view>: a memory plan as a live chart inside any page (mdBook, MkDocs,
// Sphinx, a report). Two scripts (this one and memplan-ui.js, which it imports) plus
// the wasm next to them; every element on a page shares one wasm instance. Drawing,
// layout, hit-testing and keyboard moves are the Rust Viewer's; this file is DOM
// plumbing only. Names from plans reach the DOM only as textContent.
//
//   <script type="module" src="memplan-view.js"></script>
//   <memplan-view src="plan.json" names="off" height="400" theme="auto"
//                 strategy="search" view="t0,t1,a0,a1"></memplan-view>
//
// Events: `select` (detail: the plane's details, or null when cleared) and
// `viewchange` (detail: { view: [t0, t1, a0, a1] }). Properties: `view`, `selected`,
// `svg(width, height)`, `viewer`, `ready` (a promise).
import { bindGestures, chartKey, el, followTheme, frameLoop, parseView } from './memplan-ui.js';

let wasm = null;

/**
 * Brings the whole crate's wasm module another way than `./pkg/memplan.js` beside this
 * file: `load()` resolves to the started module. The notebook widget (memplan-widget.js)
 * carries the wasm inline and calls this before its first element connects.
 */
export function useWasm(load) {
  wasm ??= load();
}

/**
 * The whole crate's wasm module (pkg/: every reader, strategy and export), imported and
 * started once, shared by every element of the page. The main page draws with its
 * smaller first module (pkg-lite/) and loads this one only when it needs more.
 */
export function loadWasm() {
  wasm ??= import('./pkg/memplan.js').then(async (m) => {
    await m.default();
    return m;
  });
  return wasm;
}

/**
 * The plan `viewer` shows as text in `format` (`memplan`, `aidge`, `csv`, `header`…, as
 * `memplan convert --format`). A viewer of the whole crate (it opens files itself) writes
 * every format; the page's first module writes memplan JSON only (links carry it) and
 * hands its plan (wire bytes) to the whole crate's writers for the others.
 */
export async function exportText(viewer, format) {
  if (format === 'memplan' || typeof viewer.open_with === 'function') return viewer.export(format);
  const m = await loadWasm();
  const cur = viewer.current();
  return m.export_plan((cur == null ? null : viewer.file_name(cur)) ?? 'plan', viewer.wire(), format);
}

const sheet = new CSSStyleSheet();
sheet.replaceSync(`
:host { display: block; position: relative; height: var(--memplan-height, 400px);
  border: 1px solid var(--memplan-border, #ccc); border-radius: 4px; overflow: hidden;
  font: 12px/1.4 system-ui, sans-serif; color: #222; background: #fff; contain: content; }
:host([data-theme=dark]) { color: #ddd; background: #1b1d23; --memplan-border: #444; }
.stage { position: absolute; inset: 0; outline: none; }
.stage:focus-visible { box-shadow: inset 0 0 0 3px #4a90d9; }
canvas { position: absolute; inset: 0; width: 100%; height: 100%; display: block; cursor: crosshair; touch-action: none; }
.tip { position: absolute; pointer-events: none; max-width: 360px; padding: 4px 7px;
  background: rgba(255,255,255,.96); color: #222; border: 1px solid #999; border-radius: 4px;
  box-shadow: 0 2px 6px rgba(0,0,0,.15); z-index: 2; overflow-wrap: anywhere; }
:host([data-theme=dark]) .tip { background: rgba(30,32,38,.97); color: #eee; border-color: #666; }
.error { position: absolute; inset: 8px; margin: 0; color: #b00; white-space: pre-wrap; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  clip-path: inset(50%); white-space: nowrap; }
[hidden] { display: none !important; }
`);

const on = (v) => v !== null && !['off', '0', 'false', 'no'].includes(String(v).toLowerCase());

export class MemplanView extends HTMLElement {
  static observedAttributes = ['src', 'names', 'height', 'theme', 'view', 'strategy'];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet];
    this.stage = el('div', null, 'stage');
    this.stage.tabIndex = 0;
    this.stage.setAttribute('role', 'img');
    this.canvas = el('canvas');
    this.tip = el('div', null, 'tip');
    this.tip.hidden = true;
    this.status = el('p', null, 'sr'); // the chart shows the peak; this is for screen readers
    this.live = el('p', null, 'sr');
    this.live.setAttribute('aria-live', 'polite');
    this.error = el('p', null, 'error');
    this.error.setAttribute('role', 'alert');
    this.error.hidden = true;
    this.stage.append(this.canvas, this.tip);
    root.append(this.stage, this.status, this.live, this.error);
    this.viewer = null;
    this.loaded = null;
    /** Follows the `theme` attribute and the system's scheme while connected. */
    this.scheme = null;
    this.redraw = frameLoop(() => this.viewer?.render() ?? false);
    /** `viewchange` fires once per frame at most. */
    this.announceView = frameLoop(() => {
      this.dispatchEvent(new CustomEvent('viewchange', { detail: { view: this.view } }));
      return false;
    });
    // `viewerReady`: the wasm is loaded and `open()` works; `ready`: a plan is shown
    // (true) or failed to load (false).
    this.viewerReady = new Promise((r) => { this.resolveViewer = r; });
    this.ready = new Promise((r) => { this.resolveReady = r; });
  }

  async connectedCallback() {
    this.applyHeight();
    const { Viewer } = await loadWasm();
    if (!this.viewer) {
      this.viewer = new Viewer(this.canvas);
      this.bindEvents();
      this.resizer = new ResizeObserver(() => this.fitCanvas());
      this.resizer.observe(this);
      this.resolveViewer();
    }
    this.fitCanvas();
    this.scheme?.stop();
    this.scheme = followTheme(() => this.getAttribute('theme'), (t) => {
      this.dataset.theme = t;
      this.viewer.set_theme(t);
      this.redraw();
    });
    this.viewer.set_names(on(this.getAttribute('names')));
    await this.load();
  }

  disconnectedCallback() {
    this.scheme?.stop();
    this.scheme = null;
  }

  attributeChangedCallback(name, old, value) {
    if (!this.viewer || old === value) {
      if (name === 'height') this.applyHeight();
      return;
    }
    switch (name) {
      case 'src': case 'strategy': this.load(); break;
      case 'names': this.viewer.set_names(on(value)); this.redraw(); break;
      case 'height': this.applyHeight(); break;
      case 'theme': this.scheme?.update(); break;
      case 'view': this.applyView(); break;
    }
  }

  applyHeight() {
    const h = Number(this.getAttribute('height'));
    if (h > 0) this.style.setProperty('--memplan-height', `${h}px`);
  }

  applyView() {
    const v = parseView(this.getAttribute('view'));
    if (v && this.viewer) {
      this.viewer.set_view(...v);
      this.redraw();
    }
  }

  fitCanvas() {
    const r = this.getBoundingClientRect();
    if (!this.viewer || r.width === 0 || r.height === 0) return;
    this.viewer.resize(r.width, r.height, window.devicePixelRatio || 1);
    this.redraw();
  }

  /** Opens `src` (a URL relative to the page), or the bytes set with `open()`. */
  async load() {
    const src = this.getAttribute('src');
    if (!src) return;
    try {
      const url = new URL(src, document.baseURI);
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${src}: HTTP ${res.status}`);
      let bytes = new Uint8Array(await res.arrayBuffer());
      const name = decodeURIComponent(url.pathname.split('/').pop() || 'plan');
      const wasm = await loadWasm();
      // What is a model is the core's rule (formats::is_onnx_model), as for the page.
      if (wasm.is_onnx(name, bytes.subarray(0, wasm.onnx_head()))) {
        // The ONNX reader is a second wasm module, loaded only now (onnx.js); the
        // model's symbolic dims take their defaults.
        const { convert } = await import('./onnx.js');
        bytes = new TextEncoder().encode(await convert(name, bytes, null));
      }
      // A file that needs another beside it (XLA's live ranges): fetched from the same folder.
      const other = wasm.companion_of(name, bytes);
      if (other) {
        const more = await fetch(new URL(encodeURIComponent(other), url));
        if (!more.ok) throw new Error(`${other} (read with ${src}): HTTP ${more.status}`);
        this.open(name, bytes, other, new Uint8Array(await more.arrayBuffer()));
      } else {
        this.open(name, bytes);
      }
    } catch (e) {
      this.showError(String(e.message ?? e));
      this.resolveReady(false);
    }
  }

  /**
   * Shows a plan from bytes (any format the CLI reads), with the file it needs beside it
   * if any, in place of the plan shown before (a new `src` does not pile plans up).
   */
  open(name, bytes, companion, companionBytes) {
    try {
      const strategy = this.getAttribute('strategy');
      const before = this.viewer.current();
      this.viewer.open_with(name, bytes, strategy ?? '', companion, companionBytes);
      if (before != null) this.viewer.close_file(before);
      this.error.hidden = true;
    } catch (e) {
      this.showError(String(e));
      this.resolveReady(false);
      return;
    }
    this.applyView();
    this.describe();
    this.redraw();
    this.loaded = name;
    this.resolveReady(true);
  }

  showError(text) {
    this.error.textContent = `memplan-view: ${text}`;
    this.error.hidden = false;
  }

  describe() {
    const s = this.viewer.summary();
    if (!s) return;
    const text = `Peak ${s.peak}, ${s.bound_name.toLowerCase()} ${s.lower_bound}, ${s.planes} planes, ${s.steps} steps`;
    this.status.textContent = text;
    this.stage.setAttribute('aria-label', `Memory plan ${this.loaded ?? ''}: ${text}. ` +
      'Arrow keys move between planes, Enter pins, P jumps to the peak, Escape clears, 0 fits.');
  }

  /** The view moved: draw, and tell listeners (`viewchange`). */
  viewChanged() {
    this.redraw();
    this.announceView();
  }

  selectInfo(info) {
    this.tip.hidden = true;
    this.live.textContent = info ? `${info.name}: ${info.size} at ${info.address}, live ${info.allocated} to ${info.last_live}` : 'Selection cleared';
    this.dispatchEvent(new CustomEvent('select', { detail: info ?? null }));
    this.redraw();
  }

  get view() { return this.viewer ? Array.from(this.viewer.view()) : null; }
  set view(v) {
    if (this.viewer && parseView(v.join(','))) {
      this.viewer.set_view(...v);
      this.viewChanged();
    }
  }
  /** Pins plane `i` and reveals it. */
  select(i) {
    this.selectInfo(this.viewer.select_plane(i));
    this.viewChanged();
  }
  get selected() { return this.viewer ? this.viewer.selected() ?? null : null; }
  /** The SVG of what the element shows (same drawing code as the canvas). */
  svg(width, height) {
    const r = this.getBoundingClientRect();
    return this.viewer.svg(width ?? r.width, height ?? r.height);
  }

  bindEvents() {
    bindGestures(this.canvas, {
      down: () => this.stage.focus(),
      pan: (dx, dy) => {
        this.viewer.pan(dx, dy);
        this.tip.hidden = true;
        this.viewChanged();
      },
      hover: (x, y) => {
        const info = this.viewer.hover(x, y);
        if (info) {
          this.tip.textContent = `${info.name} — ${info.size} at ${info.address}, clocks ${info.allocated}–${info.last_live}`;
          this.tip.hidden = false;
          const w = this.stage.clientWidth;
          this.tip.style.left = `${Math.min(x + 12, Math.max(0, w - this.tip.offsetWidth - 4))}px`;
          this.tip.style.top = `${Math.max(0, y - this.tip.offsetHeight - 8)}px`;
        } else {
          this.tip.hidden = true;
        }
        this.redraw();
      },
      click: (x, y) => this.selectInfo(this.viewer.click(x, y)),
      leave: () => {
        this.tip.hidden = true;
        this.viewer.hover(-1, -1);
        this.redraw();
      },
      fit: () => { this.viewer.fit(); this.viewChanged(); },
      zoom: (x, y, factor, addresses) => {
        if (addresses) this.viewer.zoom_address(y, factor); else this.viewer.zoom_time(x, factor);
        this.tip.hidden = true;
        this.viewChanged();
      },
    });
    // The chart's keys (chartKey), and N for names.
    this.stage.addEventListener('keydown', (e) => {
      if ((e.key === 'n' || e.key === 'N') && !(e.ctrlKey || e.metaKey || e.altKey)) {
        this.viewer.set_names(!this.viewer.names());
        this.redraw();
        e.preventDefault();
        return;
      }
      const r = chartKey(this.viewer, e, this.stage.clientWidth);
      if (!r) return;
      e.preventDefault();
      if ('info' in r) this.selectInfo(r.info);
      if (r.moved) this.viewChanged(); else this.redraw();
    });
  }
}

if (!customElements.get('memplan-view')) customElements.define('memplan-view', MemplanView);
