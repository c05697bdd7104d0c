"""memplan's offline plan in TensorFlow Lite Micro, proven by execution in the real
`tflite-micro` interpreter (PyPI `tflite-micro==0.dev20261023182759`, installed by
`scripts/setup.sh python`).

For each model of tests/data/tflm/ (the int8 CNNs built by make_models.py with
TensorFlow, run outside CI, and the float `sine_float.tflite` the wheel ships; the
.tflite files are committed). Everything memplan does here is the Rust core's
(`formats::tflite` through `memplan._native`), the code the CLI and the page run:

1. `memplan.tflm.buffers` finds the buffers TFLM's own planner gets: the same sizes
   and lifetimes, in the same order, as the committed PrintMemoryPlan dump printed
   by this interpreter (dump_plans.py; the kernels' scratch buffers come after);
2. memplan's TFLM plan (its port of GreedyMemoryPlanner, scratch buffers included)
   has the head the interpreter reports (`print_allocations`) on the model as it is;
3. `memplan.tflm.apply_plan` (= `memplan plan model.tflite --strategy best -o
   out.tflite`) writes memplan's plan as the model's `OfflineMemoryAllocation`; the
   interpreter runs both models on the same random inputs: outputs identical, head
   at memplan's peak, tail unchanged, head smaller than TFLM's on every model where
   TFLM's plan is above the lower bound (dag6, dag10, dag21), equal where it is at
   the bound (resnet_tiny, sine_float);
4. `memplan.tflm.named_csv` names the dump's buffers by the model's tensors (a dump
   of another model is refused);
5. a broken offline plan (every tensor at offset 0) is refused by memplan's writer;
   written anyway by an independent writer (the wheel's own flatbuffer schema), it
   changes the outputs: the check sees the plan.

Then for each model of the corpus (tests/data/tflm/corpus/*.tflite.gz, written by
make_corpus.py: MobileNet V1/V2 at 96×96, a person-detection CNN, a DS-CNN keyword
spotter, a transformer block, int8 and float), which has no dump: 2 and 3 as above.

Prints one line per model; with --markdown also docs/benchmarks.md's table of them
(table tflm-heads: `python3 scripts/doc_tables.py write docs/benchmarks.md tflm-heads
--command "…"` reads it from stdin). Exits 1 on any difference.
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
MODELS = ["dag6", "dag10", "dag21", "resnet_tiny", "sine_float"]
# Models where TFLM's own plan is already at the lower bound.
AT_BOUND = {"resnet_tiny", "sine_float"}
#: One row of the --markdown table per model checked.
ROWS = []


def row(name, everything, before, after, report, identical):
    tensors = sum(1 for b in everything if b["tensor"] is not None)
    gain = 100.0 * (before["head"] - after["head"]) / before["head"]
    ROWS.append({"model": name, "tensors": tensors, "scratch": len(everything) - tensors,
                 "tflm": before["head"], "memplan": after["head"], "bound": report.lower_bound,
                 "saved": f"{gain:.1f} %" if gain else "0 (at the bound)",
                 "totals": (before["total"], after["total"]), "identical": identical})


def markdown():
    print("| model | tensors (+ scratch) | TFLM head (B) | memplan head (B) | lower bound (B) |"
          " saved | arena total, TFLM → memplan (B) | outputs |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for r in ROWS:
        print(f"| {r['model']} | {r['tensors']} (+{r['scratch']}) | {r['tflm']:,} |"
              f" {r['memplan']:,} | {r['bound']:,} | {r['saved']} |"
              f" {r['totals'][0]:,} → {r['totals'][1]:,} |"
              f" {'bit-identical' if r['identical'] else 'DIFFERENT'} |")


def dump_path(model):
    if model == "sine_float":
        return ROOT / "tests" / "data" / "formats" / "tflm_sine_float.plan.txt"
    return DATA / f"{model}.plan.txt"


def run(model_bytes, inputs):
    """Outputs of one interpreter on each input, and its arena figures."""
    with tempfile.TemporaryFile() as err:
        saved = os.dup(2)
        sys.stderr.flush()
        os.dup2(err.fileno(), 2)
        try:
            it = runtime.Interpreter.from_bytes(model_bytes, arena_size=1 << 23)
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
    d = runtime.Interpreter.from_bytes(model_bytes, arena_size=1 << 23).get_input_details(0)
    rng = np.random.default_rng(7)
    if np.issubdtype(d["dtype"], np.floating):
        return [rng.standard_normal(d["shape"]).astype(d["dtype"]) for _ in range(count)]
    info = np.iinfo(d["dtype"])
    return [rng.integers(info.min, info.max + 1, d["shape"]).astype(d["dtype"]) for _ in range(count)]


def dump_buffers(model):
    text = dump_path(model).read_text()
    return [
        tuple(map(int, m))
        for m in re.findall(r"size=(\d+), offset=(\d+), first_used=(\d+) last_used=(\d+)", text)
    ]


def raw_offline_plan(model_bytes, offsets):
    """The model with `offsets` as its offline plan, written without memplan (the
    wheel's flatbuffer schema, object API) and without any check: the independent
    writer of the broken plan memplan refuses."""
    import flatbuffers
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    model = fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(bytearray(model_bytes), 0))
    words = [-1] * sum(len(s.tensors) for s in model.subgraphs)
    for tensor, offset in offsets.items():
        words[tensor] = offset
    words = np.array([0, len(model.subgraphs), len(words), *words], dtype="<i4")
    buffer = fb.BufferT()
    buffer.data = np.frombuffer(words.tobytes(), dtype=np.uint8)
    model.buffers.append(buffer)
    entry = fb.MetadataT()
    entry.name = tflm.METADATA
    entry.buffer = len(model.buffers) - 1
    model.metadata = [m for m in (model.metadata or []) if m.name != tflm.METADATA.encode()] + [entry]
    builder = flatbuffers.Builder(len(model_bytes) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def broken(model_bytes):
    """The model with every planned tensor at offset 0."""
    return raw_offline_plan(model_bytes, {b.tensor: 0 for b in tflm.buffers(model_bytes)})


def check(model):
    problems = []
    data = (DATA / f"{model}.tflite").read_bytes()
    dump = dump_buffers(model)
    mine = [(b.size, b.first_used, b.last_used) for b in tflm.buffers(data)]
    if mine != [(s, f, l) for s, _, f, l in dump[: len(mine)]]:
        problems.append(f"buffers differ from TFLM's dump:\n  memplan {mine}\n  TFLM    {dump}")
    tflm_peak = max(s + o for s, o, _, _ in dump)
    everything = json.loads(_native.tflite_buffers(data, f"{model}.tflite"))["buffers"]
    if [(b["size"], b["offset"], b["first_used"], b["last_used"]) for b in everything] != dump:
        problems.append("memplan's TFLM plan (scratch buffers included) differs from the dump")
    memplan_tflm_head = max(b["offset"] + b["size"] for b in everything)
    # The dump with the model's tensor names: one row per buffer, TFLM's offsets, valid.
    text = dump_path(model).read_text()
    named = tflm.named_csv(data, text).splitlines()[1:]
    names = [b.name for b in tflm.buffers(data)]
    if [r.split(",")[0] for r in named[: len(names)]] != [n.replace(",", "_") for n in names]:
        problems.append("named_csv does not name the buffers by their tensors")
    if [int(r.split(",")[4]) for r in named] != [o for _, o, _, _ in dump]:
        problems.append("named_csv moved a buffer")
    if _native.check(tflm.named_csv(data, text), "named.csv"):
        problems.append("named_csv's plan fails memplan check")
    other = "dag6" if model != "dag6" else "dag10"
    try:
        tflm.named_csv(data, dump_path(other).read_text())
        problems.append(f"named_csv took {other}'s dump for {model}")
    except ValueError:
        pass

    xs = inputs_for(data)
    ref, before = run(data, xs)
    if before["head"] != tflm_peak:
        problems.append(f"interpreter head {before['head']} != the dump's peak {tflm_peak}")
    if memplan_tflm_head != before["head"]:
        problems.append(f"memplan's TFLM head {memplan_tflm_head} != the interpreter's {before['head']}")
    bufs, report = tflm.plan(data, strategy="best")
    planned = tflm.apply_plan(data, strategy="best")
    if tflm.with_offline_plan(data, {b.tensor: b.offset for b in bufs}) != planned:
        problems.append("with_offline_plan of apply_plan's offsets gives other bytes")
    out, after = run(planned, xs)
    identical = all(np.array_equal(a, b) for a, b in zip(ref, out))
    if not identical:
        problems.append("outputs differ with memplan's offline plan")
    # The kernels' scratch buffers (after the tensors in the dump) are planned at run
    # time, in the holes of memplan's plan: the head is memplan's peak.
    if after["head"] != report.peak:
        problems.append(f"head {after['head']} != memplan's peak {report.peak}")
    if after["tail"] != before["tail"]:
        problems.append(f"tail {after['tail']} != {before['tail']}: the plan moved persistent data")
    if model in AT_BOUND:
        if after["head"] != before["head"]:
            problems.append(f"at the bound: head {after['head']} != TFLM's {before['head']}")
    elif after["head"] >= before["head"]:
        problems.append(f"head {after['head']} not below TFLM's {before['head']}")
    try:
        tflm.with_offline_plan(data, {b.tensor: 0 for b in tflm.buffers(data)})
        problems.append("memplan wrote a plan with every tensor at offset 0")
    except ValueError as e:
        if "not valid" not in str(e) and len(bufs) > 1:
            problems.append(f"the broken plan was refused for another reason: {e}")
    bad_out, _ = run(broken(data), xs)
    if all(np.array_equal(a, b) for a, b in zip(ref, bad_out)):
        problems.append("a plan with every tensor at offset 0 gives the same outputs: the check sees nothing")
    row(model, everything, before, after, report, identical)
    gain = 100.0 * (before["head"] - after["head"]) / before["head"]
    print(
        f"{model}: TFLM head {before['head']} B (total {before['total']}), memplan head "
        f"{after['head']} B (total {after['total']}, -{gain:.1f} %), lower bound "
        f"{report.lower_bound}, outputs identical: {identical}, {len(xs)} inputs",
        flush=True,
    )
    return problems


def check_corpus(path):
    """Steps 2 and 3 on a corpus model: TFLM's head as memplan computes it, then
    memplan's plan in the interpreter."""
    import gzip

    problems = []
    name = path.name[: -len(".tflite.gz")]
    data = gzip.decompress(path.read_bytes())
    everything = json.loads(_native.tflite_buffers(data, path.name))["buffers"]
    memplan_tflm_head = max(b["offset"] + b["size"] for b in everything)
    xs = inputs_for(data, count=2)
    ref, before = run(data, xs)
    if memplan_tflm_head != before["head"]:
        problems.append(f"memplan's TFLM head {memplan_tflm_head} != the interpreter's {before['head']}")
    planned = tflm.apply_plan(data, strategy="best")
    _, report = tflm.plan(data, strategy="best")
    out, after = run(planned, xs)
    identical = all(np.array_equal(a, b) for a, b in zip(ref, out))
    if not identical:
        problems.append("outputs differ with memplan's offline plan")
    if after["head"] > before["head"]:
        problems.append(f"head {after['head']} above TFLM's {before['head']}")
    if after["tail"] != before["tail"]:
        problems.append(f"tail {after['tail']} != {before['tail']}")
    row(name, everything, before, after, report, identical)
    gain = 100.0 * (before["head"] - after["head"]) / before["head"]
    tensors = sum(1 for b in everything if b["tensor"] is not None)
    print(
        f"{name}: {tensors} tensors (+{len(everything) - tensors} scratch), TFLM head "
        f"{before['head']} B (total {before['total']}), memplan head {after['head']} B "
        f"(total {after['total']}, -{gain:.1f} %), lower bound {report.lower_bound}, "
        f"outputs identical: {identical}, {len(xs)} inputs",
        flush=True,
    )
    return problems


def main():
    failed = 0
    for model in MODELS:
        for p in check(model):
            print(f"  FAIL {model}: {p}", flush=True)
            failed += 1
    for path in sorted((DATA / "corpus").glob("*.tflite.gz")):
        for p in check_corpus(path):
            print(f"  FAIL {path.name}: {p}", flush=True)
            failed += 1
    if "--markdown" in sys.argv[1:]:
        print()
        markdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
