"""Writes tests/data/onnx/contrib: small transformer models whose graph holds
onnxruntime's contrib operators (domain com.microsoft: Attention, SkipLayerNormalization,
EmbedLayerNormalization, BiasGelu, FastGelu, FusedMatMul, ...), as onnxruntime's
transformer optimizer writes them, with the real output shape of every node.

Each transformers model (random weights, tiny configs built here, no hub download) is
exported by `torch.onnx.export` (TorchScript exporter, opset 17, batch and sequence dims
symbolic), then fused by `onnxruntime.transformers.optimizer.optimize_model` (the command users
run to speed a BERT up), then run in onnxruntime (no further graph optimization) with
every node output added as a graph output: the shape and element type onnxruntime
gives each one, on inputs of batch BATCH and sequence SEQ, are the ground truth
tests/onnx.rs compares memplan's sizes with. The model is then made weight-free as the
corpus is (onnx_corpus.weight_free) and gzipped. `single_ops` is one graph of side-by-side
contrib nodes written with onnx.helper (the operators and optional outputs the optimizer's
models lack), its shapes onnxruntime's run of it likewise.

Run outside CI, in a venv of its own (pinned versions of this run):
    python3 -m venv /tmp/hcontrib-venv && /tmp/hcontrib-venv/bin/pip install \
        torch==2.15.0 transformers==5.25.0 onnx==1.23.2 onnxruntime==1.32.0
    nice /tmp/hcontrib-venv/bin/python tests/parity/onnx_contrib.py [NAME ...]
Writes tests/data/onnx/contrib/NAME.onnx.gz and NAME.shapes.json; what each is:
tests/data/onnx/contrib/README.md.
"""

import collections
import gzip
import io
import json
import pathlib
import sys
import tempfile
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnxruntime.transformers.optimizer import optimize_model

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from onnx_corpus import weight_free  # noqa: E402

warnings.filterwarnings("ignore")
OUT = pathlib.Path(__file__).resolve().parents[1] / "data" / "onnx" / "contrib"
BATCH, SEQ, HIDDEN, HEADS = 2, 16, 64, 4


class Bert(torch.nn.Module):
    """transformers BertModel's last hidden state on ids, mask and token types."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.m(input_ids=input_ids, attention_mask=attention_mask,
                      token_type_ids=token_type_ids).last_hidden_state


class Embeds(torch.nn.Module):
    """A transformers model's last hidden state on inputs_embeds."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(inputs_embeds=x).last_hidden_state


def tokens():
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 100, (BATCH, SEQ), generator=g)
    mask = torch.ones(BATCH, SEQ, dtype=torch.long)
    mask[1, SEQ // 2:] = 0
    types = torch.zeros(BATCH, SEQ, dtype=torch.long)
    return ids, mask, types


def bert(kind):
    """(module, inputs, input names, dynamic axes, optimize_model arguments)."""
    import transformers as t
    small = dict(vocab_size=100, hidden_size=HIDDEN, num_hidden_layers=2,
                 num_attention_heads=HEADS, intermediate_size=128,
                 max_position_embeddings=64, attn_implementation="eager")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    if kind == "bert":
        cfg = t.BertConfig(**small, hidden_act="gelu")
        return Bert(t.BertModel(cfg, add_pooling_layer=False)), tokens(), names, axes, \
            dict(model_type="bert")
    if kind == "t5_encoder":
        cfg = t.T5Config(vocab_size=100, d_model=HIDDEN, d_kv=16, d_ff=128, num_layers=2,
                         num_heads=HEADS, feed_forward_proj="gated-gelu",
                         attn_implementation="eager")
        x = torch.randn(BATCH, SEQ, HIDDEN, generator=torch.Generator().manual_seed(0))
        return Embeds(t.T5EncoderModel(cfg)), (x,), ["input"], \
            {"input": {0: "batch", 1: "sequence"}}, dict(model_type="t5")
    if kind == "distilbert_embeds":
        cfg = t.DistilBertConfig(vocab_size=100, dim=HIDDEN, n_layers=2, n_heads=HEADS,
                                 hidden_dim=128, max_position_embeddings=64,
                                 attn_implementation="eager")
        x = torch.randn(BATCH, SEQ, HIDDEN, generator=torch.Generator().manual_seed(0))
        return Embeds(t.DistilBertModel(cfg)), (x,), ["input"], \
            {"input": {0: "batch", 1: "sequence"}}, dict(model_type="bert", opt_level=2, only_onnxruntime=True)
    raise ValueError(kind)


def single_ops():
    """One graph of side-by-side contrib nodes the optimizer's outputs above do not hold
    (or not with these attributes and optional outputs), each fed by graph inputs and
    initializers of their own: their outputs' shapes are onnxruntime's too."""
    from onnx import TensorProto as T, helper as h, numpy_helper
    b, s, d, n, past = BATCH, SEQ, HIDDEN, HEADS, 3
    rng = np.random.default_rng(0)
    inputs, inits, nodes, feeds = [], [], [], {}

    def x(name, dims, dtype=T.FLOAT):
        inputs.append(h.make_tensor_value_info(name, dtype, dims))
        np_type = onnx.helper.tensor_dtype_to_np_dtype(dtype)
        feeds[name] = (rng.standard_normal(dims) if dtype == T.FLOAT
                       else rng.integers(0, 8, dims)).astype(np_type)
        return name

    def w(name, dims, dtype=T.FLOAT):
        np_type = onnx.helper.tensor_dtype_to_np_dtype(dtype)
        v = (rng.standard_normal(dims) * 0.1 if dtype == T.FLOAT
             else rng.integers(0, 8, dims)).astype(np_type)
        inits.append(numpy_helper.from_array(v, name))
        return name

    def node(op, ins, outs, domain="com.microsoft", **attrs):
        nodes.append(h.make_node(op, ins, outs, name=f"{op}_{len(nodes)}", domain=domain,
                                 **attrs))

    node("Attention", [x("att/x", [b, s, d]), w("att/w", [d, 3 * d]), w("att/b", [3 * d]),
                       "", x("att/past", [2, b, n, past, d // n])],
         ["att/y", "att/present"], num_heads=n)
    node("Attention", [x("attqkv/x", [b, s, d]), w("attqkv/w", [d, 32 + 32 + 48]),
                       w("attqkv/b", [112])],
         ["attqkv/y"], num_heads=n, qkv_hidden_sizes=[32, 32, 48])
    node("MultiHeadAttention", [x("mha/q", [b, s, d]), x("mha/k", [b, 8, d]),
                                x("mha/v", [b, 8, d]), "", "", "",
                                x("mha/pk", [b, n, past, d // n]),
                                x("mha/pv", [b, n, past, d // n])],
         ["mha/y", "mha/present_k", "mha/present_v"], num_heads=n)
    node("SkipLayerNormalization", [x("sln/x", [b, s, d]), x("sln/skip", [b, s, d]),
                                    w("sln/g", [d]), w("sln/beta", [d]), w("sln/bias", [d])],
         ["sln/y", "sln/mean", "sln/inv_std", "sln/sum"])
    node("SimplifiedLayerNormalization", [x("rms/x", [b, s, d]), w("rms/g", [d])],
         ["rms/y", "rms/inv_std"], domain="", axis=-1)
    node("EmbedLayerNormalization", [x("emb/ids", [b, s], T.INT32),
                                     x("emb/seg", [b, s], T.INT32),
                                     w("emb/word", [100, d]), w("emb/pos", [64, d]),
                                     w("emb/segw", [2, d]), w("emb/g", [d]), w("emb/beta", [d])],
         ["emb/y", "emb/mask_index", "emb/sum"])
    node("FusedMatMul", [x("fmm/a", [b, n, d, s]), x("fmm/b", [b, n, 8, d])], ["fmm/y"],
         transA=1, transB=1, alpha=0.5)
    node("Gelu", [x("gelu/x", [b, s, d])], ["gelu/y"])
    node("QuickGelu", [x("qgelu/x", [b, s, d])], ["qgelu/y"], alpha=1.702)
    node("FastGelu", [x("fgelu/x", [b, s, d]), w("fgelu/b", [d])], ["fgelu/y"])
    node("RotaryEmbedding", [x("rot/x", [b, s, d]), x("rot/pos", [b, s], T.INT64),
                             w("rot/cos", [64, 8]), w("rot/sin", [64, 8])],
         ["rot/y"], num_heads=n)
    node("MatMulNBits", [x("mnb/a", [b, s, d]), w("mnb/b", [48, d // 32, 16], T.UINT8),
                         w("mnb/scales", [48 * d // 32])],
         ["mnb/y"], K=d, N=48, bits=4, block_size=32)
    outputs = [onnx.ValueInfoProto(name=o) for nd in nodes for o in nd.output]
    graph = h.make_graph(nodes, "contrib_ops", inputs, outputs, inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17),
                                               h.make_opsetid("com.microsoft", 1)])
    # indices within their tables
    feeds["rot/pos"] = np.tile(np.arange(s, dtype=np.int64), (b, 1))
    feeds["emb/seg"] = feeds["emb/seg"] % 2
    return model, feeds


MODELS = ["bert", "t5_encoder", "distilbert_embeds", "single_ops"]


def shapes(model, feeds):
    """Every node output's shape and element type as onnxruntime computes them."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for node in m.graph.node:
        for o in node.output:
            if o and o not in have:
                m.graph.output.append(onnx.ValueInfoProto(name=o))
                have.add(o)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    got = dict(zip(names, sess.run(names, feeds)))
    nodes = []
    for node in model.graph.node:
        nodes.append({
            "name": node.name,
            "op_type": node.op_type,
            "domain": node.domain,
            "outputs": [
                {"name": o, "dims": list(got[o].shape), "element_bytes": got[o].itemsize}
                if o else None
                for o in node.output
            ],
        })
    return nodes


def export(name):
    if name == "single_ops":
        model, feeds = single_ops()
        return write(name, model, feeds)
    torch.manual_seed(0)
    model, args, names, axes, opt = bert(name)
    model.eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
    buf = io.BytesIO()
    torch.onnx.export(model, args, buf, opset_version=17, do_constant_folding=True,
                      input_names=names, output_names=["last_hidden_state"],
                      dynamic_axes={**axes, "last_hidden_state": {0: "batch", 1: "sequence"}},
                      dynamo=False)
    with tempfile.TemporaryDirectory() as d:
        raw = pathlib.Path(d) / "raw.onnx"
        raw.write_bytes(buf.getvalue())
        fused = optimize_model(str(raw), num_heads=HEADS, hidden_size=HIDDEN, **opt)
        model = fused.model
    # (no onnx.checker: SimplifiedLayerNormalization is onnxruntime's, in the ONNX domain)
    return write(name, model, {n: a.numpy() for n, a in zip(names, args)})


def write(name, model, feeds):
    """Writes the model weight-free with the shapes onnxruntime gives its nodes."""
    nodes = shapes(model, feeds)
    m = weight_free(model)
    data = m.SerializeToString()
    with gzip.GzipFile(OUT / f"{name}.onnx.gz", "wb", mtime=0) as f:
        f.write(data)
    head = {
        "generator": "tests/parity/onnx_contrib.py",
        "versions": {"torch": torch.__version__.split("+")[0], "onnx": onnx.__version__,
                     "onnxruntime": ort.__version__},
        "dims": {"batch": BATCH, "sequence": SEQ},
    }
    # one node a line: small, and a diff says which node changed
    text = json.dumps(head)[:-1] + ', "nodes": [\n' + \
        ",\n".join(json.dumps(n, separators=(",", ":")) for n in nodes) + "\n]}\n"
    json.loads(text)
    (OUT / f"{name}.shapes.json").write_text(text)
    ops = collections.Counter(f"{n['domain'] or 'ai.onnx'}:{n['op_type']}" for n in nodes
                              if n["domain"] not in ("", "ai.onnx"))
    return len(data), dict(ops)


def main(argv):
    OUT.mkdir(parents=True, exist_ok=True)
    for name in argv[1:] or MODELS:
        size, ops = export(name)
        print(f"{name}: {size} bytes; {ops}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
