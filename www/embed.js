// embed.html: one <memplan-view> filling the frame, configured by the URL fragment
// (share.js; `?url=ADDRESS` too) and writing its view and selection back into it, so
// the frame's own address always reopens what it shows; or showing what the embedding
// page sends through the postMessage API (embed-api.js).
import './memplan-view.js';
import { fragmentPlan, readFragment, writeFragment } from './share.js';
import { queryAddress } from './address.js';
import { describe, installEmbedApi } from './embed-api.js';

const view = document.getElementById('view');
const f = readFragment();
if (!f.data && !f.src && !f.url) f.url = queryAddress();
if (f.names != null) view.setAttribute('names', f.names ? 'on' : 'off');
if (f.theme) view.setAttribute('theme', f.theme);
await customElements.whenDefined('memplan-view');

function sync() {
  const hash = writeFragment({ ...f, view: view.view, sel: view.selected });
  if (hash !== location.hash) history.replaceState(null, '', hash);
  document.getElementById('open').href = 'index.html' + hash;
}

// The embedding page's plans: shown in place of the one before, as `src` would.
installEmbedApi({
  get viewer() { return view.viewer; },
  current: () => view.viewer?.current() ?? null,
  async open(name, bytes) {
    await view.viewerReady;
    view.open(name, bytes);
    if (!view.error.hidden) throw new Error(view.error.textContent.replace(/^memplan-view: /, ''));
    // The fragment no longer names the plan shown (it came as a message).
    Object.assign(f, { src: null, url: null, data: null, name: null, view: null, sel: null });
    return view.viewer.current();
  },
  set({ names, hex, theme }) {
    if (names != null) view.setAttribute('names', names ? 'on' : 'off');
    if (hex != null && view.viewer) {
      view.viewer.set_hex(hex);
      view.redraw();
    }
    if (theme != null) view.setAttribute('theme', theme);
    return { names: view.viewer?.names() ?? Boolean(names), hex: view.viewer?.hex() ?? Boolean(hex), theme: view.getAttribute('theme') ?? 'auto' };
  },
});

const framed = window.parent !== window || window.opener != null;
try {
  const plan = await fragmentPlan(f);
  if (plan) {
    await view.viewerReady;
    view.open(plan[0], plan[1]);
    // Selecting reveals the plane; the link's view wins over that.
    if (f.sel != null) view.select(f.sel);
    if (f.view) view.view = f.view;
  } else if (!framed) {
    // A frame waits for its embedder's plan; a page of its own has nothing to show.
    throw new Error('nothing to show: add #src=plan.json, #url=ADDRESS or #data=… to the address');
  }
} catch (e) {
  view.showError(String(e.message ?? e));
}
view.addEventListener('viewchange', sync);
view.addEventListener('select', sync);
sync();
window.__embed = { view, ready: true, describe: () => (view.viewer ? describe(view.viewer) : null) };
