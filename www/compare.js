// The compare view: two opened plans stacked on one shared scale (same clocks, same
// bytes per pixel), the peak delta, both lower bounds and the buffers that moved,
// matched by name (scene::compare in the core). Pan and zoom on either chart move
// both. Names from dumps reach the DOM only through textContent.
import { CompareView } from './pkg/memplan.js';
import { bindGestures } from './memplan-view.js';

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

export function setupCompare({ viewer, onClose }) {
  const section = $('compare');
  const top = $('cmp-top');
  const bottom = $('cmp-bottom');
  let view = null;
  let pending = false;

  function draw() {
    if (pending || !view) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      // True while coarser tiles stand in for finer ones on a big plan: refine.
      if (view?.render()) draw();
    });
  }

  function fitCanvases() {
    if (!view) return;
    const r = top.parentElement.getBoundingClientRect();
    view.resize(r.width, r.height, window.devicePixelRatio || 1);
    draw();
  }
  new ResizeObserver(fitCanvases).observe(top.parentElement);

  function fillSelects() {
    const files = viewer.files();
    for (const sel of [$('cmp-a'), $('cmp-b')]) {
      const keep = sel.value;
      sel.replaceChildren(...files.map((name, i) => {
        const o = el('option', name);
        o.value = String(i);
        return o;
      }));
      if (keep !== '' && Number(keep) < files.length) sel.value = keep;
    }
  }

  /** Default pair: the shown plan (B) against what it was re-planned from, else the file before it. */
  function defaults() {
    const files = viewer.files();
    const b = viewer.current() ?? files.length - 1;
    const base = files[b].split(' · ')[0];
    let a = files.indexOf(base);
    if (a === b || a < 0) a = b > 0 ? b - 1 : Math.min(1, files.length - 1);
    $('cmp-a').value = String(a);
    $('cmp-b').value = String(b);
  }

  function build() {
    view?.free();
    view = null;
    const a = Number($('cmp-a').value);
    const b = Number($('cmp-b').value);
    view = new CompareView(top, bottom, viewer, a, b);
    const files = viewer.files();
    $('cmp-label-a').textContent = `A: ${files[a]}`;
    $('cmp-label-b').textContent = `B: ${files[b]}`;
    const s = view.summary();
    const stats = $('cmp-stats');
    stats.replaceChildren();
    const rows = [
      ['Peak A', s.peak_a], ['Peak B', s.peak_b], ['Peak B − A', s.peak_delta],
      ['Lower bound A', s.lower_bound_a], ['Lower bound B', s.lower_bound_b],
      ['Buffers', `${s.matched} matched, ${s.matched - s.unchanged} changed, ${s.only_a} only in A, ${s.only_b} only in B`],
    ];
    for (const [k, v] of rows) {
      const dd = el('dd', v);
      if (k === 'Peak B − A') {
        dd.id = 'cmp-delta';
        dd.dataset.bytes = s.peak_delta_bytes;
        dd.className = s.peak_delta_bytes.startsWith('-') ? 'good' : s.peak_delta_bytes === '0' ? '' : 'bad';
      }
      stats.append(el('dt', k), dd);
    }
    const body = $('cmp-rows');
    body.replaceChildren(...s.rows.map((r) => {
      const tr = el('tr');
      const n = (v) => (v == null ? null : BigInt(v).toLocaleString('en-US'));
      for (const v of [r.name, r.change, n(r.address_a), n(r.address_b), r.delta, n(r.size_b ?? r.size_a)]) {
        tr.append(el('td', v ?? '—'));
      }
      return tr;
    }));
    if (s.rows_omitted) body.append(el('tr', `… and ${s.rows_omitted} more`));
    fitCanvases();
    view.fit();
    draw();
  }

  function show(on) {
    section.hidden = !on;
    $('stage').hidden = on;
    $('compare-open').setAttribute('aria-pressed', String(on));
    if (on) {
      fillSelects();
      defaults();
      build();
    } else {
      view?.free();
      view = null;
      onClose();
    }
  }

  $('compare-open').addEventListener('click', () => show(section.hidden));
  $('cmp-close').addEventListener('click', () => show(false));
  $('cmp-a').addEventListener('change', build);
  $('cmp-b').addEventListener('change', build);
  $('cmp-fit').addEventListener('click', () => { view?.fit(); draw(); });

  // Pointer: drag pans both, wheel zooms both (shift: addresses), hover names the plane.
  [top, bottom].forEach((canvas, which) => bindGestures(canvas, {
    pan: (dx, dy) => { view?.pan(which, dx, dy); draw(); },
    hover: (x, y) => {
      const info = view?.hover(which, x, y);
      $('cmp-hover').textContent = info ? `${info.name}: ${info.address}, ${info.size}` : '';
      draw();
    },
    fit: () => { view?.fit(); draw(); },
    zoom: (x, y, factor, addresses) => {
      if (!view) return;
      if (addresses) view.zoom_address(which, y, factor); else view.zoom_time(x, factor);
      draw();
    },
  }));

  return {
    show,
    get open() { return !section.hidden; },
    summary: () => view?.summary(),
    frame: (which) => view?.frame(which),
  };
}
