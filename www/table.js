// The table of every buffer of the shown plan (issue #39, item 11), in the side panel:
// name, writer, size, first and last clock, offset, in the words of the file's format.
// Sorting is Rust's (`Viewer.table`: it selects the rows shown, then sorts them, so a
// million planes cost a pass, not a sort, and the page never freezes); rows are added
// a page at a time up to a cap. A row pins its plane. Names reach the DOM as text.
import { el } from './memplan-ui.js';

/** Rows added per "Show more". */
const PAGE = 250;
/** Rows shown at most: past this a table is noise, and its layout costs every change. */
const MAX_ROWS = 5000;
/** The direction a column sorts in first: sizes largest first, the rest ascending. */
const FIRST_DESCENDING = new Set(['size']);

const $ = (id) => document.getElementById(id);
const count = (n) => Number(n).toLocaleString('en');

/**
 * Wires the table; `select(plane)` pins a plane. Returns `refresh()`, called whenever
 * the shown file (or its plan) changes.
 */
export function setupTable(viewer, select) {
  let sort = { key: 'size', descending: true };
  let limit = PAGE;

  function header(t) {
    const tr = el('tr');
    for (const [key, label] of t.columns) {
      const th = el('th');
      th.scope = 'col';
      if (t.sort === key) th.setAttribute('aria-sort', t.descending ? 'descending' : 'ascending');
      const b = el('button', label);
      b.type = 'button';
      b.title = `Sort by ${label}`;
      b.addEventListener('click', () => {
        sort = { key, descending: sort.key === key ? !sort.descending : FIRST_DESCENDING.has(key) };
        limit = PAGE;
        fill();
        $('table-head').querySelector(`th:nth-child(${t.columns.findIndex((c) => c[0] === key) + 1}) button`)?.focus();
      });
      th.append(b);
      tr.append(th);
    }
    $('table-head').replaceChildren(tr);
  }

  /** The words of the shown file's format (`summary.words`). */
  let words = null;

  function fill() {
    const t = words && viewer.table(sort.key, sort.descending, limit);
    $('table-box').hidden = !t;
    if (!t) {
      $('table-head').replaceChildren();
      $('table-rows').replaceChildren();
      return;
    }
    const planes = words.planes;
    $('table-title').textContent = `All ${planes} (${count(t.total)})`;
    const label = t.columns.find((c) => c[0] === t.sort)?.[1] ?? t.sort;
    $('table-caption').textContent = `${planes[0].toUpperCase()}${planes.slice(1)} of ${viewer.file_name(viewer.current())}, `
      + `sorted by ${label}${t.descending ? ', descending' : ''}`
      + (t.total > t.rows.length ? ` (the first ${count(t.rows.length)} of ${count(t.total)})` : '');
    header(t);
    $('table-rows').replaceChildren(...t.rows.map((r) => {
      const tr = el('tr');
      const th = el('th');
      th.scope = 'row';
      const b = el('button', r.cells[0], 'item');
      b.type = 'button';
      b.dataset.plane = String(r.plane);
      th.append(b);
      tr.append(th, ...r.cells.slice(1).map((c) => el('td', c)));
      tr.addEventListener('click', () => select(r.plane));
      return tr;
    }));
    const more = t.total > t.rows.length && limit < MAX_ROWS;
    $('table-count').textContent = t.total > t.rows.length
      ? `${count(t.rows.length)} of ${count(t.total)} shown${more ? '' : ': sort by another column or search a node to find the others'}`
      : '';
    $('table-more').hidden = !more;
    $('table-more').textContent = `Show ${count(Math.min(PAGE, t.total - t.rows.length, MAX_ROWS - t.rows.length))} more`;
  }

  $('table-more').addEventListener('click', () => {
    limit = Math.min(limit + PAGE, MAX_ROWS);
    fill();
  });

  return {
    /**
     * The shown file changed (`w`: the words of its format, null when none is shown): its
     * table, sorted as the user last chose, from its first rows.
     */
    refresh(w) {
      words = w ?? null;
      limit = PAGE;
      fill();
    },
  };
}
