// The demo docs page's own script: shows the `select` event, and links the two
// compared charts' clock ranges through `viewchange` (what a docs author can do with
// the element's events).
const $ = (id) => document.getElementById(id);
$('aidge').addEventListener('select', (e) => {
  $('aidge-event').textContent = e.detail ? `selected: ${e.detail.name} (${e.detail.size})` : 'selection cleared';
});
const [before, after] = [$('before'), $('after')];
let syncing = false;
function follow(from, to) {
  from.addEventListener('viewchange', (e) => {
    if (syncing || !to.view) return;
    syncing = true;
    const [t0, t1] = e.detail.view;
    const [, , a0, a1] = to.view;
    to.view = [t0, t1, a0, a1];
    requestAnimationFrame(() => { syncing = false; });
  });
}
follow(before, after);
follow(after, before);
