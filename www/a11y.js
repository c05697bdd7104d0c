// The main page for keyboards and screen readers: a polite live region that reads
// out the plan and every selection, a visually hidden table of the buffers (the chart
// is a picture; the table is the same data as text), and the light/dark theme toggle
// (auto follows the system, the choice is remembered). Names reach the DOM as text.
import { el, followTheme } from './memplan-ui.js';

/**
 * Rows of the hidden table at most: past this the table is noise, not help, and its
 * layout costs every file change (2,000 rows: 0.4 s of style and layout).
 */
const TABLE_ROWS = 250;

/**
 * Installs the live region and the table after `stage`, the theme button after
 * `anchor`; `onTheme('light' | 'dark')` is called whenever the theme drawn changes
 * (the viewer's is set here). Returns { announce(text), describe(), selected(info),
 * theme(), cycleTheme() }.
 */
export function installA11y(viewer, stage, anchor, onTheme) {
  const live = el('div', '', 'sr');
  live.id = 'announce';
  live.setAttribute('aria-live', 'polite');
  // The table sits in a clipped box: a table ignores `height` and `overflow`, so a
  // table of class `sr` itself would still be as tall as its rows and scroll the page.
  const box = el('div', undefined, 'sr');
  const table = el('table');
  table.id = 'buffers';
  box.append(table);
  stage.after(live, box);

  const themes = ['auto', 'light', 'dark'];
  // Folded behind More… on a phone, as the other view toggles (style.css).
  const button = el('button', '', 'more');
  button.type = 'button';
  button.id = 'theme';
  button.title = 'Theme: auto follows the system (T)';
  anchor.after(button);
  let choice = themes.includes(localStorage.getItem('memplan-theme')) ? localStorage.getItem('memplan-theme') : 'auto';
  let drawn = 'light';
  const follow = followTheme(() => choice, (t) => {
    drawn = t;
    document.documentElement.dataset.theme = t;
    viewer.set_theme(t);
    button.textContent = `Theme: ${choice}`;
    onTheme(t);
  });
  const theme = () => drawn;
  /** The theme chosen (`auto`, `light`, `dark`): what a link carries. */
  const chosen = () => choice;
  /** Shows `t` (`light` or `dark`, from a link) without making it this browser's choice. */
  function useTheme(t) {
    if (!themes.includes(t)) return;
    choice = t;
    follow.update();
  }
  button.addEventListener('click', () => cycleTheme());
  function cycleTheme() {
    choice = themes[(themes.indexOf(choice) + 1) % themes.length];
    localStorage.setItem('memplan-theme', choice);
    follow.update();
    announce(`Theme ${choice}`);
  }

  function announce(text) {
    live.textContent = text;
  }

  /** Rebuilds the table and reads the plan's summary out (after a file change). */
  function describe() {
    const s = viewer.summary();
    table.replaceChildren();
    if (!s) {
      stage.setAttribute('aria-label', 'Memory plan chart: no plan open');
      announce('No plan open');
      return;
    }
    const name = viewer.file_name(viewer.current());
    stage.setAttribute('aria-label', `Memory plan chart of ${name}. Arrow keys move between planes, ` +
      'Enter pins, P jumps to the peak, slash searches, Escape clears.');
    announce(`${name}: peak ${s.peak}, ${s.bound_name.toLowerCase()} ${s.lower_bound}, ${s.planes} planes over ${s.steps} steps.`);
    const rows = viewer.planes(TABLE_ROWS);
    table.append(el('caption', `Buffers of ${name}` + (s.planes > rows.length ? ` (first ${rows.length} of ${s.planes})` : '')));
    const head = el('tr');
    for (const h of ['plane', 'size', 'address', 'live from', 'live to', 'space']) {
      const th = el('th', h);
      th.scope = 'col';
      head.append(th);
    }
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    for (const r of rows) {
      const tr = el('tr');
      tr.append(el('th', r.name), el('td', r.size), el('td', r.address), el('td', String(r.allocated)),
        el('td', String(r.last_live)), el('td', `${r.space} in ${r.component}`));
      tr.firstChild.scope = 'row';
      tbody.append(tr);
    }
    table.append(thead, tbody);
  }

  /** Reads a selection out (or its clearing). */
  function selected(info) {
    announce(info ? `${info.name}: ${info.size} at ${info.address}, live from clock ${info.allocated} to ${info.last_live}` : 'Selection cleared');
  }

  return { announce, describe, selected, theme, chosen, useTheme, cycleTheme };
}
