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

/** A column of buttons of the menu. */
function formats(...buttons) {
  const div = el('div', null, 'formats');
  div.append(...buttons);
  return div;
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
  // What an export says (progress, a .tflite's arena size) is said in the menu, under
  // the button pressed, not in the tool bar, whose rows it would change.
  const status = make('p', { className: 'muted', id: 'export-status' });
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
    el('h3', 'The plan as text', 'muted'),
    // One format a line (their names are long). Each is saved under the shown file's
    // name and the format's own suffix (the Viewer's `export_name`: `memory_info.txt`,
    // `memory_info.single.txt`, …).
    formats(...exportFormats().map(({ name: format, help: label, mime: type }) => button(`export-${format}`, label, async () => {
      download(viewer.export_name(format), new Blob([await exportText(viewer, format)], { type }));
    }))),
  );
  // A .tflite's plan goes back into the model (tflite.js); the arena size to set is said
  // under its button (#export-status).
  const tflite = button('export-tflite', '.tflite with this plan', async () => {
    const out = await withShownPlan(viewer);
    download(out.name, new Blob([out.bytes], { type: 'application/octet-stream' }));
    return `${out.name}: ${out.summary}`;
  });
  const tfliteRow = row(tflite);
  tfliteRow.hidden = true;
  // A plan that needs no less than TFLM's own (the plan as loaded, or a re-plan with no
  // gain) is not offered as a "planned" model: the model as it is does as well.
  const tfliteNone = make('p', { className: 'muted', id: 'export-tflite-none', hidden: true });
  body.append(tfliteRow, tfliteNone, status);
  const summary = el('summary', 'Export…', 'button');
  menu.append(summary, body);
  // The menu stays in the window: moved left from its right edge, its height bounded
  // (it scrolls). Placed as soon as it opens (a MutationObserver runs before the next
  // frame; the `toggle` event may come after one), and again when the window resizes.
  function place() {
    if (!menu.open) return;
    body.style.left = '';
    body.style.maxHeight = '';
    const r = body.getBoundingClientRect();
    const room = document.documentElement.clientWidth - 8;
    // Left by what passes the edge, but never past the window's left margin.
    if (r.right > room) body.style.left = `${Math.max(room - r.right, 8 - r.left)}px`;
    body.style.maxHeight = `${Math.max(160, window.innerHeight - r.top - 8)}px`;
  }
  new MutationObserver(place).observe(menu, { attributes: true, attributeFilter: ['open'] });
  window.addEventListener('resize', place);
  // Escape closes the menu wherever the focus is in the page, and gives the focus back
  // to Export… (the page's own Escape, which clears the selection, is not run).
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    summary.focus();
    e.preventDefault();
    e.stopPropagation();
  });
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
  anchor.after(menu);
  return {
    /** Called by the page whenever the shown file changes: whether there is one. */
    setEnabled(on) {
      for (const b of body.querySelectorAll('button')) b.disabled = !on;
      hint.hidden = on;
      const model = on && shownModel(viewer);
      const gain = model ? viewer.replan_gain() : null;
      const none = gain != null && BigInt(gain.saved) === 0n;
      tfliteRow.hidden = !model || none;
      tfliteNone.hidden = !model || !none;
      if (none) {
        tfliteNone.textContent = gain.as_loaded
          ? 'A .tflite with a plan: Re-plan first (this is TFLM\'s own plan, which the model gets without one).'
          : `No .tflite with this plan: its arena head is ${Number(gain.after).toLocaleString('en')} B, TFLM's own `
            + `plan of the model ${Number(gain.before).toLocaleString('en')} B (no gain: the model as it is does as well).`;
      }
    },
  };
}
