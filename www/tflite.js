// TensorFlow Lite models on the page: a .tflite opens as TFLM's own plan (the whole
// crate's module reads it in the worker, formats::tflite); once re-planned, the model
// is downloaded with the shown plan as its offline plan (OfflineMemoryAllocation),
// written by the same Rust function as `memplan plan model.tflite -o out.tflite`, so
// the bytes are the CLI's. Nothing leaves the browser.
import { loadWasm } from './memplan-view.js';

/** `{ name, source }` of the shown file when it was read from a .tflite, else null. */
export function shownModel(viewer) {
  const cur = viewer.current();
  const src = cur == null ? undefined : viewer.file_source(cur);
  return src && /\.tflite$/i.test(src.name) ? src : null;
}

/**
 * The shown model with the shown plan written in: `{ name, bytes, summary }` (the
 * file name to save, the model's bytes, what to set kTensorArenaSize to). Throws the
 * writer's message when the plan is not one TFLM can run (nothing is written).
 */
export async function withShownPlan(viewer) {
  const src = shownModel(viewer);
  if (!src) throw new Error('the shown plan is not of a .tflite model');
  const m = await loadWasm();
  const model = new Uint8Array(await src.source.arrayBuffer());
  const out = m.tflite_with_plan(src.name, model, viewer.wire());
  try {
    const stem = src.name.replace(/^.*\//, '').replace(/\.tflite$/i, '');
    return { name: `${stem}.planned.tflite`, bytes: out.bytes, summary: out.summary };
  } finally {
    out.free();
  }
}
