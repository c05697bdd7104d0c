// The page's Export menu: SVG (the Rust SVG painter, same shapes as the canvas and
// as `memplan render`), PNG at a chosen width and scale (tiled, see png.js), and the
// plan as text in every format `memplan convert --format` writes (the list is Rust's,
// `export_formats`: formats::Export::CHOICES). Everything is made in the page and saved with a download link;
// nothing leaves the browser.
import { el } from './memplan-ui.js';
import { exportText } from './memplan-view.js';
import { shownModel, withShownPlan } from './tflite.js';
import { export_formats as exportFormats } from './pkg-lite/memplan.js';

/** An element of the menu: `el`'s, with its properties set. */
const make = (tag, props) => Object.assign(el(tag), props);

/** A label around `input`. */
function labelled(text, input) {
  const label = el('label', text);
  label.append(input);
  return label;
}

/** A row of the menu. */
function row(...children) {
  const div = el('div', null, 'row');
  div.append(...children);
  return div;
}

/** Saves a Blob under `name` through a temporary download link. */
export function download(name, blob) {
  const a = make('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/**
 * Adds the Export menu after `anchor` (an element of the tool bar). `stage` is the chart's box (its size is the default
 * export size); `onError(message)` shows failures. Returns `setEnabled(on)`.
 */
export function installExport(viewer, anchor, stage, onError) {
  const status = make('span', { className: 'muted', id: 'export-status' });
  status.setAttribute('aria-live', 'polite');
  const width = make('input', { type: 'number', id: 'export-width', min: 100, max: 200000, step: 100, title: 'Width in CSS pixels' });
  const height = make('input', { type: 'number', id: 'export-height', min: 80, max: 200000, step: 10, title: 'Height in CSS pixels' });
  const scale = make('select', { id: 'export-scale', title: 'PNG pixels per CSS pixel' });
  scale.append(...[1, 2, 3, 4].map((s) => make('option', { value: String(s), textContent: `${s}×` })));
  const menu = make('details', { className: 'menu', id: 'export' });
  const body = el('div', null, 'menu-body');
  const sizeRow = row(labelled('Width ', width), labelled(' Height ', height), labelled(' Scale ', scale));
  const button = (id, text, run) => {
    const b = make('button', { type: 'button', id, textContent: text });
    b.addEventListener('click', async () => {
      try {
        status.textContent = 'exporting…';
        // A run may return what to tell the user (a .tflite: the arena size to set).
        status.textContent = (await run()) ?? '';
      } catch (e) {
        status.textContent = '';
        onError(`export: ${e.message ?? e}`);
      }
    });
    return b;
  };
  /** The typed size, or the chart's where a field is empty (the Viewer checks the range). */
  const size = () => {
    const w = Number(width.value) || Math.round(stage.clientWidth);
    const h = Number(height.value) || Math.round(stage.clientHeight);
    return [w, h];
  };
  body.append(
    sizeRow,
    row(
      button('export-svg', 'SVG', async () => {
        const [w, h] = size();
        download(`${viewer.file_stem()}.svg`, new Blob([viewer.svg(w, h)], { type: 'image/svg+xml' }));
      }),
      button('export-png', 'PNG', async () => {
        const [w, h] = size();
        const pic = viewer.picture(w, h, Number(scale.value));
        try {
          // png.js loads on the first PNG export: the first frame does not need it.
          const { picturePng } = await import('./png.js');
          const blob = await picturePng(pic, (f) => { status.textContent = `PNG ${Math.round(f * 100)} %`; });
          download(`${viewer.file_stem()}.png`, blob);
        } finally {
          pic.free();
        }
      })),
    row(
      // Each format is saved under the shown file's name and the format's own suffix
      // (the Viewer's `export_name`: `memory_info.txt`, `memory_info.single.txt`, …).
      ...exportFormats().map(({ name: format, help: label, mime: type }) => button(`export-${format}`, label, async () => {
        download(viewer.export_name(format), new Blob([await exportText(viewer, format)], { type }));
      }))),
  );
  // A .tflite's plan goes back into the model (tflite.js); the arena size to set is said
  // in the status line.
  const tflite = button('export-tflite', '.tflite with this plan', async () => {
    const out = await withShownPlan(viewer);
    download(out.name, new Blob([out.bytes], { type: 'application/octet-stream' }));
    return `${out.name}: ${out.summary}`;
  });
  const tfliteRow = row(tflite);
  tfliteRow.hidden = true;
  body.append(tfliteRow);
  menu.append(el('summary', 'Export…', 'button'), body);
  // The fields show the chart's size as a placeholder (what an empty field exports) and
  // the page never writes into them: `toggle` fires a task after the click that opens
  // the menu, and a value written then was prepended to digits typed at once (980 +
  // 1200 → 9,801,200 px, which the Viewer refuses: no download).
  menu.addEventListener('toggle', () => {
    if (menu.open) {
      width.placeholder = String(Math.round(stage.clientWidth));
      height.placeholder = String(Math.round(stage.clientHeight));
    }
  });
  // With no plan open (every file closed) there is nothing to export: the buttons are
  // disabled and the menu says why, instead of an error after a click.
  const hint = make('p', { className: 'muted', id: 'export-hint', textContent: 'Open a plan to export it.', hidden: true });
  body.prepend(hint);
  anchor.after(menu, status);
  return {
    /** Called by the page whenever the shown file changes: whether there is one. */
    setEnabled(on) {
      for (const b of body.querySelectorAll('button')) b.disabled = !on;
      hint.hidden = on;
      tfliteRow.hidden = !on || !shownModel(viewer);
    },
  };
}
