// The ONNX module's own worker (onnx.js starts it when an .onnx is first opened):
// reading a model and making its memplan JSON takes up to a few hundred ms, which
// would freeze the page on its main thread. Protocol (main → worker):
//   { id, op: 'dims', name, bytes } → { id, result: JSON of the symbolic dims }
//   { id, op: 'convert', name, bytes, names, values } → { id, result: memplan JSON }
//   { id, op: 'choices' } → { id, result: JSON of the "Deploy as" choices }
// or { id, error: the reader's message }.
import init, { symbolicDims, convertOnnx, deployChoices } from './pkg-onnx/memplan.js';

const ready = init();

self.onmessage = async (e) => {
  const { id, op, name, bytes, names, values } = e.data;
  try {
    await ready;
    const result = op === 'dims' ? symbolicDims(name, bytes)
      : op === 'choices' ? deployChoices() : convertOnnx(name, bytes, names, values);
    self.postMessage({ id, result });
  } catch (err) {
    self.postMessage({ id, error: String(err?.message ?? err) });
  }
};
