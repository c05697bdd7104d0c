// "Deploy as": an opened ONNX model planned as its deployment runs it. The choices are
// the Rust table's (recipes::Recipe::ALL × Dtype::ALL, `deployChoices` of the ONNX module,
// which a model loads: the menu is filled when the first model is shown); choosing one
// has the planning worker read the model's memplan JSON again, deploy it
// (planning::Session::deploy: the export's fusions, NHWC and Transposes, its in-place
// rules; or Aidge's seed fusions) and plan it, as a file of its own, `model.onnx ·
// export-cpp`, beside the graph as imported, so Compare shows both on one scale (a fused
// node keeps the name of the node whose output it writes, and pairs with it). The change
// in bytes heads the notice; what each recipe did, and saved, is folded under it.
import { isModel, deployChoices } from './onnx.js';
import { Cancelled } from './planner.js';
import { el } from './memplan-ui.js';

const $ = (id) => document.getElementById(id);
const digits = (s) => BigInt(s).toLocaleString('en-US');

export function setupDeploy({ viewer, planning, notify, showError, clearError }) {
  const select = $('deploy');
  let choices = null;

  async function fill() {
    choices = await deployChoices();
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
    // A model as imported (onnx.js converted its source), not a planned or deployed copy.
    const model = cur != null && viewer.parent(cur) == null && viewer.origin(cur) == null
      && isModel(viewer.file_source(cur)?.source);
    select.hidden = !model || choices == null;
    if (model && choices == null) {
      try {
        await fill();
        refresh();
      } catch (e) {
        showError(String(e.message ?? e));
      }
    }
  }

  select.addEventListener('change', async () => {
    const c = choices?.[Number(select.value)];
    const cur = viewer.current();
    select.value = '';
    if (!c || cur == null) return;
    try {
      const before = viewer.report(cur)?.peak;
      const { id, warnings } = await planning.deploy(cur, c);
      clearError();
      const after = viewer.report(id)?.peak;
      const change = before != null && after != null ? BigInt(after) - BigInt(before) : null;
      const head = change == null ? `Deployed as ${c.label}.`
        : `Deployed as ${c.label}: peak ${digits(after)} B, as imported ${digits(before)} B `
          + `(${change >= 0n ? '+' : '−'}${digits(String(change < 0n ? -change : change))} B). `
          + 'Compare shows both.';
      // That the figure is an estimate is said in the line itself; what each recipe did
      // is folded under it.
      const estimate = warnings.filter((w) => w.includes('an estimate'));
      const rest = warnings.filter((w) => !w.includes('an estimate'))
        .map((w) => w.replace(/^deployed as [^:]*: /, ''));
      notify([head, ...estimate].join('\n'), rest);
    } catch (e) {
      if (!(e instanceof Cancelled)) showError(String(e.message ?? e));
    }
  });

  return { refresh };
}
