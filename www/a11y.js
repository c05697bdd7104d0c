// The main page for keyboards and screen readers: a polite live region that reads
// out the plan and every selection, and the light/dark theme toggle (auto follows the
// system, the choice is remembered). The chart is a picture: the same data as text is
// the panel's table of buffers (table.js). Names reach the DOM as text.
import { el, followTheme } from './memplan-ui.js';

/**
 * Installs the live region after `stage`, the theme button after
 * `anchor`; `onTheme('light' | 'dark')` is called whenever the theme drawn changes
 * (the viewer's is set here). Returns { announce(text), describe(), selected(info),
 * theme(), cycleTheme() }.
 */
export function installA11y(viewer, stage, anchor, onTheme) {
  const live = el('div', '', 'sr');
  live.id = 'announce';
  live.setAttribute('aria-live', 'polite');
  stage.after(live);

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

  /** Reads the plan's summary out (after a file change). */
  function describe() {
    const s = viewer.summary();
    if (!s) {
      stage.setAttribute('aria-label', 'Memory plan chart: no plan open');
      announce('No plan open');
      return;
    }
    const name = viewer.file_name(viewer.current());
    stage.setAttribute('aria-label', `Memory plan chart of ${name}. Arrow keys move between planes, ` +
      'Enter pins, P jumps to the peak, slash searches, Escape clears.');
    const w = s.words;
    announce(`${name}: ${w.peak.toLowerCase()} ${s.peak}, ${s.bound_name.toLowerCase()} ${s.lower_bound}, `
      + `${s.planes} ${w.planes}${w.steps ? ` over ${s.steps - s.producers} ${w.steps}` : ''}.`);
  }

  /** Reads a selection out (or its clearing). */
  function selected(info) {
    announce(info ? `${info.name}: ${info.size} at ${info.address}, live from clock ${info.allocated} to ${info.last_live}` : 'Selection cleared');
  }

  return { announce, describe, selected, theme, chosen, useTheme, cycleTheme };
}
