// ONNX models on the page: the reader is a second wasm module (pkg-onnx/, built with
// the crate's `onnx-module` feature) run in its own worker (onnx-worker.js), started
// only when an .onnx file is opened, so that the first frame of any other plan does
// not pay for it and the conversion does not hold the main thread. A model becomes memplan
// JSON (the schedule Aidge 0.10.1 gives it), which the page then opens like any
// dropped export. Symbolic input dims are asked for in a small form, the model's
// defaults filled in; names from the model reach the DOM only as text.

import { el } from './memplan-ui.js';

let worker = null;
let next = 0;
const pending = new Map();

/**
 * Runs `message` in the ONNX module's worker (onnx-worker.js, started once: nothing
 * is fetched before), off the page's main thread. Rejects with the reader's message.
 */
function call(message) {
  worker ??= (() => {
    const w = new Worker(new URL('./onnx-worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (e) => {
      const p = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (e.data.error != null) p?.reject(new Error(e.data.error)); else p?.resolve(e.data.result);
    };
    w.onerror = (e) => {
      for (const p of pending.values()) p.reject(new Error(`ONNX reader: ${e.message ?? 'worker failed'}`));
      pending.clear();
      worker = null;
    };
    return w;
  })();
  const id = next++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, ...message });
  });
}

/** The sources `prepare` converted from a model: what "Deploy as" offers to deploy. */
const models = new WeakSet();

/** Whether `source` (a file's Blob, `Viewer.file_source`) is a model `prepare` converted. */
export const isModel = (source) => source != null && models.has(source);

/**
 * The form asking for the symbolic dims: resolves to [names, values], or null when
 * the user cancels. One number field per dim, its label the dim's name and the inputs
 * that carry it; Enter submits, Escape cancels, focus starts on the first field.
 */
export function askDims(model, dims, host = document.body) {
  return new Promise((resolve) => {
    const dialog = el('dialog', null, 'onnx-dims');
    dialog.setAttribute('aria-labelledby', 'onnx-dims-title');
    const form = Object.assign(el('form'), { method: 'dialog' });
    const title = Object.assign(el('h2', `Input sizes of ${model}`), { id: 'onnx-dims-title' });
    form.append(title, el('p', 'The model leaves these dimensions open; the plan needs numbers.'));
    const fields = dims.map((d, i) => {
      const input = Object.assign(el('input'), {
        type: 'number', min: '1', step: '1', required: true, value: String(d.default), name: `dim${i}`,
      });
      input.dataset.dim = d.name;
      const label = el('label', `${d.name} (${d.used_by.join(', ')}) `);
      label.append(input);
      form.append(label);
      return input;
    });
    const ok = Object.assign(el('button', 'Plan'), { type: 'submit' });
    const cancel = Object.assign(el('button', 'Cancel'), { type: 'button' });
    const buttons = el('div');
    buttons.append(ok, cancel);
    form.append(buttons);
    dialog.append(form);
    host.append(dialog);
    const done = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      done([dims.map((d) => d.name), fields.map((f) => Math.max(1, Math.floor(Number(f.value) || 1)))]);
    });
    cancel.addEventListener('click', () => done(null));
    dialog.addEventListener('cancel', (e) => { e.preventDefault(); done(null); });
    dialog.showModal();
    fields[0]?.focus();
  });
}

/**
 * The memplan JSON of an ONNX model's bytes. `ask(model, dims)` fixes the symbolic
 * dims (resolves to [names, values], or null to cancel: then this resolves to null);
 * without it, they take their defaults. Throws the reader's message on a bad model.
 */
export async function convert(name, bytes, ask) {
  const dims = JSON.parse(await call({ op: 'dims', name, bytes }));
  let names = [];
  let values = [];
  if (dims.length && ask) {
    const answer = await ask(name, dims);
    if (!answer) return null;
    [names, values] = answer;
  }
  return call({ op: 'convert', name, bytes, names, values: Float64Array.from(values) });
}

/**
 * Opened items with every ONNX model converted (its source becomes the JSON, its name
 * stays). What is a model is the core's rule, `sniff.is(name, head)` on the file's
 * first `sniff.head` bytes (formats::is_onnx_model, the page's first module's
 * `is_onnx`): a model named `model.bin` is one, as in the CLI. Errors go to
 * `onError(message)` and drop the item; so does a cancelled form.
 */
export async function prepare(items, onError, sniff) {
  const out = [];
  for (const item of items) {
    const head = new Uint8Array(await item.source.slice(0, sniff.head).arrayBuffer());
    if (!sniff.is(item.name, head)) {
      out.push(item);
      continue;
    }
    try {
      const bytes = new Uint8Array(await item.source.arrayBuffer());
      const json = await convert(item.name, bytes, askDims);
      if (json == null) continue;
      const source = new Blob([json], { type: 'application/json' });
      models.add(source);
      out.push({ ...item, source });
    } catch (e) {
      onError(String(e.message ?? e));
    }
  }
  return out;
}

/**
 * The "Deploy as" choices, from the Rust tables (recipes::Recipe::ALL × Dtype::ALL), which
 * come with the ONNX module: [{ recipes, dtype, label, help }].
 */
export async function deployChoices() {
  return JSON.parse(await call({ op: 'choices' }));
}
