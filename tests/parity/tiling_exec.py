"""Proof by execution of `memplan tile` (issue #48): the tiled model computes what the
original computes, and its plan fits the budget asked.

For each model of tests/data/onnx/corpus (weights zeroed there): every float
initializer is filled with seeded random values scaled by fan-in (BatchNorm variances
positive), the model is written, `memplan tile --fast BUDGET` tiles it, and
onnxruntime runs the original and the tiled model on the same seeded input: float32
outputs equal within rtol 1e-4; for an int8 QDQ model (onnxruntime's quantize_static,
seeded calibration) the outputs are equal exactly. `memplan plan tiled.onnx
--strategy best` (given 10 s) must give a peak ≤ the budget and ≤ the figure `tile`
reported.

Usage: python tests/parity/tiling_exec.py [--all] [MODEL ...]
  no argument: the CI subset (resnet18, mobilenet_v2 and the int8 mobilenet_v2);
  --all: every model below (scripts/test-slow.sh's `tiling` step).
Needs onnx, onnxruntime and numpy (scripts/setup.sh's python step) and the release
binary (cargo build --release; MEMPLAN=path overrides).
"""

import gzip
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/data/onnx/corpus"
MEMPLAN = os.environ.get("MEMPLAN", str(ROOT / "target/release/memplan"))

# model -> fast budget asked (bytes): below the untiled peak, reachable by tiling
# (docs/tiling.md gives the smallest each reaches).
MODELS = {
    "resnet18": 2_000_000,
    "resnet50": 4_000_000,
    "mobilenet_v2": 2_000_000,
    "mnasnet0_5": 1_000_000,
    "regnet_x_400mf": 1_500_000,
    "squeezenet1_1": 1_500_000,
    "shufflenet_v2_x0_5": 1_000_000,
    "vgg11": 7_000_000,
    "densenet121": 4_000_000,
}
# The int8 QDQ model: exact outputs. memplan reads a QDQ model's weight
# DequantizeLinear outputs as computed tensors (Aidge runs them), so its peak is no
# int8 figure and no budget is asserted: the tiled plan only has to be lower.
INT8 = {"mobilenet_v2": 600_000}
SUBSET = ["resnet18", "mobilenet_v2"]


def randomized(name, seed=0):
    """The corpus model with seeded random weights scaled by fan-in."""
    model = onnx.load_from_string(gzip.decompress((CORPUS / f"{name}.onnx.gz").read_bytes()))
    rng = np.random.default_rng(seed)
    bn = {}
    for node in model.graph.node:
        if node.op_type == "BatchNormalization":
            for slot, role in zip(node.input[1:5], ("scale", "bias", "mean", "var")):
                bn[slot] = role
    for t in model.graph.initializer:
        if t.data_type != onnx.TensorProto.FLOAT:
            continue
        shape = tuple(t.dims)
        role = bn.get(t.name)
        if role in ("scale", "var"):
            values = rng.uniform(0.5, 1.5, shape)
        elif role in ("bias", "mean") or len(shape) < 2:
            values = rng.normal(0.0, 0.1, shape)
        else:
            fan_in = int(np.prod(shape[1:]))
            values = rng.normal(0.0, np.sqrt(2.0 / fan_in), shape)
        t.CopyFrom(numpy_helper.from_array(values.astype(np.float32), t.name))
    return model


def input_of(model, seed=1):
    inp = model.graph.input[0]
    dims = [d.dim_value or 1 for d in inp.type.tensor_type.shape.dim]
    return inp.name, np.random.default_rng(seed).normal(0, 1, dims).astype(np.float32)


def run(path, name, x):
    so = ort.SessionOptions()
    so.log_severity_level = 3
    sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    return sess.run(None, {name: x})


def quantized(src, dst, name, x_shape):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(7)
            self.data = iter([{name: rng.normal(0, 1, x_shape).astype(np.float32)} for _ in range(4)])

        def get_next(self):
            return next(self.data, None)

    quantize_static(str(src), str(dst), Reader(), quant_format=QuantFormat.QDQ)


def memplan(*args):
    return subprocess.run([MEMPLAN, *map(str, args)], capture_output=True, text=True, check=False)


def best_peak(path, tmp):
    out = tmp / "plan.json"
    r = memplan("plan", path, "--strategy", "best", "--budget", 10000, "-o", out)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    s = memplan("stats", out, "--json")
    return json.loads(s.stdout)["peak"]


def check(label, model_path, budget, exact, tmp):
    name, x = input_of(onnx.load(str(model_path)))
    tiled = tmp / f"{label}.tiled.onnx"
    r = memplan("tile", model_path, "--fast", budget, "-o", tiled, "--json", "--budget", 30000)
    if r.returncode != 0:
        return f"memplan tile failed: {r.stderr.strip()}"
    report = json.loads(r.stdout)
    if not report["stages"]:
        return f"no stage tiled ({report.get('ended_by')})"
    onnx.checker.check_model(onnx.load(str(tiled)))
    a = run(model_path, name, x)
    b = run(tiled, name, x)
    problems = []
    for i, (u, v) in enumerate(zip(a, b)):
        if exact:
            if not np.array_equal(u, v):
                problems.append(f"output {i}: {np.sum(u != v)} of {u.size} values differ")
        elif not np.allclose(u, v, rtol=1e-4, atol=1e-5 * max(1.0, float(np.abs(u).max()))):
            problems.append(f"output {i}: max |diff| {np.abs(u - v).max():.3g}")
    peak = best_peak(tiled, tmp)
    if peak >= report["peak_before"]:
        problems.append(f"the tiled model's peak {peak} B is not below the untiled one")
    if not exact and peak > budget:
        problems.append(f"best plans the tiled model at {peak} B > the budget {budget} B")
    # `best` runs within a time budget on a shared machine: with more time than `tile`
    # gave it, the file's plan is never above the figure reported.
    if peak > report["peak_after"]:
        problems.append(f"tile reported {report['peak_after']} B, plan gives {peak} B")
    s = report["stages"][0]
    print(f"  {label}: {s['rows']}×{s['cols']} up to {s['cut']}: {report['peak_before']} → "
          f"{peak} B (budget {budget}), +{s['macs_added_percent']:.1f} % MACs, "
          f"{'exact' if exact else 'rtol 1e-4'}: {'ok' if not problems else 'FAIL'}")
    return "; ".join(problems)


def main(argv):
    names = [a for a in argv if not a.startswith("--")]
    if "--all" in argv:
        names = list(MODELS)
    elif not names:
        names = SUBSET
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        for n in names:
            model = randomized(n)
            path = tmp / f"{n}.onnx"
            onnx.save(model, str(path))
            cases = [(n, path, MODELS[n], False)]
            if n in INT8:
                q = tmp / f"{n}.int8.onnx"
                name, x = input_of(model)
                quantized(path, q, name, x.shape)
                cases.append((f"{n} int8 QDQ", q, INT8[n], True))
            for label, p, budget, exact in cases:
                problem = check(label.replace(" ", "_"), p, budget, exact, tmp)
                if problem:
                    failures += 1
                    print(f"FAIL {label}: {problem}")
    print(f"tiling_exec: {len(names)} models, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
