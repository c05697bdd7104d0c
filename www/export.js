// The page's Export menu: SVG (the Rust SVG painter, same shapes as the canvas and
// as `memplan render`), PNG at a chosen width and scale (tiled, see png.js), and the
// plan as memplan JSON, Aidge text log, MiniMalloc CSV or C header
// (formats::export). Everything is made in the page and saved with a download link;
// nothing leaves the browser.

import { exportText } from './memplan-view.js';

const TEXT = [
  ['memplan', 'memplan JSON', '.memplan.json', 'application/json'],
  ['aidge', 'Aidge text log', '.memory_info.txt', 'text/plain'],
  ['csv', 'MiniMalloc CSV', '.csv', 'text/csv'],
  ['header', 'C header', '.h', 'text/x-c'],
];

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

/** Saves a Blob under `name` through a temporary download link. */
export function download(name, blob) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/** File name stem of the shown plan (no directories, no extension). */
function stem(viewer) {
  const files = viewer.files();
  const cur = viewer.current();
  const name = cur == null ? 'plan' : files[cur];
  return (name.split(/[\\/]/).pop() || 'plan').replace(/\.(memory_info\.txt|json|txt|log|csv)$/i, '') || 'plan';
}

/**
 * Adds the Export menu after `anchor` (an element of the tool bar). `stage` is the chart's box (its size is the default
 * export size); `onError(message)` shows failures.
 */
export function installExport(viewer, anchor, stage, onError) {
  const status = el('span', { className: 'muted', id: 'export-status' });
  status.setAttribute('aria-live', 'polite');
  const width = el('input', { type: 'number', id: 'export-width', min: 100, max: 200000, step: 100, title: 'Width in CSS pixels' });
  const height = el('input', { type: 'number', id: 'export-height', min: 80, max: 200000, step: 10, title: 'Height in CSS pixels' });
  const scale = el('select', { id: 'export-scale', title: 'PNG pixels per CSS pixel' },
    ...[1, 2, 3, 4].map((s) => el('option', { value: String(s), textContent: `${s}×` })));
  const menu = el('details', { className: 'menu', id: 'export' });
  const body = el('div', { className: 'menu-body' });
  const sizeRow = el('div', { className: 'row' },
    el('label', {}, 'Width ', width), el('label', {}, ' Height ', height), el('label', {}, ' Scale ', scale));
  const button = (id, text, run) => {
    const b = el('button', { type: 'button', id, textContent: text });
    b.addEventListener('click', async () => {
      try {
        status.textContent = 'exporting…';
        await run();
        status.textContent = '';
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
    el('div', { className: 'row' },
      button('export-svg', 'SVG', async () => {
        const [w, h] = size();
        download(`${stem(viewer)}.svg`, new Blob([viewer.svg(w, h)], { type: 'image/svg+xml' }));
      }),
      button('export-png', 'PNG', async () => {
        const [w, h] = size();
        const pic = viewer.picture(w, h, Number(scale.value));
        try {
          // png.js loads on the first PNG export: the first frame does not need it.
          const { picturePng } = await import('./png.js');
          const blob = await picturePng(pic, (f) => { status.textContent = `PNG ${Math.round(f * 100)} %`; });
          download(`${stem(viewer)}.png`, blob);
        } finally {
          pic.free();
        }
      })),
    el('div', { className: 'row' },
      ...TEXT.map(([format, label, ext, type]) => button(`export-${format}`, label, async () => {
        download(`${stem(viewer)}${ext}`, new Blob([await exportText(viewer, format)], { type }));
      }))),
  );
  menu.append(el('summary', { className: 'button', textContent: 'Export…' }), body);
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
  anchor.after(menu, status);
}
