"""memplan on every model of ONNX's own backend node tests (the per-operator test cases
of the `onnx` package, `onnx.backend.test.case.node`, built in memory: onnx 1.23.2's
wheel ships their code, not their files), compared with the real aidge_onnx +
aidge_core 0.10.1.

Each test model is first made into what an exported model looks like: its first input
stays the graph input, the others become initializers holding the test's own input
values (a Conv's weight, a Reshape's shape, a TopK's k: constants in a real model). Then,
as tests/parity/onnx_diff.py does for whole models:
- Aidge schedules it: memplan's schedule must be equal (names, types, output bytes,
  in-place) and, in Aidge's order, the three drivers' plans must equal Aidge's
  memory_info.txt byte for byte ("equal");
- Aidge cannot (it imports a GenericOperator, its converter or forward_dims fails, or
  it crashes): memplan must open the model (generic nodes sized from the model), its
  graph outputs then having the shapes of the outputs the node test ships, or refuse it
  with a message naming the file and node; never a panic. An error of the harness or of
  memplan's own run is a failure, never filed as "Aidge cannot".

Each case runs in a forked child, so that a crash of Aidge's C++ on an odd node model is
counted, not fatal. Prints per operator type the counts, then the totals; exits non-zero
on a difference, a panic, a refusal without a message, opened shapes that are not the
test's, or fewer cases than the floor (FLOOR, FLOOR_ALL: a collection that silently shrank).
Usage: .venv/bin/python tests/parity/onnx_nodes_diff.py [--all] [OP_TYPE ...]
(no argument: the operators of CI_OPS and the cases of CI_CASES, a few minutes; --all: the
1,884 models, 3-15 min with the load;
OP_TYPE: the cases that use it). Or run.py onnx_nodes.
"""

import collections
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
from models_diff import MEMPLAN  # noqa: E402
import onnx_diff  # noqa: E402

# The operators CI compares (run.py onnx_nodes): those added with issue #24's second
# part and a few of the first, ~300 models; --all runs every node model. Size's node models
# are mostly RMSNormalization's expansion (an Identity read unwritten by Aidge's Range,
# data formats from ONNX's rank inference; see docs/aidge-parity.md).
CI_OPS = {"Size", "ConvTranspose", "Conv", "AveragePool", "MaxPool", "InstanceNormalization", "LRN",
          "LogSoftmax", "TopK", "DepthToSpace", "Dropout", "Asin", "Sinh", "Cosh", "Tan",
          "Hardmax", "Trilu", "QuantizeLinear", "DequantizeLinear", "ReduceL1",
          "ReduceL2", "GatherND", "ScatterElements", "OneHot", "BitShift", "LSTM", "GRU"}
# And the cases (by name) that differed from Aidge before the 2026-12-06 fixes: ArgMax's
# int64 output, Cast's target type, Resize's scales (their data format, `axes`), Split's
# and Slice's bounds as Aidge computes them, Gemm's [1, N] bias, Squeeze/Unsqueeze in
# place, reductions to [1], a parameter reader after the last data reader.
# The least number of cases each run must find (the default run, --all): onnx 1.23.2's
# node tests give 438 and 1,884.
FLOOR, FLOOR_ALL = 400, 1800
CI_CASES = re.compile(r"test_(argmax_|resize_.*scales|split_|squeeze|unsqueeze|gemm_|"
                      r"cast_FLOAT_to_|slice|nllloss_NCd1_expanded$|"
                      r"rms_normalization_2d_axis0_expanded$|reduce_sum_.*keepdims_example$)")


def cases(ops, names=None):
    warnings.filterwarnings("ignore")
    from onnx.backend.test.case import node
    for c in node.collect_testcases(None):
        types = {n.op_type for n in c.model.graph.node}
        if ops is None or types & ops or (names is not None and names.match(c.name)):
            yield c


def exported(c):
    """The test model with inputs 1.. as initializers holding the test's values, and the
    first input's dims (None when the model has no usable first input)."""
    m = onnx.ModelProto()
    m.CopyFrom(c.model)
    g = m.graph
    values = c.data_sets[0][0] if c.data_sets else []
    if len(values) != len(g.input) or not g.input:
        return m.SerializeToString(), None
    keep = g.input[0]
    for v, x in zip(list(g.input)[1:], values[1:]):
        try:
            g.initializer.append(numpy_helper.from_array(x, v.name))
        except Exception:  # noqa: BLE001 (sequences, optionals: left as they are)
            return c.model.SerializeToString(), None
    del g.input[1:]
    dims = [d.dim_value for d in keep.type.tensor_type.shape.dim]
    if not keep.type.HasField("tensor_type") or any(d <= 0 for d in dims):
        return m.SerializeToString(), None
    return m.SerializeToString(), [dims]


def one(c, tmp):
    """(outcome, detail) of one case: equal, differ, aidge-cannot/opened,
    aidge-cannot/refused, or bad (a panic, a refusal without a message)."""
    data, dims = exported(c)
    path = tmp / f"{c.name}.onnx"
    path.write_bytes(data)
    if dims is not None:
        try:
            d = onnx_diff.check_bytes(c.name, data, dims, [], tmp, strict=False)
        except onnx_diff.AidgeFails as e:
            s = str(e)
            if "memplan opens" not in s:
                return "aidge-cannot/refused", s
            return opened(c, tmp / f"{c.name}.memplan.json", s)
        except (AssertionError, RuntimeError) as e:
            d = str(e)
        # Any other exception is the harness's or memplan's: forked() counts it as bad.
        return ("equal", "") if d is None else ("differ", d)
    return aidge_cannot(path, "the test model has no fixed first input", c)


def expected_shapes(c):
    """The dims of the outputs ONNX's node test ships for the case (its first data
    set), or None when they are not all tensors."""
    if not c.data_sets:
        return None
    outs = c.data_sets[0][1]
    if not all(hasattr(o, "shape") for o in outs):
        return None
    return [list(o.shape) for o in outs]


def opened(c, memplan_json, why):
    """An opened case where Aidge cannot: each of memplan's graph outputs must have the
    dims of one output the node test ships (a sub-multiset: memplan names nodes, not
    tensors, and Aidge's operator may have fewer outputs than ONNX's, as LayerNorm's
    or Dropout's; Aidge's [1] for a scalar counts as []). An empty expected output (a
    0 dim) is no tensor memplan places: such cases are not compared."""
    want = expected_shapes(c)
    if want is None:
        return "aidge-cannot/opened", why + " (the test ships no tensor outputs to compare)"
    if any(0 in d for d in want):
        return "aidge-cannot/opened", why + " (an empty output: not compared)"
    nodes = json.loads(memplan_json.read_text())["schedule"]["nodes"]
    got = [o["dims"] for n in nodes for o in n["outputs"] if o.get("graph_output")]
    left = [[] if d == [1] else d for d in want]
    for d in got:
        d = [] if d == [1] else d
        if d not in left:
            return "bad", f"{why}; memplan's graph outputs {got}, the node test's {want}"
        left.remove(d)
    return "aidge-cannot/opened", why


def aidge_cannot(path, why, c=None):
    r = subprocess.run([str(MEMPLAN), "convert", path, "-o", path.with_suffix(".json")],
                       capture_output=True, text=True)
    err = r.stderr.strip()
    if r.returncode == 0:
        return opened(c, path.with_suffix(".json"), why) if c else ("aidge-cannot/opened", why)
    if r.returncode in (1, 2) and err.startswith(f"memplan: {path}: ") and "panick" not in err:
        return "aidge-cannot/refused", f"{why}; memplan: {err[len(str(path)) + 11:][:150]}"
    return "bad", f"{why}; memplan exit {r.returncode}: {err[:300]}"


def forked(c, tmp):
    """one() in a child process; a crash (Aidge's C++) is an Aidge failure."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            out = one(c, tmp)
        except BaseException as e:  # noqa: BLE001
            out = ("bad", f"harness: {type(e).__name__}: {e}")
        with os.fdopen(wr, "w") as f:
            json.dump(out, f)
        os._exit(0)
    os.close(wr)
    with os.fdopen(rd) as f:
        text = f.read()
    _, status = os.waitpid(pid, 0)
    if text:
        return tuple(json.loads(text))
    return aidge_cannot(tmp / f"{c.name}.onnx",
                        f"Aidge crashes (status {status})", c)


def main(argv):
    args = argv[1:]
    ops = None if args == ["--all"] else set(args) or CI_OPS
    names = CI_CASES if not args else None
    counts = collections.defaultdict(collections.Counter)
    total = collections.Counter()
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for c in cases(ops, names):
            kind, detail = forked(c, tmp)
            for t in {n.op_type for n in c.model.graph.node}:
                if ops is None or t in ops or names is not None:
                    counts[t][kind] += 1
            total[kind] += 1
            if kind in ("differ", "bad"):
                bad.append(f"{kind.upper()} {c.name}: {detail}")
            elif os.environ.get("VERBOSE"):
                print(f"{kind} {c.name}: {detail[:200]}", flush=True)
    kinds = ["equal", "differ", "aidge-cannot/opened", "aidge-cannot/refused", "bad"]
    print(f"{'operator':24}" + "".join(f"{k:>22}" for k in kinds))
    for t in sorted(counts):
        print(f"{t:24}" + "".join(f"{counts[t][k]:>22}" for k in kinds))
    for b in bad:
        print(b)
    print(f"{total['equal']} equal to Aidge, {total['differ']} different, "
          f"{total['aidge-cannot/opened']} Aidge cannot (memplan opens), "
          f"{total['aidge-cannot/refused']} Aidge cannot (memplan refuses with a message), "
          f"{total['bad']} failed")
    n, floor = sum(total.values()), (FLOOR_ALL if ops is None else FLOOR)
    if n < floor and (ops is None or ops == CI_OPS):
        print(f"FAIL: {n} cases, fewer than the floor of {floor}: the node tests were not "
              "all collected")
        return 1
    return 1 if total["differ"] or total["bad"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
