// embed.html: one <memplan-view> filling the frame, configured by the URL fragment
// (share.js) and writing its view and selection back into it, so the frame's own
// address always reopens what it shows.
import './memplan-view.js';
import { fragmentPlan, readFragment, writeFragment } from './share.js';

const view = document.getElementById('view');
const f = readFragment();
if (f.names != null) view.setAttribute('names', f.names ? 'on' : 'off');
if (f.theme) view.setAttribute('theme', f.theme);
await customElements.whenDefined('memplan-view');

function sync() {
  const hash = writeFragment({ ...f, view: view.view, sel: view.selected });
  if (hash !== location.hash) history.replaceState(null, '', hash);
  document.getElementById('open').href = 'index.html' + hash;
}

try {
  const plan = await fragmentPlan(f);
  if (!plan) throw new Error('nothing to show: add #src=plan.json or #data=… to the address');
  await view.viewerReady;
  view.open(...plan);
  // Selecting reveals the plane; the link's view wins over that.
  if (f.sel != null) view.select(f.sel);
  if (f.view) view.view = f.view;
} catch (e) {
  view.showError(String(e.message ?? e));
}
view.addEventListener('viewchange', sync);
view.addEventListener('select', sync);
sync();
window.__embed = { view, ready: true };
