// Links that reproduce a view. The URL fragment (never sent to a server) holds:
//   src=URL        where the plan is (relative to the page), or
//   url=ADDRESS    where the plan is, absolute (the page's `?url=`, address.js), or
//   data=…&name=…  the plan itself: memplan JSON, deflate-raw compressed, base64url
//   view=t0,t1,a0,a1  visible clocks and addresses (fractions of the lane extent)
//   plan=NAME      instead of these, for a plan too large to travel: the file the view is of
//                  (the receiver is asked to open it; the view applies when they do)
//   strategy=S     the shown plan is a planned copy, made with S: with data, the plan is the
//                  sender's (the receiver's report says so); with src, url or plan, the receiver's
//                  page re-plans the file with S, budget=MS, and compares its peak with peak=B
//   sel=N          the pinned plane's index      names=1|0   hex=1|0   theme=light|dark
// The main page and embed.html both read it at start and rewrite it (replaceState,
// no history spam) as the view changes, so copying the address bar shares the view.
import { formatView, parseView } from './memplan-ui.js';
import { exportText } from './memplan-view.js';
import { fetchFile } from './address.js';

/** Plans whose compressed JSON is larger than this travel by `src` only. */
export const MAX_INLINE = 24 * 1024;
/** Plans with more planes + steps than this are not even exported for a link. */
const MAX_INLINE_RECORDS = 5000;

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** Text → deflate-raw → base64url. */
export async function pack(text) {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

/** base64url → inflate-raw → bytes. */
export async function unpack(data) {
  return pipe(fromBase64Url(data), new DecompressionStream('deflate-raw'));
}

/**
 * The fragment as an object: { src, url, data, name, plan, strategy, budget, peak,
 * view: [4] | null, sel, names, hex, theme }.
 */
export function readFragment(hash = location.hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const flag = (k) => (p.has(k) ? !['0', 'off', 'false'].includes(p.get(k)) : null);
  const sel = p.get('sel');
  const digits = (k) => (/^\d+$/.test(p.get(k) ?? '') ? p.get(k) : null);
  return {
    src: p.get('src'),
    url: p.get('url'),
    data: p.get('data'),
    name: p.get('name'),
    plan: p.get('plan'),
    strategy: p.get('strategy'),
    budget: digits('budget'),
    peak: digits('peak'),
    view: parseView(p.get('view')),
    sel: sel !== null && /^\d+$/.test(sel) ? Number(sel) : null,
    names: flag('names'),
    hex: flag('hex'),
    theme: p.get('theme'),
  };
}

/** Builds a fragment from the same fields (absent ones are left out). */
export function writeFragment(f) {
  const p = new URLSearchParams();
  if (f.src) p.set('src', f.src);
  if (f.url) p.set('url', f.url);
  if (f.data) {
    p.set('data', f.data);
    if (f.name) p.set('name', f.name);
  } else if (f.plan) {
    p.set('plan', f.plan);
  }
  for (const k of ['strategy', 'budget', 'peak']) if (f[k] != null) p.set(k, String(f[k]));
  if (f.view) p.set('view', formatView(f.view));
  if (f.sel != null) p.set('sel', String(f.sel));
  if (f.names != null) p.set('names', f.names ? '1' : '0');
  if (f.hex) p.set('hex', '1');
  if (f.theme) p.set('theme', f.theme);
  // URLSearchParams escapes commas; the fragment reads better with them.
  return '#' + p.toString().replace(/%2C/gi, ',');
}

/**
 * The plan a fragment names, as `[name, bytes, address]` (the address absolute, for
 * `url`/`src`), or null. Throws on a bad link, saying which address and what happened.
 */
export async function fragmentPlan(f, base = document.baseURI) {
  if (f.data) return [f.name || 'linked.memplan.json', await unpack(f.data)];
  if (f.url || f.src) return fetchFile(f.url || f.src, base);
  return null;
}

/** Where an address travels in a fragment: `url` if absolute (the page's `?url=`), else `src`. */
const addressKey = (address) => (/^[a-z][a-z\d+.-]*:/i.test(address) ? 'url' : 'src');

/**
 * Keeps the main page's fragment in step with its viewer: call `update()` after
 * every change (it coalesces), `flush()` before reading the address. A file opened
 * from a URL (the Viewer's `link`) travels as `src`, any other small plan inline; a
 * larger one by the name of the file it was read from. A planned copy says how it was
 * planned (the Viewer's `planned_as`): the receiver re-plans a file that did not travel.
 */
export function fragmentSync(viewer, extra = () => ({})) {
  /** The shown plan's packed JSON ('' when too large), made once per plan (the Viewer's revision). */
  let packed = { revision: null, data: '' };
  let timer = null;
  async function write() {
    timer = null;
    const cur = viewer.current();
    if (cur == null) return;
    const f = { view: Array.from(viewer.view()), sel: viewer.selected() ?? null, names: viewer.names(),
      hex: viewer.hex(), ...extra() };
    const planned = viewer.planned_as(cur);
    const src = viewer.link(cur);
    if (src) {
      f[addressKey(src)] = src;
    } else {
      const revision = viewer.revision();
      if (packed.revision !== revision) {
        // Large plans cannot fit a link; skip exporting them at all.
        const data = viewer.plane_count() + viewer.step_count() <= MAX_INLINE_RECORDS ? await pack(await exportText(viewer, 'memplan')) : '';
        packed = { revision, data: data.length <= MAX_INLINE * 4 / 3 ? data : '' };
      }
      if (packed.data) {
        f.data = packed.data;
        f.name = viewer.file_name(cur);
      } else {
        // A planned copy of a file opened from a URL: that URL, re-planned by the
        // receiver; else the file to open, as it is named on the sender's disk (not
        // `name · best`).
        const parent = viewer.parent(cur);
        const from = planned && parent != null ? viewer.link(parent) : null;
        if (from) f[addressKey(from)] = from;
        else f.plan = viewer.source_name(cur) ?? viewer.file_name(cur);
      }
    }
    if (planned) {
      f.strategy = planned.strategy;
      // A plan that does not travel is made again: with the sender's budget, and the
      // sender's peak to compare with.
      if (!f.data) Object.assign(f, { budget: planned.budget, peak: planned.peak });
    }
    const hash = writeFragment(f);
    if (hash !== location.hash) history.replaceState(null, '', hash);
  }
  return {
    update() {
      if (!timer) timer = setTimeout(write, 200);
    },
    /** Writes the fragment now (a pending update included): what Copy link copies. */
    async flush() {
      clearTimeout(timer);
      await write();
    },
  };
}
