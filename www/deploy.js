// "Deploy as": an opened ONNX model planned as its deployment runs it. The choices are
// the Rust table's (recipes::Recipe::ALL × Dtype::ALL, from the ONNX module, loaded
// with the model); choosing one rewrites the model's schedule in the ONNX worker
// (recipes::document: the export's fusions, NHWC and Transposes, its in-place rules)
// and opens the result as a file of its own, `model.onnx · export-cpp`, beside the
// graph as imported, so Compare shows both on one scale (a fused node keeps the name
// of the node it was made from, and pairs with it). What the recipes did and the
// figure's change in bytes are said in the notice; nothing leaves the page.
import { isOnnx, deployChoices, deploy } from './onnx.js';
import { as_loaded as asLoaded } from './pkg-lite/memplan.js';
import { el } from './memplan-ui.js';

const $ = (id) => document.getElementById(id);
const digits = (s) => BigInt(s).toLocaleString('en-US');

export function setupDeploy({ viewer, planning, notify, showError, clearError }) {
  const select = $('deploy');
  let choices = null;

  async function fill() {
    choices ??= await deployChoices();
    select.replaceChildren(el('option', 'Deploy as…'), ...choices.map((c, i) => {
      const o = el('option', c.label);
      o.value = String(i);
      o.title = c.help;
      return o;
    }));
    select.firstChild.value = '';
  }

  /** Shows the menu when the shown file is a model as imported. */
  async function refresh() {
    const cur = viewer.current();
    const model = cur != null && isOnnx(viewer.file_name(cur));
    select.hidden = !model;
    if (model && !choices) {
      try {
        await fill();
      } catch (e) {
        select.hidden = true;
        showError(String(e.message ?? e));
      }
    }
  }

  select.addEventListener('change', async () => {
    const c = choices?.[Number(select.value)];
    const cur = viewer.current();
    select.value = '';
    if (!c || cur == null) return;
    const name = viewer.file_name(cur);
    const job = viewer.replan_job(cur, asLoaded());
    const source = job.source;
    job.free();
    try {
      const r = await deploy(name, source, c.recipes, c.dtype);
      const before = viewer.report(cur)?.peak;
      const [id] = await planning.open([{ name: `${name} · ${c.label}`,
        source: new Blob([r.document], { type: 'application/json' }) }]);
      if (id == null) return;
      clearError();
      const after = viewer.report(id)?.peak;
      const change = before != null && after != null ? BigInt(after) - BigInt(before) : null;
      const head = change == null ? `Deployed as ${c.label}.`
        : `Deployed as ${c.label}: peak ${digits(after)} B, as imported ${digits(before)} B `
          + `(${change >= 0n ? '+' : '−'}${digits(String(change < 0n ? -change : change))} B). `
          + 'Compare shows both.';
      // That the figure is an estimate is said in the line itself; what each recipe did
      // is folded under it.
      const estimate = r.warnings.filter((w) => w.includes('an estimate'));
      const rest = r.warnings.filter((w) => !w.includes('an estimate'))
        .map((w) => w.replace(/^deployed as [^:]*: /, ''));
      notify([head, ...estimate].join('\n'), rest);
    } catch (e) {
      showError(String(e.message ?? e));
    }
  });

  return { refresh };
}
