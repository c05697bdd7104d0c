"""Writes the IREE fixtures of tests/data/iree/ with the real iree-base-compiler (see README.md).

Run with a venv holding the pinned versions:
    python3 -m venv /work/venvs/iree
    /work/venvs/iree/bin/pip install iree-base-compiler==3.13.0 onnx==1.23.2 numpy
    /work/venvs/iree/bin/python tests/data/iree/gen.py

Two small ONNX models are built here with random weights (no download): a CNN with a
residual block, and an MLP whose two branches meet again. Each is imported with
iree-import-onnx and compiled for the CPU with

    iree-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu \
        --compile-to=stream --mlir-print-ir-before=iree-stream-layout-slices \
        --mlir-elide-elementsattrs-if-larger=16 --mlir-elide-resource-strings-if-larger=16 \
        NAME.mlir -o NAME.stream.mlir 2> NAME.packs.mlir

NAME.packs.mlir (the stream IR just before IREE lays its packs out: the
`stream.resource.pack` slices memplan reads) is kept, and NAME.transients.txt, the
`stream.resource.alloca` lines of transients in the final stream IR: the sizes IREE
allocates, which the tests compare with memplan's reading. cnn.input.mlir is the
imported program IREE compiles (its weights externalized), which holds no plan.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)
PINNED = {"iree-base-compiler": "3.13.0", "onnx": "1.23.2"}


def check_versions():
    from importlib.metadata import version

    for name, want in PINNED.items():
        if version(name) != want:
            sys.exit(f"{name} {version(name)} installed, the fixtures are made with {want}")


class Graph:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []

    def weight(self, name, shape):
        data = self.rng.standard_normal(shape).astype(np.float32)
        self.inits.append(numpy_helper.from_array(data, name))
        return name

    def op(self, kind, inputs, name, **attrs):
        self.nodes.append(helper.make_node(kind, inputs, [name], name=name, **attrs))
        return name

    def conv(self, x, cin, cout, name):
        w, b = self.weight(f"{name}_w", (cout, cin, 3, 3)), self.weight(f"{name}_b", (cout,))
        return self.op("Conv", [x, w, b], name, pads=[1, 1, 1, 1])

    def dense(self, x, cin, cout, name):
        w, b = self.weight(f"{name}_w", (cout, cin)), self.weight(f"{name}_b", (cout,))
        return self.op("Gemm", [x, w, b], name, transB=1)

    def model(self, name, inp, out):
        g = helper.make_graph(self.nodes, name, [helper.make_tensor_value_info("input", TensorProto.FLOAT, inp)],
                              [helper.make_tensor_value_info(self.nodes[-1].output[0], TensorProto.FLOAT, out)],
                              self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        onnx.checker.check_model(m)
        return m


def cnn():
    g = Graph(0)
    x = g.op("Relu", [g.conv("input", 3, 16, "conv1")], "relu1")
    y = g.conv(g.op("Relu", [g.conv(x, 16, 16, "conv2")], "relu2"), 16, 16, "conv3")
    x = g.op("MaxPool", [g.op("Relu", [g.op("Add", [x, y], "add1")], "relu3")], "pool1",
             kernel_shape=[2, 2], strides=[2, 2])
    x = g.op("MaxPool", [g.op("Relu", [g.conv(x, 16, 32, "conv4")], "relu4")], "pool2",
             kernel_shape=[2, 2], strides=[2, 2])
    x = g.op("Flatten", [g.op("GlobalAveragePool", [x], "gap")], "flat")
    g.dense(x, 32, 10, "fc")
    return g.model("cnn", [1, 3, 32, 32], [1, 10])


def mlp():
    g = Graph(1)
    h = g.op("Relu", [g.dense("input", 64, 256, "fc1")], "relu1")
    a = g.op("Relu", [g.dense(h, 256, 512, "fc2a")], "relu2a")
    a = g.dense(a, 512, 256, "fc3a")
    b = g.op("Tanh", [g.dense(h, 256, 128, "fc2b")], "tanh2b")
    b = g.dense(b, 128, 256, "fc3b")
    s = g.op("Relu", [g.op("Add", [g.op("Add", [a, b], "add1"), h], "add2")], "relu3")
    g.op("Softmax", [g.dense(s, 256, 10, "fc4")], "softmax")
    return g.model("mlp", [8, 64], [8, 10])


def main():
    check_versions()
    with tempfile.TemporaryDirectory() as tmp:
        for name, model in [("cnn", cnn()), ("mlp", mlp())]:
            onnx_path, mlir = f"{tmp}/{name}.onnx", f"{tmp}/{name}.mlir"
            onnx.save(model, onnx_path)
            subprocess.run([f"{BIN}/iree-import-onnx", onnx_path, "-o", mlir], check=True)
            # The program as IREE is given it (torch-dialect MLIR, no plan), weights
            # left out as named parameters: a file of the folder the page notes.
            if name == "cnn":
                subprocess.run([f"{BIN}/iree-import-onnx", onnx_path, "--externalize-params",
                                "--no-save-params", "-o", f"{HERE}/{name}.input.mlir"], check=True)
            final = f"{tmp}/{name}.stream.mlir"
            packs = f"{HERE}/{name}.packs.mlir"
            with open(packs, "w") as err:
                subprocess.run([f"{BIN}/iree-compile", "--iree-hal-target-device=local",
                                "--iree-hal-local-target-device-backends=llvm-cpu", "--compile-to=stream",
                                "--mlir-print-ir-before=iree-stream-layout-slices",
                                "--mlir-elide-elementsattrs-if-larger=16",
                                "--mlir-elide-resource-strings-if-larger=16", mlir, "-o", final],
                               check=True, stderr=err)
            with open(final) as f, open(f"{HERE}/{name}.transients.txt", "w") as out:
                for line in f:
                    if "stream.resource.alloca" in line and "<transient>" in line:
                        out.write(line.strip() + "\n")
            print(packs)


main()
