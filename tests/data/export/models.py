"""Small ONNX CNNs in the structure of the torchvision blocks that show
aidge-export-cpp 0.10.1's memory defects (docs/export-check.md), built with the
`onnx` package (no torch): weights are seeded random values.

- clean:     Conv-Relu-Conv-Relu, a residual Add, Conv (no defect)
- reducemean: MnasNet-1.0's tail, Conv -> x.mean([2, 3]) (ReduceMean axes {2,3},
             keepdims 0) -> Linear (Gemm)
- se_hardswish: MobileNet-v3-Small's squeeze-excite block, x * hardsigmoid(fc2(relu(
             fc1(avgpool(x))))) followed by a Conv
- maxpool:   ResNet/GoogLeNet's stem, Conv -> Relu -> MaxPool 3x3/2 -> Conv
"""

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _w(rng, name, shape):
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
    a = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    return numpy_helper.from_array(a, name)


def _conv(rng, inits, nodes, x, y, cin, cout, k=3, stride=1, group=1):
    w, b = f"{y}_w", f"{y}_b"
    inits += [_w(rng, w, (cout, cin // group, k, k)),
              numpy_helper.from_array((rng.standard_normal(cout) * 0.1).astype(np.float32), b)]
    nodes.append(helper.make_node("Conv", [x, w, b], [y], kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[k // 2] * 4, group=group))


def _bn(rng, inits, nodes, x, y, c):
    names = [f"{y}_{k}" for k in ("scale", "bias", "mean", "var")]
    values = [rng.uniform(0.5, 1.5, c), rng.standard_normal(c) * 0.1,
              rng.standard_normal(c) * 0.1, rng.uniform(0.5, 1.5, c)]
    inits += [numpy_helper.from_array(v.astype(np.float32), n) for n, v in zip(names, values)]
    nodes.append(helper.make_node("BatchNormalization", [x] + names, [y]))


def _model(nodes, inits, shape, out, out_shape, name):
    g = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def clean(seed=0):
    rng, inits, nodes = np.random.default_rng(seed), [], []
    _conv(rng, inits, nodes, "input", "c1", 3, 8)
    nodes.append(helper.make_node("Relu", ["c1"], ["r1"]))
    _conv(rng, inits, nodes, "r1", "c2", 8, 8)
    nodes.append(helper.make_node("Relu", ["c2"], ["r2"]))
    nodes.append(helper.make_node("Add", ["r1", "r2"], ["a"]))
    _conv(rng, inits, nodes, "a", "out", 8, 4)
    return _model(nodes, inits, [1, 3, 8, 8], "out", [1, 4, 8, 8], "clean")


def reducemean(seed=0):
    rng, inits, nodes = np.random.default_rng(seed), [], []
    _conv(rng, inits, nodes, "input", "c1", 3, 16, k=1)
    _bn(rng, inits, nodes, "c1", "b1", 16)
    nodes.append(helper.make_node("Relu", ["b1"], ["r1"]))
    nodes.append(helper.make_node("ReduceMean", ["r1"], ["m"], axes=[2, 3], keepdims=0))
    inits += [_w(rng, "fc_w", (10, 16)),
              numpy_helper.from_array(np.zeros(10, np.float32), "fc_b")]
    nodes.append(helper.make_node("Gemm", ["m", "fc_w", "fc_b"], ["out"], transB=1))
    return _model(nodes, inits, [1, 3, 4, 4], "out", [1, 10], "reducemean")


def se_hardswish(seed=0):
    rng, inits, nodes = np.random.default_rng(seed), [], []
    _conv(rng, inits, nodes, "input", "x", 3, 16)
    nodes.append(helper.make_node("GlobalAveragePool", ["x"], ["p"]))
    _conv(rng, inits, nodes, "p", "f1", 16, 8, k=1)
    nodes.append(helper.make_node("Relu", ["f1"], ["r"]))
    _conv(rng, inits, nodes, "r", "f2", 8, 16, k=1)
    nodes.append(helper.make_node("HardSigmoid", ["f2"], ["s"], alpha=1.0 / 6, beta=0.5))
    nodes.append(helper.make_node("Mul", ["s", "x"], ["se"]))
    _conv(rng, inits, nodes, "se", "out", 16, 8, k=1)
    return _model(nodes, inits, [1, 3, 8, 8], "out", [1, 8, 8, 8], "se_hardswish")


def maxpool(seed=0):
    rng, inits, nodes = np.random.default_rng(seed), [], []
    _conv(rng, inits, nodes, "input", "c1", 3, 8)
    nodes.append(helper.make_node("Relu", ["c1"], ["r1"]))
    nodes.append(helper.make_node("MaxPool", ["r1"], ["mp"], kernel_shape=[3, 3],
                                  strides=[2, 2], pads=[1, 1, 1, 1]))
    _conv(rng, inits, nodes, "mp", "out", 8, 4)
    return _model(nodes, inits, [1, 3, 8, 8], "out", [1, 4, 4, 4], "maxpool")


MODELS = {"clean": clean, "reducemean": reducemean, "se_hardswish": se_hardswish,
          "maxpool": maxpool}
