"""A small ViT-class model exported by the real aidge_core 0.10.1, plain and fused:
the page's test and screenshot fixture for the case Aidge users compare most (a
transformer before and after fusing its MatMul+Add into Linear meta-operators).

The model is written with the `onnx` package's helper functions (torch is not
installed): a 32×32 image cut into 8×8 patches by a strided Conv (16 tokens of
width 64), then BLOCKS pre-norm encoder blocks (LayerNormalization, Q/K/V
projections, two-head attention with Softmax, output projection, residual Add, an
MLP of width 256 with an Erf GELU, residual Add), a final LayerNormalization, a
mean over tokens and a 10-class head. Weights are seeded random values (memory
plans do not depend on them). aidge_onnx loads it; the fused variant runs
aidge_core.fuse_to_metaops(graph, "MatMul-*>Add", "Linear") first. Each variant is
scheduled on the cpu backend (float32) and planned by Aidge's default driver
(generate_memory_multiple_mems, one 1e9-byte component, via
python/memplan_aidge.aidge_plan); aidge_core.mem_info.log_meminfo_text writes the
plan as Aidge's own memory_info.txt.

Usage: .venv/bin/python tests/parity/vit_fixture.py [OUT_DIR]
(default tests/data/vit/: plain/memory_info.txt and fused/memory_info.txt).
"""

import pathlib
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import aidge_core  # noqa: E402
import aidge_backend_cpu  # noqa: E402,F401  (registers the cpu backend)
import aidge_onnx  # noqa: E402
from memplan.aidge import exporter as memplan_aidge  # noqa: E402

DIM, HEADS, MLP, TOKENS, BLOCKS, PATCH, IMAGE = 64, 2, 256, 16, 2, 8, 32


class Builder:
    """Collects ONNX nodes and initializers; every node gets a readable name."""

    def __init__(self):
        self.nodes, self.inits = [], []
        self.rng = np.random.default_rng(17)

    def weight(self, name, shape):
        arr = (self.rng.standard_normal(shape) * 0.02).astype(np.float32)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def const(self, name, values, dtype=np.int64):
        self.inits.append(numpy_helper.from_array(np.array(values, dtype=dtype), name))
        return name

    def op(self, kind, inputs, name, **attrs):
        self.nodes.append(helper.make_node(kind, inputs, [name], name=name, **attrs))
        return name

    def linear(self, x, fan_in, fan_out, name):
        w = self.weight(f"{name}.weight", [fan_in, fan_out])
        b = self.weight(f"{name}.bias", [fan_out])
        return self.op("Add", [self.op("MatMul", [x, w], f"{name}_matmul"), b], f"{name}_add")

    def layer_norm(self, x, name):
        scale = self.weight(f"{name}.scale", [DIM])
        bias = self.weight(f"{name}.bias", [DIM])
        return self.op("LayerNormalization", [x, scale, bias], name, axis=-1, epsilon=1e-6)

    def heads(self, x, name, perm):
        shape = self.const(f"{name}.shape", [1, TOKENS, HEADS, DIM // HEADS])
        return self.op("Transpose", [self.op("Reshape", [x, shape], f"{name}_reshape")],
                       f"{name}_transpose", perm=perm)

    def block(self, x, k):
        p = f"block{k}"
        n = self.layer_norm(x, f"{p}_norm1")
        q = self.heads(self.linear(n, DIM, DIM, f"{p}_q"), f"{p}_q", [0, 2, 1, 3])
        kt = self.heads(self.linear(n, DIM, DIM, f"{p}_k"), f"{p}_k", [0, 2, 3, 1])
        v = self.heads(self.linear(n, DIM, DIM, f"{p}_v"), f"{p}_v", [0, 2, 1, 3])
        scale = self.const(f"{p}.scale", [(DIM // HEADS) ** -0.5], np.float32)
        att = self.op("Mul", [self.op("MatMul", [q, kt], f"{p}_scores"), scale], f"{p}_scaled")
        att = self.op("Softmax", [att], f"{p}_softmax", axis=-1)
        ctx = self.op("Transpose", [self.op("MatMul", [att, v], f"{p}_context")],
                      f"{p}_merge", perm=[0, 2, 1, 3])
        shape = self.const(f"{p}.tokens", [1, TOKENS, DIM])
        ctx = self.op("Reshape", [ctx, shape], f"{p}_merge_reshape")
        x = self.op("Add", [x, self.linear(ctx, DIM, DIM, f"{p}_proj")], f"{p}_residual1")
        n = self.layer_norm(x, f"{p}_norm2")
        h = self.linear(n, DIM, MLP, f"{p}_fc1")
        # GELU as erf: h * 0.5 * (1 + erf(h / sqrt 2)).
        r2 = self.const(f"{p}.sqrt2", [2 ** 0.5], np.float32)
        one = self.const(f"{p}.one", [1.0], np.float32)
        half = self.const(f"{p}.half", [0.5], np.float32)
        e = self.op("Erf", [self.op("Div", [h, r2], f"{p}_gelu_div")], f"{p}_gelu_erf")
        g = self.op("Mul", [self.op("Mul", [h, self.op("Add", [e, one], f"{p}_gelu_add")],
                                    f"{p}_gelu_mul"), half], f"{p}_gelu")
        return self.op("Add", [x, self.linear(g, MLP, DIM, f"{p}_fc2")], f"{p}_residual2")


def vit_onnx(path):
    b = Builder()
    w = b.weight("patch.weight", [DIM, 3, PATCH, PATCH])
    x = b.op("Conv", ["image", w], "patch_embed", kernel_shape=[PATCH, PATCH],
             strides=[PATCH, PATCH])
    x = b.op("Reshape", [x, b.const("patch.shape", [1, DIM, TOKENS])], "patch_flatten")
    x = b.op("Transpose", [x], "patch_tokens", perm=[0, 2, 1])
    x = b.op("Add", [x, b.weight("pos_embed", [1, TOKENS, DIM])], "pos_add")
    for k in range(BLOCKS):
        x = b.block(x, k)
    x = b.layer_norm(x, "norm")
    x = b.op("ReduceMean", [x, b.const("pool.axes", [1])], "pool", keepdims=0)
    x = b.linear(x, DIM, 10, "head")
    graph = helper.make_graph(
        b.nodes, "vit_tiny",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, IMAGE, IMAGE])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 10])],
        b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(model)
    onnx.save(model, path)


def export(onnx_path, fused, out):
    graph = aidge_onnx.load_onnx(str(onnx_path))
    if fused:
        aidge_core.fuse_to_metaops(graph, "MatMul-*>Add", "Linear")
    graph.set_backend("cpu")
    graph.set_datatype(aidge_core.dtype.float32)
    graph.forward_dims([[1, 3, IMAGE, IMAGE]], True)
    scheduler = aidge_core.SequentialScheduler(graph)
    scheduler.generate_scheduling()
    mm = memplan_aidge.aidge_plan(scheduler, "multiple_mems", False, None, False, 1,
                                  (1000000000,), (0,))
    out.mkdir(parents=True, exist_ok=True)
    aidge_core.mem_info.log_meminfo_text(mm, out / "memory_info.txt", scheduler, True)
    # The same plan as memplan JSON (schedule with producers, Aidge's plan): the page
    # must label each plane alike in both files.
    memplan_aidge.export(scheduler, out / "memplan.json")


def main(argv):
    out = pathlib.Path(argv[1]) if len(argv) > 1 else ROOT / "tests/data/vit"
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "vit_tiny.onnx"
        vit_onnx(path)
        export(path, False, out / "plain")
        export(path, True, out / "fused")
    print(f"wrote memory_info.txt and memplan.json in {out}/plain and {out}/fused")


if __name__ == "__main__":
    main(sys.argv)
