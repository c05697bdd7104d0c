// The page's thin JS layer: files (picker, drag-and-drop), keyboard, pointer events,
// the names toggle and the DOM panels. Parsing, layout, drawing and hit-testing are
// the Rust Viewer's (pkg/memplan.js). Text from dumps reaches the DOM only through
// textContent, never innerHTML.
import { Viewer } from './pkg/memplan.js';
import { setupPlanning } from './strategy.js';
import { setupCompare } from './compare.js';
import { bindGestures, loadWasm } from './memplan-view.js';
import { installExport } from './export.js';
import { installA11y } from './a11y.js';
import { fragmentPlan, fragmentSync, readFragment } from './share.js';

const $ = (id) => document.getElementById(id);
const canvas = $('chart');
const stage = $('stage');
const tooltip = $('tooltip');

await loadWasm();
const viewer = new Viewer(canvas);

// One animation frame in flight at most: every change asks, the frame draws once.
let pending = false;
const count = (n) => Number(n).toLocaleString('en');

function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    // True while coarser tiles stand in for finer ones on a big plan: refine.
    if (viewer.render()) redraw();
    share.update();
  });
}

// Link fragment, keyboard/screen-reader helpers, theme and the Export menu.
const share = fragmentSync(viewer);
const a11y = installA11y(viewer, stage, $('fit'), () => redraw());
installExport(viewer, $('theme'), stage, (m) => showError(m));

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

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
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

function refreshPanel() {
  const files = viewer.files();
  const sel = $('files');
  sel.replaceChildren(...files.map((name, i) => {
    const o = el('option', name);
    o.value = String(i);
    return o;
  }));
  const cur = viewer.current();
  if (cur !== undefined && cur !== null) sel.value = String(cur);
  const s = viewer.summary();
  $('title').textContent = cur == null ? 'No plan' : files[cur];
  const stats = $('stats');
  stats.replaceChildren();
  const live = $('live');
  live.replaceChildren();
  const findings = $('findings');
  findings.replaceChildren();
  showPinned(null);
  if (!s) return;
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
  }
  const peakLane = s.lanes.find((l) => l.peak_bytes === s.peak_bytes) ?? s.lanes[0];
  if (peakLane && peakLane.peak_clock != null) rows.push(['Peak clock', String(peakLane.peak_clock)]);
  for (const [k, v] of rows) {
    const dd = el('dd', v);
    if (k === 'Peak') dd.id = 'peak';
    stats.append(el('dt', k), dd);
  }
  for (const row of peakLane ? peakLane.live_at_peak : []) {
    const li = el('li', `${row.name} — ${row.size}`);
    li.addEventListener('click', () => select(row.plane));
    live.append(li);
  }
  if (s.findings.length === 0) {
    findings.append(el('li', 'No problem found: no live planes of different spaces overlap.'));
  }
  for (const f of s.findings) {
    const li = el('li', f.text, 'bad');
    if (f.planes.length) li.addEventListener('click', () => select(f.planes[0]));
    findings.append(li);
  }
  if (s.findings_omitted) findings.append(el('li', `… and ${s.findings_omitted} more`, 'bad'));
  a11y.describe();
}

// Reading, parsing and planning run in a Web Worker (strategy.js, worker.js).
const planning = setupPlanning({ viewer, refresh: refreshPanel, redraw, showError, clearError });
const compare = setupCompare({ viewer, onClose: fitCanvas });

/** Opens files; a bad one shows its error and leaves the shown plan in place. */
function openFiles(files) {
  return planning.open(files.map((file) => ({ name: file.name, source: file })));
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
$('files').addEventListener('change', (e) => {
  viewer.select_file(Number(e.target.value));
  refreshPanel();
  planning.showReport(); // the planning line belongs to the file shown
  redraw();
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

// Keyboard: N names, H hex, 0 fit, +/- zoom, arrows pan, / search, Escape unpin.
window.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const w = stage.clientWidth;
  const h = stage.clientHeight;
  const step = 60;
  switch (e.key) {
    case 'n': case 'N': setNames(!viewer.names()); break;
    case 'h': case 'H': setHex($('hex').getAttribute('aria-pressed') !== 'true'); break;
    case '0': viewer.fit(); break;
    case '+': case '=': viewer.zoom_time(w / 2, 1.5); break;
    case '-': case '_': viewer.zoom_time(w / 2, 1 / 1.5); break;
    // Arrows move the pinned plane in time / address (a11y.js); with Shift they pan.
    case 'ArrowLeft': if (e.shiftKey) viewer.pan(step, 0); else navigate(e.key); break;
    case 'ArrowRight': if (e.shiftKey) viewer.pan(-step, 0); else navigate(e.key); break;
    case 'ArrowUp': if (e.shiftKey) viewer.pan(0, step); else navigate(e.key); break;
    case 'ArrowDown': if (e.shiftKey) viewer.pan(0, -step); else navigate(e.key); break;
    case 'Enter': { const p = viewer.selected(); if (p != null) showPinned(viewer.plane_info(p)); break; }
    case 'p': case 'P': showPinned(viewer.select_peak()); break;
    case 't': case 'T': a11y.cycleTheme(); break;
    case '/': $('search').focus(); break;
    case 'Escape': viewer.unselect(); showPinned(null); break;
    default: return;
  }
  e.preventDefault();
  redraw();
});

function navigate(key) {
  const info = viewer.navigate(key);
  if (info) showPinned(info);
}

// Test hook: what the last frame drew and the stats, for the end-to-end tests.
window.__memplan = {
  viewer,
  frame: () => viewer.frame(),
  summary: () => viewer.summary(),
  files: () => viewer.files(),
  renderNow: () => { viewer.render(); return viewer.frame(); },
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
  if (fragment.src) share.setSource(linked[0], fragment.src);
  await openFiles([new File([linked[1]], linked[0])]);
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
