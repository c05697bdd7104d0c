// The compare view: two opened plans stacked on one shared scale (same clocks, same
// bytes per pixel), the peak delta, both lower bounds and the buffers that moved,
// matched by name (scene::compare in the core), outlined on both charts. Pan and zoom
// on either chart move both; a table row (click, or Enter when focused) selects its
// buffer on both; a column header sorts. The charts follow the page's theme
// (`setTheme`, called by main.js as a11y.js changes it). Files are the Viewer's, by id;
// the default pair is a planned copy and the file it was planned from, as the Viewer
// records it. Names from dumps reach the DOM only through textContent.
import { CompareView, compare_columns as compareColumns } from './pkg-lite/memplan.js';
import { bindGestures, el, frameLoop } from './memplan-ui.js';

const $ = (id) => document.getElementById(id);

/** `[[type, count]…]` as `12 add, 12 matmul, 2 more types (3)`: the first few, most first. */
function kinds(list) {
  const shown = list.slice(0, 6).map(([k, n]) => `${n} ${k}`).join(', ');
  const rest = list.slice(6);
  return rest.length ? `${shown}, ${rest.reduce((t, [, n]) => t + n, 0)} of ${rest.length} more types` : shown;
}

/** `theme()` is the page's theme drawn (`light` or `dark`); `onClose()` runs when the view closes. */
export function setupCompare({ viewer, theme, onClose }) {
  const section = $('compare');
  const top = $('cmp-top');
  const bottom = $('cmp-bottom');
  let view = null;
  /** Rows as the core sent them (largest change first), and the sort the user chose. */
  let changes = [];
  let sort = null; // { column, dir: 1 | -1 }
  let chosen = null;
  const draw = frameLoop(() => view?.render() ?? false);

  function fitCanvases() {
    if (!view) return;
    const r = top.parentElement.getBoundingClientRect();
    view.resize(r.width, r.height, window.devicePixelRatio || 1);
    draw();
  }
  new ResizeObserver(fitCanvases).observe(top.parentElement);

  /**
   * Both menus list the open files (an option's value is the file's id); a choice still
   * open is kept. False when a menu's choice was closed.
   */
  function fillSelects() {
    const ids = Array.from(viewer.files());
    let kept = true;
    for (const sel of [$('cmp-a'), $('cmp-b')]) {
      const keep = sel.value;
      sel.replaceChildren(...ids.map((id) => {
        const o = el('option', viewer.file_name(id));
        o.value = String(id);
        return o;
      }));
      if (ids.some((id) => String(id) === keep)) sel.value = keep; else kept = false;
    }
    return kept;
  }

  /**
   * Default pair, the shown file's own family first: the shown plan (B) against the file
   * it was planned or deployed from, else its latest planned or deployed copy; else the first file the user opened (not a copy, not the sample:
   * opening a model then its fused version compares them in that order), else the file
   * before it. Another model's copies never pair with it (issue #50).
   */
  function defaults() {
    const ids = Array.from(viewer.files());
    const shown = viewer.current() ?? ids[ids.length - 1];
    const from = (id) => viewer.parent(id) ?? viewer.origin(id);
    const copies = ids.filter((id) => from(id) === shown);
    const b = shown;
    let a = from(shown) ?? copies[copies.length - 1];
    if (a == null) {
      const at = ids.indexOf(b);
      const first = ids.find((id) => id !== b && from(id) == null && !viewer.file_name(id).startsWith('sample: '));
      a = first ?? ids[at > 0 ? at - 1 : Math.min(1, ids.length - 1)];
    }
    $('cmp-a').value = String(a);
    $('cmp-b').value = String(b);
  }

  /** The charts' titles: the files' names as they are now. */
  function label() {
    $('cmp-label-a').textContent = `A: ${viewer.file_name(Number($('cmp-a').value))}`;
    $('cmp-label-b').textContent = `B: ${viewer.file_name(Number($('cmp-b').value))}` +
      (view?.aligned() ? ' (clocks aligned to A by node)' : '');
  }

  function build() {
    view?.free();
    view = null;
    const a = Number($('cmp-a').value);
    const b = Number($('cmp-b').value);
    const align = $('cmp-align').checked;
    view = new CompareView(top, bottom, viewer, a, b, align);
    view.set_theme(theme());
    label();
    const s = view.summary();
    const stats = $('cmp-stats');
    stats.replaceChildren();
    const rows = [
      ['Peak A', s.peak_a], ['Peak B', s.peak_b], ['Peak B − A', s.peak_delta],
      [`${s.bound_name_a} A`, s.lower_bound_a], [`${s.bound_name_b} B`, s.lower_bound_b],
      ['Buffers', `${s.matched} matched, ${s.matched - s.unchanged} changed, ${s.only_a} only in A, ${s.only_b} only in B`],
      // What the unpaired buffers were, by operator type (a fusion's removed intermediates).
      ...[['Only in A', s.only_a_kinds], ['Only in B', s.only_b_kinds]].filter(([, k]) => k.length)
        .map(([label, k]) => [label, kinds(k)]),
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
    changes = s.rows;
    omitted = s.rows_omitted;
    chosen = null;
    fillTable();
    fitCanvases();
    view.fit();
    draw();
  }

  let omitted = 0;
  /** The table's headers (Rust's list); each row's `cells` follow them. */
  const columns = compareColumns();
  function header() {
    $('cmp-head').replaceChildren(...columns.map((title, i) => {
      const th = el('th');
      th.scope = 'col';
      if (sort?.column === i) th.setAttribute('aria-sort', sort.dir > 0 ? 'ascending' : 'descending');
      const b = el('button', title);
      b.type = 'button';
      b.title = `Sort by ${title}`;
      b.addEventListener('click', () => {
        sort = { column: i, dir: sort?.column === i ? -sort.dir : 1 };
        fillTable();
        $('cmp-head').children[i].querySelector('button').focus();
      });
      th.append(b);
      return th;
    }));
  }

  function choose(r, tr) {
    chosen = r;
    for (const other of $('cmp-rows').children) other.removeAttribute('aria-selected');
    tr.setAttribute('aria-selected', 'true');
    view?.select(r.plane_a ?? undefined, r.plane_b ?? undefined);
    $('cmp-hover').textContent = `${r.name}: ${r.change}`;
    draw();
  }

  function fillTable() {
    header();
    // The core sorts on the values (bytes, signed moves), not on their text.
    const shown = sort ? Array.from(view.order(sort.column, sort.dir < 0), (i) => changes[i]) : changes;
    const body = $('cmp-rows');
    body.replaceChildren(...shown.map((r) => {
      const tr = el('tr');
      tr.tabIndex = 0;
      for (const cell of r.cells) tr.append(el('td', cell));
      if (r === chosen) tr.setAttribute('aria-selected', 'true');
      tr.addEventListener('click', () => choose(r, tr));
      tr.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          e.stopPropagation();
          choose(r, tr);
        }
      });
      return tr;
    }));
    if (omitted) body.append(el('tr', `… and ${omitted} more`));
  }

  function show(on) {
    if (on && viewer.current() == null) return; // nothing open to compare
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
  $('cmp-align').addEventListener('change', build);
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

  /**
   * The list of files changed (opened, renamed, closed): the menus and titles follow, a
   * closed file's chart is replaced; the view closes with the last file.
   */
  function filesChanged() {
    if (section.hidden) return;
    if (viewer.current() == null) {
      show(false);
      return;
    }
    if (fillSelects()) {
      label();
    } else {
      defaults();
      build();
    }
  }

  return {
    show,
    filesChanged,
    setTheme(t) {
      view?.set_theme(t);
      draw();
    },
    get open() { return !section.hidden; },
    summary: () => view?.summary(),
    frame: (which) => view?.frame(which),
    planeInfo: (which, plane) => view?.plane_info(which, plane),
  };
}
