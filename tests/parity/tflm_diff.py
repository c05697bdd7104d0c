"""memplan's offline plan in TensorFlow Lite Micro, proven by execution in the real
`tflite-micro` interpreter (PyPI `tflite-micro==0.dev20261023182759`, installed by
`scripts/setup.sh python`).

For each int8 CNN of tests/data/tflm/ (built by make_models.py with TensorFlow, run
outside CI; the .tflite files are committed):

1. `memplan.tflm.buffers` finds the buffers TFLM's own planner gets: the same sizes
   and lifetimes, in the same order, as the committed PrintMemoryPlan dump printed
   by this interpreter (dump_plans.py; the kernels' scratch buffers come after);
2. the interpreter's head (the arena part its planner places, from
   `print_allocations`) on the model as it is equals the dump's peak;
3. `memplan.tflm.apply_plan` writes memplan's plan as the model's
   `OfflineMemoryAllocation`; the interpreter runs both models on the same random
   inputs: outputs identical, head at memplan's peak, smaller than TFLM's on every
   model where TFLM's plan is above the lower bound (dag6, dag10, dag21), equal on
   the control (resnet_tiny);
4. `memplan.tflm.named_csv` names the dump's buffers by the model's tensors (a dump
   of another model is refused);
5. a broken offline plan (every tensor at offset 0) changes the outputs: the check
   sees the plan.

Prints one line per model (the figures of docs/benchmarks.md); exits 1 on any
difference.
"""

import json
import os
import pathlib
import re
import sys
import tempfile

import numpy as np
from tflite_micro.python.tflite_micro import runtime

from memplan import _native, tflm

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "tflm"
MODELS = ["dag6", "dag10", "dag21", "resnet_tiny"]
CONTROL = "resnet_tiny"


def run(model_bytes, inputs):
    """Outputs of one interpreter on each input, and its arena figures."""
    with tempfile.TemporaryFile() as err:
        saved = os.dup(2)
        sys.stderr.flush()
        os.dup2(err.fileno(), 2)
        try:
            it = runtime.Interpreter.from_bytes(model_bytes, arena_size=1 << 20)
            outputs = []
            for x in inputs:
                it.set_input(x, 0)
                it.invoke()
                outputs.append(it.get_output(0).copy())
            it.print_allocations()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        text = err.read().decode()
    figures = {k: int(v) for k, v in re.findall(r"Arena allocation (\w+) (\d+) bytes", text)}
    return outputs, figures


def inputs_for(model_bytes, count=4):
    d = runtime.Interpreter.from_bytes(model_bytes, arena_size=1 << 20).get_input_details(0)
    info = np.iinfo(d["dtype"])
    rng = np.random.default_rng(7)
    return [rng.integers(info.min, info.max + 1, d["shape"]).astype(d["dtype"]) for _ in range(count)]


def dump_buffers(model):
    text = (DATA / f"{model}.plan.txt").read_text()
    return [
        tuple(map(int, m))
        for m in re.findall(r"size=(\d+), offset=(\d+), first_used=(\d+) last_used=(\d+)", text)
    ]


def broken(model_bytes):
    """The model with every planned tensor at offset 0."""
    return tflm.with_offline_plan(model_bytes, {b["tensor"]: 0 for b in tflm.buffers(model_bytes)})


def check(model):
    problems = []
    data = (DATA / f"{model}.tflite").read_bytes()
    dump = dump_buffers(model)
    mine = [(b["size"], b["first_used"], b["last_used"]) for b in tflm.buffers(data)]
    if mine != [(s, f, l) for s, _, f, l in dump[: len(mine)]]:
        problems.append(f"buffers differ from TFLM's dump:\n  memplan {mine}\n  TFLM    {dump}")
    tflm_peak = max(s + o for s, o, _, _ in dump)
    # The dump with the model's tensor names: one row per buffer, TFLM's offsets, valid.
    text = (DATA / f"{model}.plan.txt").read_text()
    named = tflm.named_csv(data, text).splitlines()[1:]
    names = [b["name"] for b in tflm.buffers(data)]
    if [r.split(",")[0] for r in named[: len(names)]] != [n.replace(",", ";") for n in names]:
        problems.append("named_csv does not name the buffers by their tensors")
    if [int(r.split(",")[4]) for r in named] != [o for _, o, _, _ in dump]:
        problems.append("named_csv moved a buffer")
    if _native.check(tflm.named_csv(data, text), "named.csv"):
        problems.append("named_csv's plan fails memplan check")
    other = "dag6" if model != "dag6" else "dag10"
    try:
        tflm.named_csv(data, (DATA / f"{other}.plan.txt").read_text())
        problems.append(f"named_csv took {other}'s dump for {model}")
    except ValueError:
        pass

    xs = inputs_for(data)
    ref, before = run(data, xs)
    if before["head"] != tflm_peak:
        problems.append(f"interpreter head {before['head']} != the dump's peak {tflm_peak}")
    bufs, report = tflm.plan(data, strategy="best")
    planned = tflm.with_offline_plan(data, {b["tensor"]: b["offset"] for b in bufs})
    out, after = run(planned, xs)
    identical = all(np.array_equal(a, b) for a, b in zip(ref, out))
    if not identical:
        problems.append("outputs differ with memplan's offline plan")
    # The kernels' scratch buffers (after the tensors in the dump) are planned at run
    # time, in the holes of memplan's plan: the head is memplan's peak.
    if after["head"] != int(report["peak"]):
        problems.append(f"head {after['head']} != memplan's peak {report['peak']}")
    if model == CONTROL:
        if after["head"] != before["head"]:
            problems.append(f"control: head {after['head']} != TFLM's {before['head']}")
    elif after["head"] >= before["head"]:
        problems.append(f"head {after['head']} not below TFLM's {before['head']}")
    bad_out, _ = run(broken(data), xs)
    if all(np.array_equal(a, b) for a, b in zip(ref, bad_out)):
        problems.append("a plan with every tensor at offset 0 gives the same outputs: the check sees nothing")
    gain = 100.0 * (before["head"] - after["head"]) / before["head"]
    print(
        f"{model}: TFLM head {before['head']} B (total {before['total']}), memplan head "
        f"{after['head']} B (total {after['total']}, -{gain:.1f} %), lower bound "
        f"{report['lower_bound']}, outputs identical: {identical}, {len(xs)} inputs",
        flush=True,
    )
    return problems


def main():
    failed = 0
    for model in MODELS:
        for p in check(model):
            print(f"  FAIL {model}: {p}", flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
