"""Writes the ONNX models of the ONNX parity check (tests/parity/onnx_diff.py) that the
bench lacks: ResNet-34, DenseNet-169 and MobileNet-v3-Large with torchvision's layer
structure, and a small BERT encoder of our own config, as torch.onnx.export names and
shapes them (opset 17, node names such as /layer1/layer1.0/conv1/Conv, BatchNorm folded
into the Conv before it, DenseNet's pre-activation BatchNorms kept), with every
weight zero (the memory plan depends on shapes only). Built with the onnx package
alone (no torch), so the models are small when gzipped and the script runs anywhere
aidge_onnx does.

Usage: .venv/bin/python tests/parity/onnx_models.py [OUT_DIR]   (default tests/data/onnx: writes
NAME.onnx.gz, and tiny_cnn.onnx with the bad models external_data.onnx and unknown_op.onnx, and
generic_op.onnx, param_readers.onnx and rms_normalization.onnx)
Pinned: onnx 1.23.2 (the version aidge_onnx 0.10.1 installs in .venv).
"""

import gzip
import pathlib
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


class Builder:
    """Nodes, zero initializers and value names of one graph."""

    def __init__(self):
        self.nodes, self.inits, self.count = [], [], {}

    def init(self, name, shape, dtype=np.float32, value=None):
        arr = np.zeros(shape, dtype=dtype) if value is None else np.asarray(value, dtype=dtype)
        self.inits.append(onnx.numpy_helper.from_array(arr, name))
        return name

    def anon(self, kind):
        """torch's name for a folded weight: onnx::Conv_N."""
        self.count["anon"] = self.count.get("anon", 0) + 1
        return f"onnx::{kind}_{1000 + self.count['anon']}"

    def op(self, op_type, scope, inputs, n_out=1, suffix="", **attrs):
        key = scope + "/" + op_type
        k = self.count.get(key, 0)
        self.count[key] = k + 1
        name = f"{scope}/{op_type}{suffix}" + (f"_{k}" if k else "")
        outs = [f"{name}_output_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=name, **attrs))
        return outs[0] if n_out == 1 else outs

    def conv(self, scope, x, cin, cout, k, stride=1, pad=0, group=1, bias=True):
        w = self.anon("Conv")
        self.init(w, [cout, cin // group, k, k])
        ins = [x, w]
        if bias:
            b = self.anon("Conv")
            self.init(b, [cout])
            ins.append(b)
        return self.op("Conv", scope, ins, kernel_shape=[k, k], strides=[stride, stride],
                       pads=[pad] * 4, group=group, dilations=[1, 1])

    def model(self, inputs, outputs, name):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="memplan tests/parity/onnx_models.py")
        onnx.checker.check_model(m)
        return m


def image_input():
    return [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])]


def classifier(b, x, cin, scope_fc="/fc", weight="fc", classes=1000):
    x = b.op("GlobalAveragePool", "", [x])
    x = b.op("Flatten", "", [x], axis=1)
    w = b.init(f"{weight}.weight", [classes, cin])
    bias = b.init(f"{weight}.bias", [classes])
    y = b.op("Gemm", scope_fc, [x, w, bias], alpha=1.0, beta=1.0, transB=1)
    return y


def resnet34():
    b = Builder()
    x = b.conv("/conv1", "input", 3, 64, 7, 2, 3)
    x = b.op("Relu", "/relu", [x])
    x = b.op("MaxPool", "/maxpool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4,
             ceil_mode=0, dilations=[1, 1])
    cin = 64
    for li, (cout, blocks) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)], 1):
        for bi in range(blocks):
            s = f"/layer{li}/layer{li}.{bi}"
            stride = 2 if bi == 0 and li > 1 else 1
            y = b.conv(s + "/conv1", x, cin, cout, 3, stride, 1)
            y = b.op("Relu", s + "/relu", [y])
            y = b.conv(s + "/conv2", y, cout, cout, 3, 1, 1)
            skip = x
            if stride != 1 or cin != cout:
                skip = b.conv(s + "/downsample/downsample.0", x, cin, cout, 1, stride, 0)
            x = b.op("Add", s, [y, skip])
            x = b.op("Relu", s + "/relu", [x], suffix="")
            cin = cout
    y = classifier(b, x, 512)
    out = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 1000])]
    return b.model(image_input(), out, "resnet34")


def batchnorm(b, scope, x, c):
    params = [b.init(f"{scope.strip('/').replace('/', '.')}.{p}", [c],
                     value=np.ones(c) if p == "running_var" else None)
              for p in ("weight", "bias", "running_mean", "running_var")]
    return b.op("BatchNormalization", scope, [x] + params, epsilon=1e-5, momentum=0.9)


def densenet169():
    b = Builder()
    growth, bn_size = 32, 4
    x = b.conv("/features/conv0", "input", 3, 64, 7, 2, 3)
    x = b.op("Relu", "/features/relu0", [x])
    x = b.op("MaxPool", "/features/pool0", [x], kernel_shape=[3, 3], strides=[2, 2],
             pads=[1] * 4, ceil_mode=0, dilations=[1, 1])
    c = 64
    for bi, layers in enumerate([6, 12, 32, 32], 1):
        feats = [x]
        for li in range(1, layers + 1):
            s = f"/features/denseblock{bi}/denselayer{li}"
            cat = feats[0] if len(feats) == 1 else b.op("Concat", s, feats, axis=1)
            y = batchnorm(b, s + "/norm1", cat, c + (li - 1) * growth)
            y = b.op("Relu", s + "/relu1", [y])
            y = b.conv(s + "/conv1", y, c + (li - 1) * growth, bn_size * growth, 1)
            y = b.op("Relu", s + "/relu2", [y])
            y = b.conv(s + "/conv2", y, bn_size * growth, growth, 3, 1, 1, bias=False)
            feats.append(y)
        c += layers * growth
        x = b.op("Concat", f"/features/denseblock{bi}", feats, axis=1)
        if bi < 4:
            s = f"/features/transition{bi}"
            x = batchnorm(b, s + "/norm", x, c)
            x = b.op("Relu", s + "/relu", [x])
            x = b.conv(s + "/conv", x, c, c // 2, 1, bias=False)
            c //= 2
            x = b.op("AveragePool", s + "/pool", [x], kernel_shape=[2, 2], strides=[2, 2],
                     pads=[0] * 4, ceil_mode=0)
    x = batchnorm(b, "/features/norm5", x, c)
    x = b.op("Relu", "", [x])
    y = classifier(b, x, c, "/classifier", "classifier")
    out = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 1000])]
    return b.model(image_input(), out, "densenet169")


def make_divisible(v, d=8):
    new = max(d, int(v + d / 2) // d * d)
    return new + d if new < 0.9 * v else new


def mobilenet_v3_large():
    b = Builder()
    # (kernel, expanded, out, squeeze-excite, activation, stride) of torchvision's config
    cfg = [(3, 16, 16, False, "RE", 1), (3, 64, 24, False, "RE", 2), (3, 72, 24, False, "RE", 1),
           (5, 72, 40, True, "RE", 2), (5, 120, 40, True, "RE", 1), (5, 120, 40, True, "RE", 1),
           (3, 240, 80, False, "HS", 2), (3, 200, 80, False, "HS", 1),
           (3, 184, 80, False, "HS", 1), (3, 184, 80, False, "HS", 1),
           (3, 480, 112, True, "HS", 1), (3, 672, 112, True, "HS", 1),
           (5, 672, 160, True, "HS", 2), (5, 960, 160, True, "HS", 1),
           (5, 960, 160, True, "HS", 1)]

    def act(kind, scope, x):
        return b.op("HardSwish" if kind == "HS" else "Relu", scope, [x])

    x = b.conv("/features/features.0/features.0.0", "input", 3, 16, 3, 2, 1)
    x = act("HS", "/features/features.0/features.0.2", x)
    cin = 16
    for i, (k, exp, cout, se, a, stride) in enumerate(cfg, 1):
        s = f"/features/features.{i}/block"
        y, j = x, 0
        if exp != cin:
            y = b.conv(f"{s}/block.0/block.0.0", y, cin, exp, 1)
            y = act(a, f"{s}/block.0/block.0.2", y)
            j = 1
        y = b.conv(f"{s}/block.{j}/block.{j}.0", y, exp, exp, k, stride, (k - 1) // 2, group=exp)
        y = act(a, f"{s}/block.{j}/block.{j}.2", y)
        j += 1
        if se:
            sq = make_divisible(exp // 4)
            t = f"{s}/block.{j}"
            z = b.op("GlobalAveragePool", t + "/avgpool", [y])
            z = b.conv(t + "/fc1", z, exp, sq, 1)
            z = b.op("Relu", t + "/activation", [z])
            z = b.conv(t + "/fc2", z, sq, exp, 1)
            z = b.op("HardSigmoid", t + "/scale_activation", [z], alpha=1.0 / 6, beta=0.5)
            y = b.op("Mul", t, [z, y])
            j += 1
        y = b.conv(f"{s}/block.{j}/block.{j}.0", y, exp, cout, 1)
        x = b.op("Add", f"/features/features.{i}", [y, x]) if stride == 1 and cin == cout else y
        cin = cout
    x = b.conv("/features/features.16/features.16.0", x, cin, 960, 1)
    x = act("HS", "/features/features.16/features.16.2", x)
    x = b.op("GlobalAveragePool", "/avgpool", [x])
    x = b.op("Flatten", "", [x], axis=1)
    w, bias = b.init("classifier.0.weight", [1280, 960]), b.init("classifier.0.bias", [1280])
    x = b.op("Gemm", "/classifier/classifier.0", [x, w, bias], alpha=1.0, beta=1.0, transB=1)
    x = b.op("HardSwish", "/classifier/classifier.1", [x])
    w, bias = b.init("classifier.3.weight", [1000, 1280]), b.init("classifier.3.bias", [1000])
    y = b.op("Gemm", "/classifier/classifier.3", [x, w, bias], alpha=1.0, beta=1.0, transB=1)
    out = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 1000])]
    return b.model(image_input(), out, "mobilenet_v3_large")


def bert_small(hidden=128, heads=4, layers=2, inter=512):
    """A BERT encoder on precomputed embeddings (input: [batch, sequence, hidden] with
    symbolic batch and sequence dims; the page asks for them, the parity runs 1 x seq)."""
    b = Builder()
    d = hidden // heads
    x = "embeddings"
    x = b.op("LayerNormalization", "/embeddings/LayerNorm",
             [x, b.init("embeddings.LayerNorm.weight", [hidden]),
              b.init("embeddings.LayerNorm.bias", [hidden])], axis=-1, epsilon=1e-12)
    split = b.init("onnx::Reshape_heads", [4], np.int64, [0, -1, heads, d])
    merge = b.init("onnx::Reshape_merge", [3], np.int64, [0, -1, hidden])
    scale = b.init("onnx::Div_scale", [], np.float32, np.sqrt(d))
    for li in range(layers):
        s = f"/encoder/layer.{li}"
        a = s + "/attention/self"

        def dense(scope, x, cin, cout, tag):
            w = b.init(f"encoder.layer.{li}.{tag}.weight_t", [cin, cout])
            y = b.op("MatMul", scope, [x, w])
            return b.op("Add", scope, [y, b.init(f"encoder.layer.{li}.{tag}.bias", [cout])])

        def heads_of(y, scope):
            y = b.op("Reshape", scope, [y, split])
            return b.op("Transpose", scope, [y], perm=[0, 2, 1, 3])

        q = heads_of(dense(a + "/query", x, hidden, hidden, "attention.self.query"), a)
        k = heads_of(dense(a + "/key", x, hidden, hidden, "attention.self.key"), a)
        v = heads_of(dense(a + "/value", x, hidden, hidden, "attention.self.value"), a)
        kt = b.op("Transpose", a, [k], perm=[0, 1, 3, 2])
        sc = b.op("MatMul", a, [q, kt])
        sc = b.op("Div", a, [sc, scale])
        p = b.op("Softmax", a, [sc], axis=-1)
        ctx = b.op("MatMul", a, [p, v])
        ctx = b.op("Transpose", a, [ctx], perm=[0, 2, 1, 3])
        ctx = b.op("Reshape", a, [ctx, merge])
        o = dense(s + "/attention/output/dense", ctx, hidden, hidden, "attention.output.dense")
        o = b.op("Add", s + "/attention/output", [o, x])
        x = b.op("LayerNormalization", s + "/attention/output/LayerNorm",
                 [o, b.init(f"encoder.layer.{li}.attention.output.LayerNorm.weight", [hidden]),
                  b.init(f"encoder.layer.{li}.attention.output.LayerNorm.bias", [hidden])],
                 axis=-1, epsilon=1e-12)
        h = dense(s + "/intermediate/dense", x, hidden, inter, "intermediate.dense")
        g = s + "/intermediate/intermediate_act_fn"
        e = b.op("Div", g, [h, b.init(f"onnx::Div_sqrt2_{li}", [], np.float32, np.sqrt(2.0))])
        e = b.op("Erf", g, [e])
        e = b.op("Add", g, [e, b.init(f"onnx::Add_one_{li}", [], np.float32, 1.0)])
        e = b.op("Mul", g, [h, e])
        h = b.op("Mul", g, [e, b.init(f"onnx::Mul_half_{li}", [], np.float32, 0.5)])
        o = dense(s + "/output/dense", h, inter, hidden, "output.dense")
        o = b.op("Add", s + "/output", [o, x])
        x = b.op("LayerNormalization", s + "/output/LayerNorm",
                 [o, b.init(f"encoder.layer.{li}.output.LayerNorm.weight", [hidden]),
                  b.init(f"encoder.layer.{li}.output.LayerNorm.bias", [hidden])],
                 axis=-1, epsilon=1e-12)
    inp = [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT,
                                         ["batch", "sequence", hidden])]
    out = [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", "sequence", hidden])]
    return b.model(inp, out, "bert_small")


def tiny_cnn():
    """A few-kilobyte CNN for the Rust tests and the page's tests: every CNN mapping
    (padded and plain Conv, depth-wise Conv, MaxPool with its indices, Clip with
    parameter bounds, Sigmoid, Mul, Concat, GlobalAveragePool, Flatten, Gemm as FC),
    a node without a name, and a symbolic batch dim."""
    b = Builder()
    x = b.conv("/stem", "input", 3, 8, 3, 1, 1)
    x = b.op("Relu", "/stem", [x])
    x = b.op("MaxPool", "/pool", [x], kernel_shape=[2, 2], strides=[2, 2])
    a = b.conv("/a", x, 8, 8, 1)
    lo, hi = b.init("clip.min", [], value=0.0), b.init("clip.max", [], value=6.0)
    a = b.op("Clip", "/a", [a, lo, hi])
    d = b.conv("/dw", x, 8, 8, 3, 1, 1, group=8)
    s = b.op("Sigmoid", "/dw", [d])
    m = b.op("Mul", "/gate", [s, d])
    b.nodes[-1].name = ""
    x = b.op("Concat", "/cat", [a, m], axis=1)
    y = classifier(b, x, 16, classes=10)
    inp = [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 16, 16])]
    out = [helper.make_tensor_value_info(y, TensorProto.FLOAT, ["N", 10])]
    return b.model(inp, out, "tiny_cnn")


def bad_models(out):
    """Models memplan must refuse with a clear message: weights in an external file,
    and an operator it does not know (Celu) whose output shape the file does not give."""
    m = tiny_cnn()
    t = m.graph.initializer[0]
    t.data_location = TensorProto.EXTERNAL
    t.ClearField("raw_data")
    for k, v in (("location", "tiny_cnn.weights"), ("offset", "0"), ("length", "4")):
        e = t.external_data.add()
        e.key, e.value = k, v
    (out / "external_data.onnx").write_bytes(m.SerializeToString())
    m = tiny_cnn()
    for n in m.graph.node:
        if n.op_type == "Sigmoid":
            n.op_type = "Celu"
    (out / "unknown_op.onnx").write_bytes(m.SerializeToString())
    # The same with the Celu's output shape in value_info (batch 2): opened as a node
    # sized from the model.
    celu = next(n for n in m.graph.node if n.op_type == "Celu")
    src = onnx.shape_inference.infer_shapes(tiny_cnn())
    vi = next(v for v in src.graph.value_info if v.name == celu.output[0])
    vi.type.tensor_type.shape.dim[0].Clear()
    vi.type.tensor_type.shape.dim[0].dim_value = 2
    m.graph.value_info.append(vi)
    (out / "generic_op.onnx").write_bytes(m.SerializeToString())


def param_readers():
    """Outputs read through parameter inputs after their last data reader: a ReduceMean
    read by a ReLU (data) and later as a Clip's bound, a Cast read by a ReLU (data) and
    later as a Gather's indices. Aidge's `generate_memory` releases such a space at
    its last data reader; multiple-mems and auto-concat wait for every reader."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["mean"], name="mean", keepdims=0),
        helper.make_node("Relu", ["mean"], ["mean_relu"], name="mean_relu"),
        helper.make_node("Relu", ["x"], ["a1"], name="a1"),
        helper.make_node("Relu", ["a1"], ["a2"], name="a2"),
        helper.make_node("Clip", ["a2", "mean"], ["clipped"], name="clip"),
        helper.make_node("Cast", ["x"], ["idx"], name="idx", to=TensorProto.INT64),
        helper.make_node("Cast", ["idx"], ["idx_f"], name="idx_f", to=TensorProto.FLOAT),
        helper.make_node("Relu", ["idx_f"], ["idx_r"], name="idx_r"),
        helper.make_node("Gather", ["table", "idx"], ["rows"], name="rows", axis=0),
    ]
    table = onnx.numpy_helper.from_array(np.zeros((5, 4), np.float32), "table")
    out = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
           for n in ("mean_relu", "clipped", "idx_r", "rows")]
    graph = helper.make_graph(nodes, "param_readers", [x], out, [table])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def rms_normalization():
    """ONNX 1.23.2's own node test `test_rms_normalization_4d_axis2_expanded`
    (RMSNormalization written out as ONNX's function body) made into what an exported
    model looks like, as tests/parity/onnx_nodes_diff.py does: X stays the graph input,
    the scale W becomes an initializer (zeros). Two Aidge 0.10.1 import rules show in
    it: Identity computes nothing in forward_dims, so Range reads its start as 0, and a
    ReduceMean whose axes are computed leaves ONNX's shape inference without a rank,
    so the nodes after it keep the `default` data format."""
    import warnings
    warnings.filterwarnings("ignore")
    from onnx.backend.test.case import node
    case = next(c for c in node.collect_testcases(None)
                if c.name == "test_rms_normalization_4d_axis2_expanded")
    m = onnx.ModelProto()
    m.CopyFrom(case.model)
    g = m.graph
    w = g.input[1]
    dims = [d.dim_value for d in w.type.tensor_type.shape.dim]
    g.initializer.append(onnx.numpy_helper.from_array(np.zeros(dims, np.float32), w.name))
    del g.input[1:]
    return m


MODELS = {"resnet34": resnet34, "densenet169": densenet169,
          "mobilenet_v3_large": mobilenet_v3_large, "bert_small": bert_small}


def main(out):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, make in MODELS.items():
        data = make().SerializeToString()
        with gzip.GzipFile(out / f"{name}.onnx.gz", "wb", mtime=0) as f:
            f.write(data)
        print(name, len(data), "bytes")
    (out / "tiny_cnn.onnx").write_bytes(tiny_cnn().SerializeToString())
    (out / "param_readers.onnx").write_bytes(param_readers().SerializeToString())
    (out / "rms_normalization.onnx").write_bytes(rms_normalization().SerializeToString())
    bad_models(out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/onnx")
