// The page's thin JS layer: files (picker, drag-and-drop), keyboard, pointer events,
// the names toggle and the DOM panels. Parsing, layout, drawing and hit-testing are
// the Rust Viewer's (pkg-lite/memplan.js: the page's first wasm module; the whole
// crate's, pkg/, loads when a file, a strategy or a text export needs it), and so is
// the list of opened files: menus carry the Viewer's file ids. Text from dumps reaches
// the DOM only through textContent, never innerHTML.
import init, { Viewer, companion_of } from './pkg-lite/memplan.js';
import { setupPlanning } from './strategy.js';
import { setupCompare } from './compare.js';
import { exportText } from './memplan-view.js';
import { bindGestures, chartKey, el, frameLoop } from './memplan-ui.js';
import { installExport } from './export.js';
import { installA11y } from './a11y.js';
import { fragmentPlan, fragmentSync, readFragment } from './share.js';
import { prepare as prepareOnnx } from './onnx.js';

const $ = (id) => document.getElementById(id);
const canvas = $('chart');
const stage = $('stage');
const tooltip = $('tooltip');

await init();
const viewer = new Viewer(canvas);

const count = (n) => Number(n).toLocaleString('en');

// One animation frame in flight at most: every change asks, the frame draws once.
const redraw = frameLoop(() => {
  const again = viewer.render();
  share.update();
  return again;
});

// Link fragment, the compare view, keyboard/screen-reader helpers, theme and the Export menu.
const share = fragmentSync(viewer);
const compare = setupCompare({ viewer, theme: () => a11y.theme(), onClose: fitCanvas });
const a11y = installA11y(viewer, stage, $('fit'), (theme) => {
  compare.setTheme(theme);
  redraw();
});
const exporter = installExport(viewer, $('theme'), stage, (m) => showError(m));

// Backing store = CSS size × devicePixelRatio; follows resizes and DPR changes.
function fitCanvas() {
  const r = stage.getBoundingClientRect();
  viewer.resize(r.width, r.height, window.devicePixelRatio || 1);
  redraw();
}
new ResizeObserver(fitCanvas).observe(stage);
(function watchDpr() {
  const mq = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
  mq.addEventListener('change', () => { fitCanvas(); watchDpr(); }, { once: true });
})();

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
}

/** A line under the bar that is neither an error nor permanent (cleared by the next open). */
function notify(message) {
  const box = $('notice');
  box.textContent = message ?? '';
  box.hidden = !message;
}

function fillDetails(dl, info) {
  dl.replaceChildren();
  const rows = [
    ['node', info.node + (info.kind ? ` (${info.kind})` : '')],
    ['output', String(info.output)],
    ['offset', info.offset],
    ['address', info.address],
    ['size', info.size],
    ['stride × length × count', `${info.stride} × ${info.length} × ${info.count}`],
    ['live', `${info.allocated} → ${info.last_live}` + (info.released == null ? ' (never released)' : '')],
    ['space', `${info.space} in ${info.component}`],
  ];
  if (info.wrap) rows.push(['wrapped', info.wrap]);
  for (const f of info.findings) rows.push(['problem', f]);
  for (const [k, v] of rows) {
    dl.append(el('dt', k), el('dd', v));
  }
}

function showPinned(info) {
  a11y.selected(info);
  const dl = $('pinned');
  if (!info) {
    dl.replaceChildren(el('dd', 'Click a plane to pin its details.', 'muted'));
    return;
  }
  fillDetails(dl, info);
  dl.prepend(el('dt', 'plane'), el('dd', info.name));
}

function select(plane) {
  showPinned(viewer.select_plane(plane));
  redraw();
}

/** A list entry that selects plane `plane`: a button, so Tab reaches it and Enter selects. */
function planeItem(text, plane, cls) {
  const li = el('li', undefined, cls);
  const b = el('button', text, 'item');
  b.type = 'button';
  b.dataset.plane = String(plane);
  b.addEventListener('click', () => select(plane));
  li.append(b);
  return li;
}

/** `55, 82, 109 … (+12 more)`: the clocks where the peak is reached. */
function clockList(clocks, more) {
  return clocks.join(', ') + (more ? ` … (+${count(more)} more)` : '');
}

function refreshPanel() {
  const sel = $('files');
  sel.replaceChildren(...Array.from(viewer.files(), (id) => {
    const o = el('option', viewer.file_name(id));
    o.value = String(id);
    return o;
  }));
  const cur = viewer.current();
  if (cur != null) sel.value = String(cur);
  for (const id of ['rename', 'close-file']) $(id).disabled = cur == null;
  exporter.setEnabled(cur != null);
  const s = viewer.summary();
  $('title').textContent = cur == null ? 'No plan' : viewer.file_name(cur);
  const stats = $('stats');
  stats.replaceChildren();
  const live = $('live');
  live.replaceChildren();
  const findings = $('findings');
  findings.replaceChildren();
  showPinned(null);
  if (!s) {
    // Nothing open (the last file was closed).
    $('live-title').textContent = 'Live at the peak';
    a11y.describe();
    return;
  }
  const rows = [
    ['Peak', s.peak],
    ['Lower bound', s.lower_bound],
    ['Efficiency', s.efficiency],
    ['Planes', count(s.planes)],
    ['Spaces', count(s.spaces)],
    // Producers (weights, inputs) are steps without a clock of their own.
    ['Steps', s.clocks === s.steps ? count(s.steps) : `${count(s.steps)} (${count(s.clocks)} clocks)`],
  ];
  for (const lane of s.lanes) {
    if (s.lanes.length > 1) rows.push([`Peak of ${lane.name}`, lane.peak]);
    if (lane.capacity != null) {
      const verdict = lane.fits ? `fits, ${lane.margin} to spare` : `over by ${lane.margin}`;
      rows.push([s.lanes.length > 1 ? `Capacity of ${lane.name}` : 'Capacity', `${lane.capacity}: ${verdict}`, lane.fits ? 'good' : 'bad']);
    }
  }
  // Two different clocks: where the arena's top is reached (what it must hold), and
  // where the most bytes are live (the lower bound); a hole can put the first later.
  const peakLane = s.lanes.find((l) => l.peak_bytes === s.peak_bytes) ?? s.lanes[0];
  if (peakLane && peakLane.peak_clocks.length) {
    rows.push(['Peak reached at clock', clockList(peakLane.peak_clocks, peakLane.peak_clocks_more), 'peak-clock']);
  }
  if (peakLane && peakLane.busiest_clock != null) {
    rows.push(['Most live bytes', `${peakLane.lower_bound} at clock ${peakLane.busiest_clock}`, 'busiest-clock']);
  }
  for (const [k, v, tag] of rows) {
    const dd = el('dd', v);
    if (k === 'Peak') dd.id = 'peak';
    if (tag === 'good' || tag === 'bad') dd.className = tag;
    else if (tag) dd.id = tag;
    stats.append(el('dt', k), dd);
  }
  const at = peakLane?.peak_clocks[0] ?? peakLane?.busiest_clock;
  $('live-title').textContent = at == null ? 'Live at the peak' : `Live at clock ${at} (the peak)`;
  for (const row of peakLane ? peakLane.live_at_peak : []) {
    const text = `${row.name} — ${row.size}` + (row.sets_peak ? ' · sets the peak' : '');
    live.append(planeItem(text, row.plane, row.sets_peak ? 'top' : undefined));
  }
  if (s.findings.length === 0) {
    findings.append(el('li', 'No problem found: no live planes of different spaces overlap.'));
  }
  for (const f of s.findings) {
    findings.append(f.planes.length ? planeItem(f.text, f.planes[0], 'bad') : el('li', f.text, 'bad'));
  }
  if (s.findings_omitted) findings.append(el('li', `… and ${s.findings_omitted} more`, 'bad'));
  a11y.describe();
}

// Reading, parsing and planning run in a Web Worker (strategy.js, worker.js).
const planning = setupPlanning({
  viewer,
  refresh: () => {
    refreshPanel();
    compare.filesChanged();
  },
  redraw,
  showError,
  clearError,
  notify,
});

/**
 * Opens files; a bad one shows its error and leaves the shown plan in place. A file
 * picked from a folder keeps the folder in its name (`a/memory_info.txt`). Resolves to
 * the ids of the files opened.
 */
async function openFiles(files) {
  // .onnx models become memplan JSON first, in the lazily loaded ONNX module (onnx.js).
  const errors = [];
  const items = await prepareOnnx(files.map((file) => ({ name: file.webkitRelativePath || file.name, source: file })),
    (m) => errors.push(m));
  // A file that needs another beside it (XLA's buffer assignment and its live ranges),
  // dropped together: opened as one plan.
  const byName = new Map(items.map((item) => [item.name, item]));
  const paired = new Set();
  for (const item of items) {
    const other = byName.get(companion_of(item.name, new Uint8Array()) ?? '');
    if (other && other !== item) {
      item.companion = { name: other.name, source: other.source };
      paired.add(other);
    }
  }
  const single = items.filter((item) => !paired.has(item));
  const ids = single.length ? await planning.open(single) : [];
  if (errors.length) showError(errors.join('\n'));
  return ids;
}

async function openSample() {
  try {
    const names = await (await fetch('sample/manifest.json')).json();
    const items = [];
    for (const name of names) {
      items.push({ name, source: await (await fetch('sample/' + encodeURIComponent(name))).blob() });
    }
    await planning.open(items);
  } catch (e) {
    showError(`sample: ${e}`);
  }
}

// Files: picker, drop anywhere.
$('picker').addEventListener('change', (e) => {
  openFiles([...e.target.files]);
  e.target.value = '';
});
let dragDepth = 0;
window.addEventListener('dragenter', (e) => { e.preventDefault(); dragDepth++; $('drop').hidden = false; });
window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; $('drop').hidden = true; } });
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  $('drop').hidden = true;
  if (e.dataTransfer && e.dataTransfer.files.length) openFiles([...e.dataTransfer.files]);
});
/** The shown file changed, or the list did: the panel, the planning line and the compare menus follow. */
function filesChanged() {
  refreshPanel();
  planning.showReport(); // the planning line belongs to the file shown
  compare.filesChanged();
  redraw();
}
$('files').addEventListener('change', (e) => {
  viewer.select_file(Number(e.target.value));
  filesChanged();
});
$('close-file').addEventListener('click', () => {
  const cur = viewer.current();
  if (cur == null) return;
  viewer.close_file(cur);
  filesChanged();
});

// Toggles.
function setNames(on) {
  viewer.set_names(on);
  $('names').setAttribute('aria-pressed', String(on));
  redraw();
}
function setHex(on) {
  viewer.set_hex(on);
  $('hex').setAttribute('aria-pressed', String(on));
  redraw();
}
$('names').addEventListener('click', () => setNames(!viewer.names()));
$('hex').addEventListener('click', () => setHex($('hex').getAttribute('aria-pressed') !== 'true'));
$('fit').addEventListener('click', () => { viewer.fit(); redraw(); });

// Copy link: the address already holds the view (share.js); the button says what it carries.
$('copy-link').addEventListener('click', async () => {
  await share.flush(); // the last change may still be waiting to reach the address
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
  } catch (e) {
    notify(`The browser refused the clipboard (${e.message ?? e}); copy the address bar instead.`);
    return;
  }
  const kb = (link.length / 1024).toFixed(1);
  notify(/[#&](data|src)=/.test(location.hash)
    ? `Link copied (${kb} KB): it opens this plan at this view.`
    : `Link copied (${kb} KB): this plan is too large to travel in a link, so it holds the view only.`);
});

// Rename: the shown file's name becomes an input; Enter renames, Escape cancels.
function renaming(on) {
  const input = $('rename-name');
  input.hidden = !on;
  $('files').hidden = on;
  $('rename').hidden = on;
  $('close-file').hidden = on;
  if (on) {
    input.value = viewer.file_name(viewer.current()) ?? '';
    input.focus();
    input.select();
  }
}
$('rename').addEventListener('click', () => { if (viewer.current() != null) renaming(true); });
$('rename-name').addEventListener('keydown', (e) => {
  // The key must not also press the Rename button that gets the focus back.
  if (e.key === 'Escape' || e.key === 'Enter') e.preventDefault();
  if (e.key === 'Escape') {
    renaming(false);
    $('rename').focus();
  } else if (e.key === 'Enter') {
    const cur = viewer.current();
    const name = e.target.value.trim();
    if (name !== viewer.file_name(cur) && !viewer.rename_file(cur, name)) {
      notify(`Cannot rename to “${name}”: the name is empty or another file has it.`);
      return;
    }
    renaming(false);
    filesChanged();
    $('rename').focus();
  }
});
$('rename-name').addEventListener('blur', () => renaming(false));
$('search').addEventListener('input', (e) => {
  const found = viewer.search(e.target.value);
  $('matches').textContent = e.target.value.trim() ? `${found.length} found` : '';
  redraw();
});
$('search').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    const found = viewer.search(e.target.value);
    if (found.length) select(found[0]);
  }
});

// Pointer: hover tooltip, click to pin, drag to pan, wheel to zoom, double-click to fit.
function showTooltip(info, x, y) {
  if (!info) {
    tooltip.hidden = true;
    return;
  }
  tooltip.replaceChildren(el('div', info.name, 'name'));
  const dl = el('dl');
  fillDetails(dl, info);
  tooltip.append(dl);
  tooltip.hidden = false;
  const w = stage.clientWidth;
  const h = stage.clientHeight;
  const tw = tooltip.offsetWidth;
  const th = tooltip.offsetHeight;
  tooltip.style.left = `${Math.min(x + 14, Math.max(0, w - tw - 4))}px`;
  tooltip.style.top = `${y + 14 + th > h ? Math.max(0, y - th - 10) : y + 14}px`;
}
bindGestures(canvas, {
  down: () => stage.focus(),
  pan: (dx, dy) => {
    viewer.pan(dx, dy);
    tooltip.hidden = true;
    redraw();
  },
  hover: (x, y) => {
    showTooltip(viewer.hover(x, y), x, y);
    redraw();
  },
  click: (x, y) => showPinned(viewer.click(x, y)),
  up: redraw,
  leave: () => {
    tooltip.hidden = true;
    viewer.hover(-1, -1);
    redraw();
  },
  fit: () => { viewer.fit(); redraw(); },
  zoom: (x, y, factor, addresses) => {
    if (addresses) viewer.zoom_address(y, factor); else viewer.zoom_time(x, factor);
    tooltip.hidden = true;
    redraw();
  },
});

// Keyboard: N names, H hex, T theme, / search, and the chart's keys (memplan-ui.js's
// chartKey: arrows move the pinned plane, Shift+arrows pan, Enter, P peak, Escape
// unpins, 0 fits, +/- zoom).
window.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // Enter and Space on a focused button press it.
  if (e.target instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ')) return;
  switch (e.key) {
    case 'n': case 'N': setNames(!viewer.names()); break;
    case 'h': case 'H': setHex($('hex').getAttribute('aria-pressed') !== 'true'); break;
    case 't': case 'T': a11y.cycleTheme(); break;
    case '/': $('search').focus(); break;
    default: {
      const r = chartKey(viewer, e, stage.clientWidth);
      if (!r) return;
      if ('info' in r) showPinned(r.info);
    }
  }
  e.preventDefault();
  redraw();
});

// Test hook: what the last frame drew and the stats, for the end-to-end tests. Files
// are found by the name shown (tests name what a user sees).
const idOf = (name) => Array.from(viewer.files()).find((id) => viewer.file_name(id) === name);
window.__memplan = {
  viewer,
  frame: () => viewer.frame(),
  summary: () => viewer.summary(),
  files: () => Array.from(viewer.files(), (id) => viewer.file_name(id)),
  idOf,
  report: (name) => viewer.report(idOf(name)),
  renderNow: () => { viewer.render(); return viewer.frame(); },
  exportText: (format) => exportText(viewer, format),
  planning,
  compare,
};

fitCanvas();
// A link's fragment (share.js) names the plan and the view; else the sample opens.
const fragment = readFragment();
let linked = null;
try {
  linked = await fragmentPlan(fragment);
} catch (e) {
  showError(`link: ${e.message ?? e}`);
}
if (linked) {
  const [id] = await openFiles([new File([linked[1]], linked[0])]);
  if (fragment.src && id != null) viewer.set_link(id, fragment.src);
  if (fragment.names != null) setNames(fragment.names);
  if (fragment.hex) setHex(true);
  if (fragment.view) viewer.set_view(...fragment.view);
  if (fragment.sel != null) {
    showPinned(viewer.plane_info(fragment.sel));
    viewer.select_plane(fragment.sel);
    if (fragment.view) viewer.set_view(...fragment.view);
  }
  redraw();
} else {
  await openSample();
}
window.__memplan.ready = true;
