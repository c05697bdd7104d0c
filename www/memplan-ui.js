// What the page (main.js, compare.js, a11y.js, export.js, share.js) and the embeddable
// <memplan-view> (memplan-view.js) share, written once: elements with text, the redraw
// loop, the theme, the chart's pointer gestures and keys, and the view as link text.
// DOM plumbing only: drawing, hit-testing and keyboard moves are the Rust Viewer's.
// Embedders copy this file beside memplan-view.js, which imports it.

/**
 * An element with text (never HTML: names from dumps reach the DOM only as text) and a
 * class.
 */
export function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/**
 * One animation frame in flight at most: every change calls the returned function, and
 * `draw()` runs once in the next frame, and again in the frame after while it returns
 * true (coarser tiles stood in for finer ones that a big plan is still building).
 */
export function frameLoop(draw) {
  let pending = false;
  const request = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (draw()) request();
    });
  };
  return request;
}

/**
 * Follows a theme choice: `light`, `dark`, or `auto` / none (the system's scheme).
 * Calls `apply('light' | 'dark')` now and whenever the system's scheme changes; returns
 * `update()` (the choice changed: apply again) and `stop()`.
 */
export function followTheme(choice, apply) {
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const update = () => {
    const c = choice();
    apply(c === 'dark' || ((c == null || c === 'auto') && dark.matches) ? 'dark' : 'light');
  };
  dark.addEventListener('change', update);
  update();
  return { update, stop: () => dark.removeEventListener('change', update) };
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

/** CSS pixels a Shift+arrow pans, by key. */
const PAN = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };

/**
 * The chart's keys, one map for the page and every <memplan-view>: arrows move the
 * selection to the next plane in time or address (with Shift they pan), Enter reads the
 * pinned plane again, P selects the plane at the peak, Escape clears, 0 fits, + and -
 * zoom time about the middle of a chart `width` px wide. Applies the keydown `e` to
 * `viewer`. Returns null for any other key (or with Ctrl, Alt or Meta), else
 * `{ moved }` (the view may have moved) with `info` when the selection is to be shown
 * again: the plane's details, or null when cleared.
 */
export function chartKey(viewer, e, width) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'ArrowLeft': case 'ArrowRight': case 'ArrowUp': case 'ArrowDown': {
      if (e.shiftKey) {
        viewer.pan(...PAN[e.key]);
        return { moved: true };
      }
      const info = viewer.navigate(e.key);
      return info ? { moved: true, info } : { moved: false };
    }
    case 'Enter': {
      const p = viewer.selected();
      return p == null ? { moved: false } : { moved: false, info: viewer.plane_info(p) };
    }
    case 'p': case 'P': return { moved: true, info: viewer.select_peak() };
    case 'Escape': viewer.unselect(); return { moved: false, info: null };
    case '0': viewer.fit(); return { moved: true };
    case '+': case '=': viewer.zoom_time(width / 2, 1.5); return { moved: true };
    case '-': case '_': viewer.zoom_time(width / 2, 1 / 1.5); return { moved: true };
    default: return null;
  }
}

/**
 * `t0,t1,a0,a1` as four finite numbers with t0 < t1 and a0 < a1, or null. Each field is a
 * decimal number (Rust's `f64` grammar, which `memplan render --view` reads: no empty
 * field, no hex); tests/data/view_texts.json holds both to the same cases.
 */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
export function parseView(text) {
  if (!text) return null;
  const fields = String(text).split(',');
  if (fields.length !== 4 || !fields.every((f) => DECIMAL.test(f))) return null;
  const v = fields.map(Number);
  if (!v.every(Number.isFinite) || !(v[0] < v[1]) || !(v[2] < v[3])) return null;
  return v;
}

/** A view as link text: short but exact enough to reopen the same pixels. */
export function formatView(v) {
  return v.map((x) => String(Number(x.toPrecision(7)))).join(',');
}
