// The page's thin JS layer: files (picker, drag-and-drop), keyboard, pointer events,
// the names toggle and the DOM panels. Parsing, layout, drawing and hit-testing are
// the Rust Viewer's (pkg-lite/memplan.js: the page's first wasm module; the whole
// crate's, pkg/, loads when a file, a strategy or a text export needs it), and so is
// the list of opened files: menus carry the Viewer's file ids. Text from dumps reaches
// the DOM only through textContent, never innerHTML.
import init, { Viewer, companion_of, not_a_plan as notAPlan, is_tflm_allocations as isTflmAllocations,
  is_onnx as isOnnx, onnx_head as onnxHead } from './pkg-lite/memplan.js';
import { setupPlanning } from './strategy.js';
import { setupCompare } from './compare.js';
import { exportText } from './memplan-view.js';
import { bindGestures, chartKey, el, frameLoop } from './memplan-ui.js';
import { installExport } from './export.js';
import { installA11y } from './a11y.js';
import { setupTable } from './table.js';
import { fragmentPlan, fragmentSync, readFragment } from './share.js';
import { queryAddress } from './address.js';
import { installEmbedApi } from './embed-api.js';
import { prepare as prepareOnnx } from './onnx.js';
import { setupDeploy } from './deploy.js';

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
// A link carries the theme the user chose (not `auto`, which follows the receiver's system).
const share = fragmentSync(viewer, () => ({ theme: a11y.chosen() === 'auto' ? null : a11y.chosen() }));
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

/**
 * A line under the bar that is neither an error nor permanent (cleared by the next open);
 * `details`, lines shown folded under it (a <details> the user opens).
 */
function notify(message, details = []) {
  const box = $('notice');
  box.replaceChildren(message ?? '');
  if (message && details.length) {
    const more = el('details');
    more.append(el('summary', `Details (${details.length})`), ...details.map((d) => el('div', d)));
    box.append(more);
  }
  box.hidden = !message;
}

/** A word of the file's format as a label: `buffers` → `Buffers`. */
const cap = (w) => w[0].toUpperCase() + w.slice(1);

/** A plane's details, as Rust lists them in the words of the file's format (`info.rows`). */
function fillDetails(dl, info) {
  dl.replaceChildren();
  for (const { label, value } of info.rows) dl.append(el('dt', label), el('dd', value));
  if (planning.sizedByModel(viewer.current(), info.node)) {
    dl.append(el('dt', 'sizes'), el('dd', 'from the model, not from Aidge\'s kernels (Aidge 0.10.1 cannot size this node)'));
  }
}

function showPinned(info) {
  a11y.selected(info);
  const dl = $('pinned');
  $('pinned-actions').hidden = !info;
  if (!info) {
    dl.replaceChildren(el('dd', `Click a ${shown?.words.plane ?? 'plane'} to pin its details.`, 'muted'));
    return;
  }
  fillDetails(dl, info);
  dl.prepend(el('dt', shown.words.plane), el('dd', info.name));
  // From a buffer to its writer: what is live when it is written.
  $('pinned-clock').textContent = `What is live when it is written (clock ${info.allocated})`;
  $('pinned-clock').onclick = () => inspect(info.allocated);
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

/** `13–22, 30 … (+12 more)`: the spans of clocks where the peak is held. */
function spanList(spans, more) {
  return spans.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(', ') + (more ? ` … (+${count(more)} more)` : '');
}

/**
 * The clock listed under "Live at", and how it was chosen: null for the peak's (the
 * summary's), else the clock the user asked for (the chart marks it).
 */
let inspected = null;

/** The shown file's summary (`viewer.summary()`, which costs a pass over a big plan). */
let shown = null;

/**
 * The live list: `live` is `{ clock, title, note, rows, more, by_kind }` (the peak's,
 * from the summary, or a clock's, `viewer.live_at`).
 */
function showLive(live, words) {
  $('live-title').textContent = live.title;
  $('live-note').textContent = live.note ?? '';
  $('live-note').hidden = !live.note;
  $('clock-bar').hidden = live.clock == null;
  $('clock').value = live.clock ?? '';
  $('clock-peak').disabled = inspected == null;
  const list = $('live');
  list.replaceChildren();
  for (const row of live.rows) {
    const text = `${row.name} — ${row.size}` + (row.sets_peak ? ' · sets the peak' : '');
    list.append(planeItem(text, row.plane, row.sets_peak ? 'top' : undefined));
  }
  if (live.more) list.append(el('li', `… and ${count(live.more)} more ${words.planes}`, 'muted'));
  // Bytes by operator type (the writers' steps' types), when the plan knows types.
  const kinds = $('kinds');
  kinds.replaceChildren(...live.by_kind.map((k) => {
    const li = el('li');
    const bar = el('span', undefined, 'kind-bar');
    bar.style.width = `${Math.max(1, k.percent)}%`;
    li.append(el('span', `${k.kind} — ${k.bytes} · ${k.share} (${count(k.count)})`), bar);
    return li;
  }));
  kinds.hidden = live.by_kind.length === 0;
  $('kinds-title').hidden = kinds.hidden;
  $('kinds-title').textContent = `Bytes by operator type at clock ${live.clock}`;
}

/** Lists what is live at clock `t` and marks it on the chart. */
function inspect(t) {
  const s = shown;
  if (!s || !Number.isFinite(t)) return;
  const live = viewer.live_at(Math.max(0, Math.trunc(t)));
  inspected = live.clock;
  const w = s.words;
  const peak = peakLive(s);
  const note = [live.step && `${w.node}: ${live.step}`, `${live.bytes} live`].filter(Boolean).join(' · ');
  showLive({
    ...live,
    title: `Live at clock ${live.clock}` + (peak?.clock === live.clock ? ' (the peak)' : ''),
    note,
  }, w);
  redraw();
}

/** What is live at the peak, from the summary: over all memories, or in the one. */
function peakLive(s) {
  const m = s.memories;
  if (m) {
    return { clock: m.live_peak_clock, rows: m.live_at_peak, more: 0, by_kind: m.by_kind,
      title: m.live_peak_clock == null ? 'Live at the peak' : `Live at clock ${m.live_peak_clock} (the peak, all memories)` };
  }
  const lane = s.lanes[0];
  const clock = lane?.live_clock ?? lane?.busiest_clock;
  return { clock, rows: lane?.live_at_peak ?? [], more: 0, by_kind: lane?.by_kind ?? [],
    title: clock == null ? 'Live at the peak' : `Live at clock ${clock} (the peak)` };
}

/** Back to what is live at the peak; the chart marks no clock. */
function showPeak() {
  inspected = null;
  viewer.clear_clock();
  if (shown) showLive(peakLive(shown), shown.words);
  redraw();
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
  // The menu is as wide as the bar allows and cuts a long name: its title is the whole.
  sel.title = cur == null ? 'Opened files' : viewer.file_name(cur);
  // With nothing open, nothing to rename, close, re-plan, compare or link to; the
  // empty chart says how to open a plan.
  for (const id of ['rename', 'close-file', 'replan', 'compare-open', 'copy-link']) $(id).disabled = cur == null;
  $('empty').hidden = cur != null;
  exporter.setEnabled(cur != null);
  const s = viewer.summary();
  shown = s;
  $('title').textContent = cur == null ? 'No plan' : viewer.file_name(cur);
  const stats = $('stats');
  stats.replaceChildren();
  const findings = $('findings');
  findings.replaceChildren();
  showPinned(null);
  table.refresh(s?.words);
  inspected = null;
  $('help').hidden = !s;
  if (!s) {
    // Nothing open (the last file was closed).
    showLive({ clock: null, title: 'Live at the peak', rows: [], more: 0, by_kind: [] }, {});
    a11y.describe();
    return;
  }
  const w = s.words;
  $('help-text').textContent = w.help;
  // Several memories (XLA, ExecuTorch, IREE): the headline is what they need together,
  // the sum of their peaks, named as the framework names it when it is its figure
  // (XLA's Total bytes); then the framework's own peak of live bytes, and memplan's
  // count of the same; each memory's figures follow. One memory: its peak.
  const m = s.memories;
  const own = viewer.report(cur)?.own;
  const rows = m ? [
    ['Total', `${m.total} in ${count(m.count)} memories (sum of their peaks${own?.total ? ` = ${own.total}` : ''})`, 'peak'],
    ...own?.live_peak ? [[`${own.framework}'s live peak`,
      `${own.live_peak} at clock ${own.live_peak_clock}, ${own.framework}'s own count (its live-range dump)`, 'own-peak']] : [],
    [own?.live_peak ? 'Most live at once (memplan)' : 'Most live at once', m.live_peak_clock == null ? m.live_peak
      : `${m.live_peak} at clock ${m.live_peak_clock}, all memories, each value live from its first to its last clock`, 'live-peak'],
    ['Lower bound', `${m.lower_bound} (sum of the memories')`],
    ['Efficiency', m.efficiency],
  ] : [
    [w.peak, s.peak, 'peak'],
    // A schedule's plan is one layout of it: its bound is that layout's (best can go under).
    [s.bound_name, s.lower_bound, 'bound'],
    ['Efficiency', s.efficiency],
  ];
  // Counted in the words of the file's format (formats::words): Aidge's planes, spaces
  // and steps; TFLM's buffers and operators; XLA's values and instructions.
  rows.push([cap(w.planes), count(s.planes)]);
  // Spaces say something where tensors share one (Aidge's in-place and wrap-around).
  if (w.spaces && (w.geometry || s.spaces !== s.planes)) rows.push([cap(w.spaces), count(s.spaces)]);
  // Producers (weights, inputs) are steps without a clock of their own: a JSON export
  // lists them, a log does not; the steps counted are the scheduled ones in both.
  if (w.steps) rows.push([cap(w.steps), count(s.steps - s.producers)]);
  if (w.producers && s.producers) rows.push(['Producers', `${count(s.producers)} (weights, inputs: no clock of their own)`]);
  for (const lane of s.lanes) {
    if (s.lanes.length > 1) rows.push([`Peak of ${lane.name}`, lane.peak]);
    if (lane.capacity != null) {
      const verdict = lane.fits ? `fits, ${lane.margin} to spare` : `over by ${lane.margin}`;
      rows.push([s.lanes.length > 1 ? `Capacity of ${lane.name}` : 'Capacity', `${lane.capacity}: ${verdict}`, lane.fits ? 'good' : 'bad']);
    }
  }
  // A .tflite with TFLM's print_allocations() output opened beside it: the arena size
  // to set, its head (this plan's) plus the output's tail (formats::tflm::arena_size).
  const arena = arenaSize();
  if (arena) rows.push(['kTensorArenaSize', arena.text, arena.error ? 'arena-size-error' : 'arena-size']);
  // Two different clocks: where the arena's top is reached (what it must hold), and
  // where the most bytes are live (the lower bound); a hole can put the first later.
  const peakLane = m ? null : s.lanes[0];
  if (peakLane && peakLane.peak_spans.length) {
    const one = peakLane.peak_spans.length === 1 && peakLane.peak_spans[0][0] === peakLane.peak_spans[0][1];
    rows.push([`${w.peak} reached at clock${one ? '' : 's'}`, spanList(peakLane.peak_spans, peakLane.peak_spans_more), 'peak-clock']);
  }
  if (peakLane && peakLane.busiest_clock != null) {
    rows.push(['Most live bytes', `${peakLane.most_live} at clock ${peakLane.busiest_clock}`, 'busiest-clock']);
  }
  for (const [k, v, tag] of rows) {
    const dd = el('dd', v);
    if (tag === 'good' || tag === 'bad') dd.className = tag;
    else if (tag) dd.id = tag;
    stats.append(el('dt', k), dd);
  }
  showLive(peakLive(s), w);
  if (s.findings.length === 0) {
    findings.append(el('li', 'No problem found: no live planes of different spaces overlap.'));
  }
  for (const f of s.findings) {
    findings.append(f.planes.length ? planeItem(f.text, f.planes[0], 'bad') : el('li', f.text, 'bad'));
  }
  if (s.findings_omitted) findings.append(el('li', `… and ${s.findings_omitted} more`, 'bad'));
  a11y.describe();
}

// The table of every buffer (table.js); a row pins its plane.
const table = setupTable(viewer, select);

// Any clock: typed, stepped, or back to the peak (clicks on the chart: bindGestures below).
$('clock').addEventListener('change', (e) => inspect(Number(e.target.value)));
$('clock-prev').addEventListener('click', () => inspect(Number($('clock').value) - 1));
$('clock-next').addEventListener('click', () => inspect(Number($('clock').value) + 1));
$('clock-peak').addEventListener('click', showPeak);

// Reading, parsing and planning run in a Web Worker (strategy.js, worker.js).
const planning = setupPlanning({
  viewer,
  refresh: () => {
    refreshPanel();
    compare.filesChanged();
    deployMenu.refresh();
  },
  redraw,
  showError,
  clearError,
  notify,
});
// "Deploy as" (deploy.js): an opened ONNX model planned as its deployment runs it.
const deployMenu = setupDeploy({ viewer, planning, notify, showError, clearError });

/**
 * Opens files (`File`s, or `{ name, source }`: a dropped folder's); a bad one shows its
 * error and leaves the shown plan in place. A file picked from a folder keeps the folder
 * in its name (`a/memory_info.txt`). Resolves to the ids of the files opened.
 */
async function openFiles(files) {
  // .onnx models become memplan JSON first, in the lazily loaded ONNX module (onnx.js).
  const errors = [];
  const items = await prepareOnnx(files.map((file) => (file instanceof Blob
    ? { name: file.webkitRelativePath || file.name, source: file } : file)), (m) => errors.push(m),
  { is: isOnnx, head: onnxHead() });
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
  // A dump folder brings files that hold no plan (XLA's memory-usage report, IREE's
  // transients, ExecuTorch's program summary; TFLM's print_allocations() output):
  // they are noted as what they are, not
  // read as plans (a .txt would fail in the words of Aidge's log reader).
  const skipped = [];
  const single = [];
  for (const item of items.filter((i) => !paired.has(i))) {
    const bytes = item.source.size <= SIBLING_MAX ? new Uint8Array(await item.source.arrayBuffer()) : null;
    const what = bytes && notAPlan(item.name, bytes);
    if (what && isTflmAllocations(bytes)) {
      // Kept: the panel says the kTensorArenaSize of the .tflite it belongs to.
      allocations.unshift({ name: item.name, text: new TextDecoder().decode(bytes) });
      skipped.push({ name: item.name, what: `${what}. Kept: its tail sizes the arena of its model's .tflite `
        + '(kTensorArenaSize, in the panel)' });
    } else if (what) skipped.push({ name: item.name, what }); else single.push(item);
  }
  // The notice of the plans opened names the others too (with the readers' warnings).
  const ids = single.length ? await planning.open(single, skipped) : [];
  if (skipped.length && !single.length) {
    // Files that are what they are (a report, TFLM's print_allocations() summary), not
    // failures: a notice, which says what the chart still shows.
    const cur = viewer.current();
    const still = cur == null ? ''
      : ` The chart still shows ${sampleIds.includes(cur) ? 'the sample' : 'the plan'} “${viewer.file_name(cur)}”.`;
    notify(skipped.map((s) => `${s.name}: ${s.what}: not a plan, so nothing to show.`).join('\n') + still);
    if (!errors.length) clearError();
    // A print_allocations() output kept: the panel says the arena size to set.
    refreshPanel();
  }
  if (errors.length) showError(errors.join('\n'));
  // Nothing of the drop opened: the plan still drawn under the error must not pass
  // for the file that failed; the error says which plan it is.
  const cur = viewer.current();
  if (!ids.length && cur != null && !$('error').hidden) {
    const what = sampleIds.includes(cur) ? 'the sample' : 'the plan';
    $('error').append(`\nThe chart still shows ${what} “${viewer.file_name(cur)}”, not this file.`);
  }
  if (ids.length && pendingLink) await applyLink(ids);
  return ids;
}

/**
 * TFLM's print_allocations() outputs opened (`{ name, text }`): their tail sizes the
 * arena of the .tflite models shown (`Viewer.tflm_arena`, which tells a model's own
 * output by its head).
 */
const allocations = [];

/** What the shown .tflite plan needs as kTensorArenaSize (`{ size, text, error }`), or null. */
function arenaSize() {
  let found = null;
  for (const a of allocations) {
    const r = viewer.tflm_arena(a.text);
    if (r && !r.error) return { ...r, text: `${r.text} (${a.name})` };
    found ??= r && { ...r, text: `${a.name}: ${r.text}` };
  }
  return found;
}

/** Files larger than this are not checked for being a dump's non-plan sibling. */
const SIBLING_MAX = 4 << 20;

/** The sample's name in the menus: it says it is a sample. */
const SAMPLE = 'sample: ';
let sampleIds = [];

async function openSample() {
  try {
    const names = await (await fetch('sample/manifest.json')).json();
    const items = [];
    for (const name of names) {
      items.push({ name: SAMPLE + name, source: await (await fetch('sample/' + encodeURIComponent(name))).blob() });
    }
    sampleIds = await planning.open(items);
    notify('This is a sample (ResNet-18 as Aidge 0.10.1 plans it): open or drop your own plan to see it instead.');
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
window.addEventListener('drop', async (e) => {
  e.preventDefault();
  dragDepth = 0;
  $('drop').hidden = true;
  if (!e.dataTransfer) return;
  // A dropped folder is one unreadable File in `files`: its files come through its
  // entry, which must be taken while the event lasts (the drop's data goes with it).
  const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  const files = [...e.dataTransfer.files];
  if (entries.some((entry) => entry.isDirectory)) {
    let walked;
    try {
      walked = await filesOf(entries);
    } catch (err) {
      showError(`The dropped folder could not be read (${err.message ?? err}): open its files with Open files… instead.`);
      return;
    }
    openFiles(walked);
  } else if (files.length) {
    openFiles(files);
  }
});

/**
 * The files under `entries` (a drop's FileSystemEntry objects), folders walked, as
 * `{ name, source }` named by their path in the drop (`xla/cnn…-buffer-assignment.txt`).
 */
async function filesOf(entries) {
  const out = [];
  for (const entry of entries) {
    if (entry.isFile) {
      const file = await new Promise((ok, no) => entry.file(ok, no));
      out.push({ name: entry.fullPath.replace(/^\//, ''), source: file });
    } else if (entry.isDirectory) {
      // readEntries hands a folder's entries in batches, then an empty one.
      const reader = entry.createReader();
      for (let batch; (batch = await new Promise((ok, no) => reader.readEntries(ok, no))).length;) {
        out.push(...await filesOf(batch));
      }
    }
  }
  return out;
}
/** The shown file changed, or the list did: the panel, the planning line and the compare menus follow. */
function filesChanged() {
  refreshPanel();
  planning.showReport(); // the planning line belongs to the file shown
  compare.filesChanged();
  deployMenu.refresh();
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

// More… (a narrow screen only, style.css): shows the controls it folds, under the others.
function showMore(on) {
  $('bar').classList.toggle('more-open', on);
  $('more').setAttribute('aria-expanded', String(on));
}
$('more').addEventListener('click', () => showMore(!$('bar').classList.contains('more-open')));

// Toggles.
function setNames(on) {
  viewer.set_names(on);
  $('names').setAttribute('aria-pressed', String(viewer.names()));
  redraw();
}
function setHex(on) {
  viewer.set_hex(on);
  $('hex').setAttribute('aria-pressed', String(viewer.hex()));
  redraw();
}
$('names').addEventListener('click', () => setNames(!viewer.names()));
$('hex').addEventListener('click', () => setHex(!viewer.hex()));
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
  const cur = viewer.current();
  const planned = viewer.planned_as(cur);
  const replanned = planned ? `, which their page re-plans with ${planned.strategy}` : '';
  // A file opened from an address (`src=`, or `url=`: the page's `?url=`) travels by it.
  const address = /[#&](src|url)=/.test(location.hash);
  notify(/[#&]data=/.test(location.hash) || (address && !planned)
    ? `Link copied (${kb} KB): it opens this plan at this view.`
    : address ? `Link copied (${kb} KB): it opens the file this plan was made from${replanned}, at this view.`
      : `Link copied (${kb} KB): this plan is too large to travel in a link, so it holds the view only; `
        + `whoever opens it is asked to open “${viewer.source_name(cur) ?? viewer.file_name(cur)}”${replanned}, and then sees this view.`);
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
  tooltip.replaceChildren(el('div', info.name, 'name'));
  const dl = el('dl');
  fillDetails(dl, info);
  tooltip.append(dl);
  tooltip.hidden = false;
  placeTooltip(x, y);
}

/** Puts the tooltip beside `(x, y)`, inside the stage. */
function placeTooltip(x, y) {
  const w = stage.clientWidth;
  const h = stage.clientHeight;
  const tw = tooltip.offsetWidth;
  const th = tooltip.offsetHeight;
  tooltip.style.left = `${Math.min(x + 14, Math.max(0, w - tw - 4))}px`;
  tooltip.style.top = `${y + 14 + th > h ? Math.max(0, y - th - 10) : y + 14}px`;
}

/** Over no plane: the clock under the pointer, what runs then and what is live. */
function showClockTip(c, x, y) {
  if (!c) {
    tooltip.hidden = true;
    return;
  }
  tooltip.replaceChildren(el('div', `clock ${c.clock}`, 'name'));
  const dl = el('dl');
  if (c.step) dl.append(el('dt', c.step_word), el('dd', c.step));
  dl.append(el('dt', 'live'), el('dd', c.live), el('dt', ''), el('dd', 'click: what is live then', 'muted'));
  tooltip.append(dl);
  tooltip.hidden = false;
  placeTooltip(x, y);
}
bindGestures(canvas, {
  down: () => stage.focus(),
  pan: (dx, dy) => {
    viewer.pan(dx, dy);
    tooltip.hidden = true;
    redraw();
  },
  hover: (x, y) => {
    const info = viewer.hover(x, y);
    if (info) showTooltip(info, x, y); else showClockTip(viewer.clock_under(x, y), x, y);
    redraw();
  },
  // A plane pins it; elsewhere over a lane, its live strip or the clock axis, the
  // clock there is listed (what is live then) and marked.
  click: (x, y) => {
    const info = viewer.click(x, y);
    showPinned(info);
    if (!info) {
      const c = viewer.clock_under(x, y);
      if (c) inspect(c.clock);
    }
  },
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
  // Escape folds More… back when it is open, from wherever the focus is.
  if (e.key === 'Escape' && $('bar').classList.contains('more-open') && $('more').checkVisibility()) {
    showMore(false);
    $('more').focus();
    e.preventDefault();
    return;
  }
  // Escape closes the compare view wherever the focus is in it.
  if (e.key === 'Escape' && compare.open) {
    compare.show(false);
    stage.focus();
    e.preventDefault();
    return;
  }
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // Enter and Space on a focused button, link or menu (Export…'s summary) press it.
  if ((e.key === 'Enter' || e.key === ' ') && e.target instanceof Element && e.target.closest('button, summary, a')) return;
  switch (e.key) {
    case 'n': case 'N': setNames(!viewer.names()); break;
    case 'h': case 'H': setHex(!viewer.hex()); break;
    case 't': case 'T': a11y.cycleTheme(); break;
    case '/':
      // On a phone the search box may be folded behind More….
      if (!$('search').checkVisibility()) showMore(true);
      $('search').focus();
      break;
    default: {
      const r = chartKey(viewer, e, stage.clientWidth);
      if (!r) return;
      if ('info' in r) showPinned(r.info);
    }
  }
  e.preventDefault();
  redraw();
});

/** A link's view, selection: applied to the file just opened. */
function applyView(f) {
  if (f.view) viewer.set_view(...f.view);
  if (f.sel != null) {
    showPinned(viewer.plane_info(f.sel));
    viewer.select_plane(f.sel);
    if (f.view) viewer.set_view(...f.view);
  }
}

/** A link without its plan (`plan=NAME`), waiting for the user to open NAME. */
let pendingLink = null;
async function applyLink(ids) {
  const f = pendingLink;
  const id = ids.find((i) => viewer.source_name(i) === f.plan || viewer.file_name(i) === f.plan);
  if (id == null) return;
  pendingLink = null;
  viewer.select_file(id);
  filesChanged();
  if (f.strategy) await replanAsLinked(id, f);
  applyView(f);
  redraw();
}

/** `1,234` from digits. */
const digitsOf = (s) => BigInt(s).toLocaleString('en-US');

/**
 * Re-plans file `id` as link `f` says its sender's plan was made (`strategy`, `budget`:
 * the plan did not travel, the file it was made from did), and says how the result
 * compares with the sender's peak (`peak`): a search that stops at its time budget can
 * end elsewhere on another machine.
 */
async function replanAsLinked(id, f) {
  const name = viewer.file_name(id);
  if (![...$('strategy').options].some((o) => o.value === f.strategy)) {
    showError(`link: “${f.strategy}” is no strategy of this page, so “${name}” is shown as loaded, not as the link's plan.`);
    return;
  }
  viewer.select_file(id);
  filesChanged();
  // The menus show what the plan was made with (a Re-plan makes it again).
  $('strategy').value = f.strategy;
  if (f.budget) $('budget').value = f.budget;
  await planning.replan();
  const shown = viewer.current();
  const peak = shown == null || shown === id ? null : viewer.report(shown)?.peak;
  if (peak == null) return; // the re-plan failed or was cancelled: its error says why
  const asked = `Re-planned “${name}” with ${f.strategy}${f.budget ? ` (${digitsOf(f.budget)} ms)` : ''}, as the link asks`;
  notify(f.peak == null ? `${asked}: peak ${digitsOf(peak)} B.`
    : peak === f.peak ? `${asked}: peak ${digitsOf(peak)} B, the same as the sender's.`
      : `${asked}: peak ${digitsOf(peak)} B, where the sender's was ${digitsOf(f.peak)} B. This is not the sender's `
        + 'plan: a strategy that searches stops when its time budget runs out, so on another machine it can end '
        + 'elsewhere (and another file of the same name plans differently); the view and the selection are the sender\'s.');
}

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
  inspect,
  renderNow: () => { viewer.render(); return viewer.frame(); },
  exportText: (format) => exportText(viewer, format),
  planning,
  compare,
};

// The postMessage API of an embedding page (embed-api.js): it opens plans, sets the
// toggles and reads the report of the plans it opened.
installEmbedApi({
  viewer,
  current: () => viewer.current(),
  async open(name, bytes) {
    const [id] = await openFiles([new File([bytes], name)]);
    if (id == null) throw new Error($('error').hidden ? `${name}: not opened` : $('error').textContent);
    return id;
  },
  set({ names, hex, theme }) {
    if (names != null) setNames(names);
    if (hex != null) setHex(hex);
    if (theme != null) a11y.useTheme(theme);
    return { names: viewer.names(), hex: viewer.hex(), theme: a11y.chosen() };
  },
});

fitCanvas();
// A link's fragment (share.js) names the plan and the view, or `?url=ADDRESS` the file
// (address.js); else the sample opens. A link whose file cannot be read shows why, and
// no plan in its place.
const fragment = readFragment();
if (!fragment.data && !fragment.src && !fragment.url && !fragment.plan) fragment.url = queryAddress();
let linked = null;
let broken = false;
try {
  linked = await fragmentPlan(fragment);
} catch (e) {
  broken = true;
  showError(`link: ${e.message ?? e}`);
}
if (fragment.theme) a11y.useTheme(fragment.theme);
if (fragment.names != null) setNames(fragment.names);
if (fragment.hex) setHex(true);
if (linked) {
  const [id] = await openFiles([new File([linked[1]], linked[0])]);
  // Its link names where it came from: `url=` (absolute) or `src=`, as it was given.
  if (id != null && (fragment.url || fragment.src)) viewer.set_link(id, fragment.url ? linked[2] : fragment.src);
  if (id != null && fragment.strategy) {
    // The plan in the link is the sender's planned copy; a file fetched from its address
    // is re-planned as the sender's was.
    if (fragment.data) viewer.set_planned(id, fragment.strategy);
    else await replanAsLinked(id, fragment);
    filesChanged();
  }
  if (id != null) applyView(fragment);
  redraw();
  // `?url=` now travels in the fragment, which the page keeps up to date.
  if (id != null && location.search) {
    await share.flush();
    history.replaceState(null, '', location.pathname + location.hash);
  }
} else if (broken) {
  filesChanged();
} else if (fragment.plan) {
  // A view of a plan too large to travel in a link: no plan is shown in its place (the
  // sample would pass for it); the view applies once the user opens the file, re-planned
  // first as the sender's plan was when it was a planned copy.
  pendingLink = fragment;
  filesChanged();
  const how = fragment.strategy
    ? ` re-planned with ${fragment.strategy}${fragment.budget ? ` (${digitsOf(fragment.budget)} ms)` : ''}` : '';
  showError(`This link is a view of “${fragment.plan}”${how}, a plan too large to travel inside a link, `
    + 'so it does not hold the plan: open that file (Open files… or drop it here)'
    + (fragment.strategy ? ` and the page re-plans it with ${fragment.strategy}` : '') + ', and the view applies to it.');
} else {
  await openSample();
}
window.__memplan.ready = true;
