"""Writes the fixtures of the seed-fusions check (tests/data/onnx/fusions): transformer
exports that real Aidge 0.10.1 can import, schedule and plan, plain and with the seed's
`aidge_core.fuse_to_metaops` patterns (tests/parity/fusions_diff.py, tests/recipes_fusions.rs).

aidge_onnx 0.10.1 cannot import a ViT or DINOv2 export as torch writes it: forward_dims
stops at the Expand of the class token ("Expand: shape input (#1) Data type must be
int64"), whose shape input is computed from Shape/Gather/Concat arithmetic that Aidge's
set_datatype(float32) turns into floats. The fixtures are therefore **folded** (`fold`
below): for the model's one static input size, every Shape of a statically shaped tensor
becomes its constant, then every node whose inputs are all constants is evaluated
(onnx.reference) and becomes an initializer, unless it reads a weight (an initializer of
more than 64 elements: weights and the nodes that read them stay), until nothing changes.
What is left is the graph a deployment of that size runs. (The flow that then works also
gives the non-float Producers their datatype back after set_datatype(float32):
fusions_diff.py does.)

The models, each folded, then made weight-free as tests/parity/onnx_corpus.py does (every
float initializer, and every other one over 64 elements, keeps its name, type and dims and
loses its data), gzipped with mtime 0:

- hf_vit, vit_b_16: tests/data/onnx/corpus's (zeros put into the weights before folding;
  no shape depends on them);
- dinov2_tiny, dinov2_s: transformers' Dinov2Model (hidden 384, 6 heads, FFN 1536,
  patch 14, 224x224), 2 and 12 layers, every parameter N(0, 0.02) (seed 0, no hub
  download), exported with the TorchScript exporter, opset 17, constant folding on;
- synth_block_op17, synth_block_op16: a transformer block of our own (d 64, 4 heads,
  FFN 256, sequence 16) where every seed pattern matches: LayerNorm (a LayerNormalization
  node at opset 17, decomposed into ReduceMean/Sub/Pow/Sqrt/Div/Mul/Add at opset 16),
  eager attention with an explicit Div by sqrt(d_head), nn.GELU (erf), nn.Linear, and
  hand-written projections x@W+b, b+x@W and x@W+r (an Add of two activations).

Run outside CI, in a venv with the exporter (torch is about 3 GB); the versions of the
committed files:
    python3 -m venv /tmp/tv
    /tmp/tv/bin/pip install torch==2.15.0 transformers==5.25.0 onnx==1.23.2 numpy
    nice /tmp/tv/bin/python tests/parity/fusion_models.py [NAME ...]
(Python 3.11, CPU.) Writes tests/data/onnx/fusions/NAME.onnx.gz; the provenance is
tests/data/onnx/fusions/README.md and this file.
"""

import collections
import gzip
import io
import math
import pathlib
import sys
import warnings

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference
from onnx.reference import ReferenceEvaluator

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parents[0] / "data" / "onnx" / "fusions"
CORPUS = HERE.parents[0] / "data" / "onnx" / "corpus"
FLOATS = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE,
          onnx.TensorProto.BFLOAT16}
# An initializer over this many elements is a weight: never folded into its readers.
WEIGHT = 64

warnings.filterwarnings("ignore")


def weight_free(model):
    """tests/parity/onnx_corpus.py's rule (not imported: that module needs torch)."""
    for t in model.graph.initializer:
        if t.data_type in FLOATS or math.prod(t.dims) > WEIGHT:
            t.ClearField("raw_data")
            for f in ("float_data", "double_data", "int32_data", "int64_data"):
                t.ClearField(f)
    return model


def with_zeros(model):
    """A weight-free model with zeros in its data-less initializers (folding reads the
    small ones; no shape depends on a weight)."""
    for i, t in enumerate(model.graph.initializer):
        if not (t.raw_data or t.float_data or t.int64_data or t.int32_data
                or t.double_data) and list(t.dims) != [0]:
            dtype = onnx.helper.tensor_dtype_to_np_dtype(t.data_type)
            model.graph.initializer[i].CopyFrom(
                numpy_helper.from_array(np.zeros(list(t.dims), dtype), t.name))
    return model


def _run(node, inputs, opsets):
    """Outputs of one node on constant inputs (onnx's reference evaluator)."""
    names = list(dict.fromkeys(i for i in node.input if i))
    graph = onnx.helper.make_graph(
        [node], "fold",
        [onnx.helper.make_tensor_value_info(
            i, onnx.helper.np_dtype_to_tensor_dtype(np.asarray(inputs[i]).dtype), None)
         for i in names],
        [onnx.helper.make_empty_tensor_value_info(o) for o in node.output])
    model = onnx.helper.make_model(graph, opset_imports=opsets)
    return ReferenceEvaluator(model).run(None, {i: np.asarray(inputs[i]) for i in names})


def fold_once(model):
    """One pass of the folding (see the module's docstring); returns (model, nodes folded).
    Constant nodes stay (dropped when nothing reads them any more)."""
    g = model.graph
    inferred = shape_inference.infer_shapes(model, data_prop=True)
    static = {}
    for v in list(inferred.graph.value_info) + list(inferred.graph.input) + \
            list(inferred.graph.output):
        t = v.type.tensor_type
        if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
            static[v.name] = [d.dim_value for d in t.shape.dim]
    weights = {t.name for t in g.initializer if math.prod(t.dims) > WEIGHT}
    const = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    keep, folded = [], 0
    for n in g.node:
        if n.op_type == "Constant":
            const[n.output[0]] = _run(n, {}, model.opset_import)[0]
            keep.append(n)
            continue
        ins = [i for i in n.input if i]
        if n.op_type == "Shape" and n.input[0] in static:
            attrs = {a.name: a.i for a in n.attribute}
            shape = np.array(static[n.input[0]], dtype=np.int64)
            const[n.output[0]] = shape[attrs.get("start"):attrs.get("end")]
            folded += 1
            continue
        if ins and all(i in const for i in ins) and not any(i in weights for i in ins):
            for o, v in zip(n.output, _run(n, const, model.opset_import)):
                const[o] = np.asarray(v)
            folded += 1
            continue
        keep.append(n)
    used = {i for n in keep for i in n.input} | {o.name for o in g.output}
    keep = [n for n in keep if not (n.op_type == "Constant" and n.output[0] not in used)]
    produced = {o for n in keep for o in n.output}
    have = {t.name for t in g.initializer}
    for name in sorted(used):
        if name in const and name not in produced and name not in have:
            g.initializer.append(numpy_helper.from_array(np.asarray(const[name]), name))
    del g.node[:]
    g.node.extend(keep)
    kept = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept)
    return model, folded


def fold(model):
    """fold_once until nothing folds (shape inference sees further once constants are
    initializers); returns (model, nodes folded)."""
    total = 0
    while True:
        model, k = fold_once(model)
        total += k
        if k == 0:
            return model, total


def corpus(name):
    def make():
        return with_zeros(onnx.load_from_string(gzip.open(CORPUS / f"{name}.onnx.gz").read()))
    return make


def exported(module, args, opset, input_name):
    import torch
    buf = io.BytesIO()
    torch.onnx.export(module, args, buf, opset_version=opset, do_constant_folding=True,
                      input_names=[input_name], dynamo=False)
    return onnx.load_from_string(buf.getvalue())


def dinov2(layers):
    def make():
        import torch
        import transformers
        torch.manual_seed(0)
        cfg = transformers.Dinov2Config(hidden_size=384, num_hidden_layers=layers,
                                        num_attention_heads=6, intermediate_size=1536,
                                        image_size=224, patch_size=14)
        model = transformers.Dinov2Model(cfg).eval()
        # As onnx_corpus.py: left at their initial values, LayerNorm's ones and zeros (and
        # the layer scales' ones) are identical tensors the exporter shares through
        # Identity nodes, and aidge_onnx then imports LayerNormalization as a
        # GenericOperator.
        with torch.no_grad():
            for p in model.parameters():
                p.normal_(0.0, 0.02)
        return exported(model, (torch.randn(1, 3, 224, 224),), 17, "pixel_values")
    return make


def synth(opset):
    def make():
        import torch
        from torch import nn

        class Block(nn.Module):
            def __init__(s, d=64, h=4, f=256):
                super().__init__()
                s.h, s.dh = h, d // h
                s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
                s.q, s.k, s.v, s.o = (nn.Linear(d, d) for _ in range(4))
                s.fc1, s.fc2, s.act = nn.Linear(d, f), nn.Linear(f, d), nn.GELU()
                s.W1, s.b1 = nn.Parameter(torch.randn(d, d)), nn.Parameter(torch.randn(d))
                s.W2, s.b2 = nn.Parameter(torch.randn(d, d)), nn.Parameter(torch.randn(d))
                s.W3 = nn.Parameter(torch.randn(d, d))

            def forward(s, x):
                B, T, D = x.shape
                y = s.ln1(x)

                def heads(t):
                    return t.reshape(B, T, s.h, s.dh).transpose(1, 2)
                q, k, v = heads(s.q(y)), heads(s.k(y)), heads(s.v(y))
                a = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(s.dh), -1)
                c = torch.matmul(a, v).transpose(1, 2).reshape(B, T, D)
                x = x + s.o(c)
                x = x + s.fc2(s.act(s.fc1(s.ln2(x))))
                z = torch.matmul(x, s.W1) + s.b1      # MatMul first, bias second
                z = s.b2 + torch.matmul(z, s.W2)      # bias first
                return torch.matmul(z, s.W3) + x      # residual: no Producer

        torch.manual_seed(0)
        m = Block().eval()
        with torch.no_grad():
            for p in m.parameters():
                p.normal_(0.0, 0.02)
        return exported(m, (torch.randn(1, 16, 64),), opset, "input")
    return make


MODELS = {
    "hf_vit": corpus("hf_vit"),
    "vit_b_16": corpus("vit_b_16"),
    "dinov2_tiny": dinov2(2),
    "dinov2_s": dinov2(12),
    "synth_block_op17": synth(17),
    "synth_block_op16": synth(16),
}


def write(name):
    model, folded = fold(MODELS[name]())
    onnx.checker.check_model(model)
    data = weight_free(model).SerializeToString()
    with gzip.GzipFile(OUT / f"{name}.onnx.gz", "wb", mtime=0) as f:
        f.write(data)
    kinds = collections.Counter(n.op_type for n in model.graph.node)
    size = (OUT / f"{name}.onnx.gz").stat().st_size
    return f"{len(data)} bytes ({size} gzipped), {folded} nodes folded, " \
           f"{len(model.graph.node)} left: {dict(sorted(kinds.items()))}"


def main(argv):
    OUT.mkdir(parents=True, exist_ok=True)
    for name in argv[1:] or list(MODELS):
        print(f"{name}: {write(name)}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
