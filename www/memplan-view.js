// <memplan-view>: a memory plan as a live chart inside any page (mdBook, MkDocs,
// Sphinx, a report). One script plus the wasm next to it; every element on a page
// shares one wasm instance. Drawing, layout, hit-testing and keyboard moves are the
// Rust Viewer's; this file is DOM plumbing only. Names from plans reach the DOM only
// as textContent.
//
//   <script type="module" src="memplan-view.js"></script>
//   <memplan-view src="plan.json" names="off" height="400" theme="auto"
//                 strategy="search" view="t0,t1,a0,a1"></memplan-view>
//
// Events: `select` (detail: the plane's details, or null when cleared) and
// `viewchange` (detail: { view: [t0, t1, a0, a1] }). Properties: `view`, `selected`,
// `svg(width, height)`, `viewer`, `ready` (a promise).

let wasm = null;
/**
 * An element with text (never HTML: names from dumps reach the DOM only as text) and a
 * class. The page's modules share it with the element, which embedders copy alone.
 */
export function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** The theme drawn for a choice (`light`, `dark`, or `auto`/none: the system's, from `dark`). */
export function resolveTheme(choice, dark) {
  return choice === 'dark' || ((choice == null || choice === 'auto') && dark.matches) ? 'dark' : 'light';
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
  return m.export_plan(viewer.files()[viewer.current()] ?? 'plan', viewer.wire(), format);
}

/**
 * The chart's pointer gestures, one set for the page, its compare view and every
 * <memplan-view>: a drag past 3 px pans, a press without a drag clicks, a move hovers,
 * the wheel zooms time about the pointer (Shift or Ctrl: addresses), a double click
 * fits, and two fingers pinch: spread wider than tall zooms time, taller than wide
 * zooms addresses (the canvas has `touch-action: none`, so the page itself does not
 * zoom). `on` gets canvas-local CSS pixels: `pan(dx, dy)`, `hover(x, y)`,
 * `zoom(x, y, factor, addresses)`, `fit()`, and optionally `down()`, `click(x, y)`,
 * `up()`, `leave()`.
 */
export function bindGestures(canvas, on) {
  const local = (e) => {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  let drag = null;
  /** Pointers down, by id: the last position of each (two make a pinch). */
  const down = new Map();
  let pinch = null;
  const spread = () => {
    const [[x1, y1], [x2, y2]] = [...down.values()];
    return { x: (x1 + x2) / 2, y: (y1 + y2) / 2, w: Math.abs(x2 - x1), h: Math.abs(y2 - y1) };
  };
  canvas.addEventListener('pointerdown', (e) => {
    const [x, y] = local(e);
    down.set(e.pointerId, [x, y]);
    canvas.setPointerCapture(e.pointerId);
    if (down.size === 2) {
      drag = null;
      const s = spread();
      pinch = { ...s, time: s.w >= s.h };
      return;
    }
    drag = { x, y, moved: false };
    on.down?.();
  });
  canvas.addEventListener('pointermove', (e) => {
    const [x, y] = local(e);
    if (down.has(e.pointerId)) down.set(e.pointerId, [x, y]);
    if (pinch && down.size === 2) {
      const s = spread();
      const [now, before] = pinch.time ? [s.w, pinch.w] : [s.h, pinch.h];
      if (now > 8 && before > 8) on.zoom(s.x, s.y, now / before, !pinch.time);
      pinch = { ...s, time: pinch.time };
      return;
    }
    if (drag) {
      const dx = x - drag.x;
      const dy = y - drag.y;
      if (drag.moved || Math.abs(dx) + Math.abs(dy) > 3) {
        drag.moved = true;
        canvas.classList.add('dragging');
        drag.x = x;
        drag.y = y;
        on.pan(dx, dy);
        return;
      }
    }
    on.hover(x, y);
  });
  const lift = (e) => {
    down.delete(e.pointerId);
    if (pinch) {
      // The last finger of a pinch neither clicks nor pans.
      if (down.size === 0) pinch = null;
      return true;
    }
    return false;
  };
  canvas.addEventListener('pointerup', (e) => {
    if (lift(e)) return;
    const [x, y] = local(e);
    const clicked = drag && !drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (clicked) on.click?.(x, y);
    on.up?.();
  });
  canvas.addEventListener('pointercancel', (e) => {
    lift(e);
    drag = null;
    canvas.classList.remove('dragging');
  });
  canvas.addEventListener('pointerleave', () => on.leave?.());
  canvas.addEventListener('dblclick', () => on.fit());
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const [x, y] = local(e);
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    on.zoom(x, y, Math.exp(-delta * 0.002), e.shiftKey || e.ctrlKey);
  }, { passive: false });
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

/** `t0,t1,a0,a1` as four finite numbers with t0 < t1 and a0 < a1, or null. */
export function parseView(text) {
  if (!text) return null;
  const v = String(text).split(',').map(Number);
  if (v.length !== 4 || !v.every(Number.isFinite) || !(v[0] < v[1]) || !(v[2] < v[3])) return null;
  return v;
}

/** A view as link text: short but exact enough to reopen the same pixels. */
export function formatView(v) {
  return v.map((x) => String(Number(x.toPrecision(7)))).join(',');
}

export class MemplanView extends HTMLElement {
  static observedAttributes = ['src', 'names', 'height', 'theme', 'view', 'strategy'];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet];
    this.stage = document.createElement('div');
    this.stage.className = 'stage';
    this.stage.tabIndex = 0;
    this.stage.setAttribute('role', 'img');
    this.canvas = document.createElement('canvas');
    this.tip = document.createElement('div');
    this.tip.className = 'tip';
    this.tip.hidden = true;
    this.status = document.createElement('p');
    this.status.className = 'sr'; // the chart shows the peak; this is for screen readers
    this.live = document.createElement('p');
    this.live.className = 'sr';
    this.live.setAttribute('aria-live', 'polite');
    this.error = document.createElement('p');
    this.error.className = 'error';
    this.error.setAttribute('role', 'alert');
    this.error.hidden = true;
    this.stage.append(this.canvas, this.tip);
    root.append(this.stage, this.status, this.live, this.error);
    this.viewer = null;
    this.pending = false;
    this.loaded = null;
    this.dark = matchMedia('(prefers-color-scheme: dark)');
    this.onScheme = () => this.applyTheme();
    // `viewerReady`: the wasm is loaded and `open()` works; `ready`: a plan is shown
    // (true) or failed to load (false).
    this.viewerReady = new Promise((r) => { this.resolveViewer = r; });
    this.ready = new Promise((r) => { this.resolveReady = r; });
  }

  async connectedCallback() {
    this.dark.addEventListener('change', this.onScheme);
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
    this.applyTheme();
    this.viewer.set_names(on(this.getAttribute('names')));
    await this.load();
  }

  disconnectedCallback() {
    this.dark.removeEventListener('change', this.onScheme);
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
      case 'theme': this.applyTheme(); break;
      case 'view': this.applyView(); break;
    }
  }

  applyHeight() {
    const h = Number(this.getAttribute('height'));
    if (h > 0) this.style.setProperty('--memplan-height', `${h}px`);
  }

  applyTheme() {
    this.dataset.theme = resolveTheme(this.getAttribute('theme'), this.dark);
    if (this.viewer) {
      this.viewer.set_theme(this.dataset.theme);
      this.redraw();
    }
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
      if (/\.onnx$/i.test(name)) {
        // The ONNX reader is a second wasm module, loaded only now (onnx.js); the
        // model's symbolic dims take their defaults.
        const { convert } = await import('./onnx.js');
        bytes = new TextEncoder().encode(await convert(name, bytes, null));
      }
      // A file that needs another beside it (XLA's live ranges): fetched from the same folder.
      const other = (await loadWasm()).companion_of(name, bytes);
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

  /** Shows a plan from bytes (any format the CLI reads), with the file it needs beside it if any. */
  open(name, bytes, companion, companionBytes) {
    try {
      const strategy = this.getAttribute('strategy');
      this.viewer.open_with(name, bytes, strategy ?? '', companion, companionBytes);
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
    const text = `Peak ${s.peak}, lower bound ${s.lower_bound}, ${s.planes} planes, ${s.steps} steps`;
    this.status.textContent = text;
    this.stage.setAttribute('aria-label', `Memory plan ${this.loaded ?? ''}: ${text}. ` +
      'Arrow keys move between planes, Enter pins, P jumps to the peak, Escape clears, 0 fits.');
  }

  redraw() {
    if (this.pending || !this.viewer) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      // True while coarser tiles stand in for finer ones on a big plan: refine.
      if (this.viewer.render()) this.redraw();
    });
  }

  /** Fires `viewchange` once per frame at most. */
  viewChanged() {
    this.redraw();
    if (this.viewTimer) return;
    this.viewTimer = requestAnimationFrame(() => {
      this.viewTimer = null;
      this.dispatchEvent(new CustomEvent('viewchange', { detail: { view: this.view } }));
    });
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
    this.stage.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const w = this.stage.clientWidth;
      switch (e.key) {
        case 'ArrowLeft': case 'ArrowRight': case 'ArrowUp': case 'ArrowDown': {
          const info = this.viewer.navigate(e.key);
          if (info) { this.selectInfo(info); this.viewChanged(); }
          break;
        }
        case 'Enter': {
          const s = this.viewer.selected();
          if (s != null) this.selectInfo(this.viewer.plane_info(s));
          break;
        }
        case 'p': case 'P': this.selectInfo(this.viewer.select_peak()); this.viewChanged(); break;
        case 'Escape': this.viewer.unselect(); this.selectInfo(null); break;
        case '0': this.viewer.fit(); this.viewChanged(); break;
        case '+': case '=': this.viewer.zoom_time(w / 2, 1.5); this.viewChanged(); break;
        case '-': case '_': this.viewer.zoom_time(w / 2, 1 / 1.5); this.viewChanged(); break;
        case 'n': case 'N': this.viewer.set_names(!this.viewer.names()); this.redraw(); break;
        default: return;
      }
      e.preventDefault();
    });
  }
}

if (!customElements.get('memplan-view')) customElements.define('memplan-view', MemplanView);
