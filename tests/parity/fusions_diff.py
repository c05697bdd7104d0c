"""Parity of memplan's seed fusions (`--recipes fuse-linear,fuse-attention,fuse-gelu`,
src/recipes/fusions.rs) with real aidge_core 0.10.1's `fuse_to_metaops`.

For each fixture of tests/data/onnx/fusions (tests/parity/fusion_models.py: ViT and
DINOv2 exports folded for their static input size, and a synthetic block where every
seed pattern matches), zeros put back into its weights:

1. Aidge, plain and fused: `aidge_onnx.load_onnx`; for the fused graph the seed's
   `aidge_core.fuse_to_metaops(graph, pattern, type)` in the seed's order (Linear, the
   decomposed LayerNorm, ScaledDotProductAttention, GeLU); `set_backend("cpu")`,
   `set_datatype(float32)` and the non-float Producers given their datatype back (the
   folded shape constants: without it forward_dims refuses them), `forward_dims`,
   `SequentialScheduler.generate_scheduling`, and the default plan,
   `generate_memory_multiple_mems` (one 1e9-byte memory, alignment 1): its peak. The
   schedule as python/memplan/aidge/exporter.py's `schedule_of` writes it.
2. memplan: `memplan convert MODEL.onnx -o x.json` of the weight-free file, without and
   with `--recipes fuse-linear,fuse-attention,fuse-gelu`.
3. recipes_diff.py's checks: the two schedules hold the same nodes (type, parents, output
   dims and what lies downstream; Aidge leaves a meta-operator unnamed), each with the
   same outputs (dims, bytes, format, graph output, readers), data inputs (required data;
   protected or not), scheduler passes; memplan's graph put in Aidge's order must have
   Aidge's peak, byte for byte.
4. Aidge orders the nodes of a scheduler pass by pointer, so its peak may change from one
   run to the next, in one process too (ViT-B/16's plain graph: 8,472,576 or 9,077,760 B;
   ViT-tiny's fused graph 95,744 or 87,040 B); each run is checked in its own order
   (`--runs=N`; one in CI, RECORD_RUNS with --record). memplan's graph is also planned
   with each pass in ORDERS random orders: where none changes its figure, every Aidge
   run must have it. memplan's own-order figure (the file's order) is printed beside.

5. A MatMul-*>Add built here whose product has one reader, a second reader, or is also a
   graph output: Aidge and memplan fuse the first only (Aidge fuses the third too, then
   its scheduler fails on the graph output left on the absorbed MatMul).

The seed's decomposed-LayerNorm pattern (`ReduceMean-*>Sub#1~>(Pow#1->…`) matches only
an opset-16 export (at opset 17 the export writes LayerNormalization, which aidge_onnx
imports as a LayerNorm meta-operator already): synth_block_op16 is the model where
memplan's `fuse-layernorm` is checked against it. A model memplan is known not to
reproduce goes in KNOWN_GAPS: reported as "GAP", with both figures, not passed; it fails
if the gap ever closes (then take it out of KNOWN_GAPS).

Prints one line per model and mode, then "N passed, N failed, N known gaps"; exits
non-zero on any failure.
Usage: .venv/bin/python tests/parity/fusions_diff.py [MODEL ... | --all] [--runs=N]
       [--record=FILE] | --render
(no argument: CI_MODELS, about 15 s on 2 cores; --all: every fixture, about 35 s;
--record: writes each model's figures, Aidge's over its runs and memplan's, the range of
memplan's over the orders of a pass, and the meta-operators, as
tests/data/recipes/fusions.json holds them for tests/recipes_fusions.rs; with --all and
RECORD_RUNS runs, about 70 s; --render: docs/recipes.md's table from the recorded
figures and memplan's CLI, no Aidge needed)
"""

import collections
import contextlib
import gzip
import io
import json
import pathlib
import random
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))

from models_diff import MEMPLAN  # noqa: E402
from onnx_diff import inflate, passes  # noqa: E402
from recipes_diff import compare, match, peak, reorder  # noqa: E402

FIXTURES = ROOT / "tests" / "data" / "onnx" / "fusions"
ALL = ["hf_vit", "vit_b_16", "dinov2_tiny", "dinov2_s", "synth_block_op17",
       "synth_block_op16"]
# CI: every pattern (the synthetic blocks), both ViTs, DINOv2 (the 2-layer one).
CI_MODELS = ["hf_vit", "vit_b_16", "dinov2_tiny", "synth_block_op17", "synth_block_op16"]
RECIPES = "fuse-linear,fuse-layernorm,fuse-attention,fuse-gelu"
# The seed's patterns, in its order (memplan's fuse-linear, fuse-layernorm, fuse-attention,
# fuse-gelu).
SEED_FUSIONS = [
    ("MatMul-*>Add", "Linear"),
    ("ReduceMean-*>Sub#1~>(Pow#1->ReduceMean-*>Add#1->Sqrt)-*>Div#1-*>Mul#1-*>Add#2;"
     "Sub#1~*>Div#1;Pow#1<1~Producer;Add#1<*~Producer;Mul#1<*~Producer;Add#2<*~Producer;"
     "Sub#1~>$", "LayerNorm"),
    ("MatMul->Div#1->Softmax-*>MatMul;Div#1<1~Producer", "ScaledDotProductAttention"),
    ("Div#1->Erf->Add#1-*>Mul->Mul#2;Div#1<1~Producer;Add#1<*~Producer;Mul#2<*~Producer",
     "GeLU"),
]
META = ["Linear", "ScaledDotProductAttention", "GeLU"]
# (model, mode) -> why memplan's graph is not Aidge's.
KNOWN_GAPS = {}
# Per model, the meta-operators of its plain graph (LayerNorm: aidge_onnx's import of an
# opset-17 LayerNormalization), so that a fused graph's count says what the fusions made.
PLAIN_KINDS = {}
# Random orders of each scheduler pass tried on memplan's graph (Aidge orders a pass by
# pointer: any of them may be its next run's).
ORDERS = 20
# Runs of Aidge's flow per model and mode with --record (one in CI).
RECORD_RUNS = 8
RECORD = {}


def aidge(path, dims, fused):
    """(schedule nodes, default plan's peak, fusions made per type) of Aidge's flow."""
    import aidge_backend_cpu  # noqa: F401
    import aidge_core
    import aidge_onnx
    from memplan.aidge.exporter import aidge_plan, schedule_of
    aidge_core.Log.set_console_level(aidge_core.Level.Fatal)
    with contextlib.redirect_stdout(io.StringIO()):
        graph = aidge_onnx.load_onnx(str(path))
    made = {}
    if fused:
        for pattern, kind in SEED_FUSIONS:
            made[kind] = int(aidge_core.fuse_to_metaops(graph, pattern, kind))
    graph.set_backend("cpu")
    kept = {n: n.get_operator().get_output(0).dtype for n in graph.get_nodes()
            if n.type() == "Producer"}
    graph.set_datatype(aidge_core.dtype.float32)
    for n, dtype in kept.items():
        if dtype != aidge_core.dtype.float32:
            n.get_operator().get_output(0).set_datatype(dtype)
    if not graph.forward_dims(dims, True):
        raise RuntimeError("Aidge's forward_dims fails")
    s = aidge_core.SequentialScheduler(graph)
    s.generate_scheduling()
    mm = aidge_plan(s, "multiple_mems")
    return schedule_of(s)["nodes"], int(mm.get_peak_usage_multiple_mems()[0]), made


def kinds(nodes):
    count = collections.Counter(n["type"] for n in nodes)
    return {k: count[k] for k in META + ["LayerNorm"] if count[k]}


def kinds_apart(ours, theirs):
    """The node types one graph has more of than the other ("Aidge's LayerNorm 2; memplan's
    ReduceMean 4, …")."""
    a = collections.Counter(n["type"] for n in theirs if not n["producer"])
    b = collections.Counter(n["type"] for n in ours if not n["producer"])
    said = [f"{who} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
            for who, c in (("Aidge's", a - b), ("memplan's", b - a)) if c]
    return "; ".join(said) or "the same node types"


def same_graph(ours, theirs):
    """recipes_diff's checks; the first difference, or None."""
    mapping = match(ours, theirs)
    diff = compare(ours, theirs, mapping)
    if diff:
        return diff, None
    ours_pass, their_pass = passes(ours), passes(theirs)
    for i, t in enumerate(theirs):
        if not t["producer"] and their_pass[i] != ours_pass[mapping[i]]:
            return f"node {t['name']!r} runs in pass {their_pass[i]}, memplan's in " \
                   f"{ours_pass[mapping[i]]}", None
    return None, mapping


def other_orders(doc, tmp, stem):
    """The peaks of memplan's graph with each scheduler pass in ORDERS random orders (a
    pass's nodes read nothing of each other: each order is one Aidge may run)."""
    ours = doc["schedule"]["nodes"]
    ours_pass = passes(ours)
    ops = [j for j, n in enumerate(ours) if not n["producer"]]
    rng = random.Random(0)
    seen = set()
    for k in range(ORDERS):
        by_pass = collections.defaultdict(list)
        for j in ops:
            by_pass[ours_pass[j]].append(j)
        order = []
        for p in sorted(by_pass):
            rng.shuffle(by_pass[p])
            order += by_pass[p]
        # recipes_diff's reorder, with the shuffled order as "theirs"
        theirs = [{"producer": False}] * len(order)
        path = tmp / f"{stem}.order{k}.json"
        path.write_text(json.dumps({**doc, "schedule": {
            **doc["schedule"], "nodes": reorder(ours, theirs, dict(enumerate(order)))}}))
        seen.add(peak(path))
    return seen


def in_aidge_order(doc, theirs, tmp, stem):
    """Aidge's run `theirs` against memplan's graph: (first difference, None) or (None,
    memplan's peak with its nodes in that run's order)."""
    ours = doc["schedule"]["nodes"]
    try:
        diff, mapping = same_graph(ours, theirs)
    except AssertionError as e:
        diff = str(e)
    if diff:
        # (recipes_diff's words are about an export)
        return diff.replace("the export's", "Aidge's").replace("the export", "Aidge"), None
    path = tmp / f"{stem}.aidge-order.json"
    path.write_text(json.dumps({**doc, "schedule": {
        **doc["schedule"], "nodes": reorder(ours, theirs, mapping)}}))
    return None, peak(path)


def check(name, mode, tmp, full, dims, runs):
    """(status, text): status "ok", "FAIL" or "GAP". Aidge's flow is run `runs` times
    (each run may order a pass differently), each run checked."""
    fused = mode == "fused"
    out = tmp / f"{name}.{mode}.memplan.json"
    args = [str(MEMPLAN), "convert", str(tmp / f"{name}.onnx"), "-o", str(out)]
    subprocess.run(args + (["--recipes", RECIPES] if fused else []), check=True,
                   capture_output=True, text=True)
    doc = json.loads(out.read_text())
    ours = doc["schedule"]["nodes"]
    own = peak(out)
    counts = kinds(ours)
    orders = other_orders(doc, tmp, f"{name}.{mode}") | {own}
    rec = RECORD.setdefault(name, {"operators": {}})
    rec["operators"][mode] = sum(1 for n in ours if not n["producer"])
    rec[mode] = {"memplan_own_order": own, "runs": runs}
    if len(orders) > 1:
        rec[mode]["orders"] = [min(orders), max(orders)]
    reals, diff, theirs = collections.Counter(), None, None
    for run in range(runs):
        theirs, real, made = aidge(full, dims, fused)
        reals[real] += 1
        diff, got = in_aidge_order(doc, theirs, tmp, f"{name}.{mode}")
        if diff:
            break
        if got != real:
            return "FAIL", f"run {run + 1}: memplan's plan in Aidge's order: {got:,} B, " \
                           f"Aidge's {real:,} B"
    rec[mode]["aidge"] = sorted(reals)
    rec[mode]["runs"] = sum(reals.values())
    if not fused:
        PLAIN_KINDS[name] = counts
    if fused:
        made_here = {k: counts.get(k, 0) - PLAIN_KINDS.get(name, {}).get(k, 0)
                     for k in META + ["LayerNorm"]}
        rec["fusions"] = made_here
        rec["aidge_fuse_to_metaops"] = made
    aidge_said = ", ".join(f"{p:,}" + (f" ({k}×)" if runs > 1 else "")
                           for p, k in sorted(reals.items()))
    said = f"Aidge {aidge_said} B, memplan's own order {own:,} B"
    if len(orders) > 1:
        said += f" (other orders of a pass: {min(orders):,} to {max(orders):,} B)"
    if fused:
        said += f"; meta-operators: Aidge's {kinds(theirs)}, memplan's {counts}"
    gap = KNOWN_GAPS.get((name, mode))
    if gap:
        rec[mode]["known_gap"] = gap
        if diff is None:
            return "FAIL", f"known gap ({gap}) closed: the graphs match; take it out of " \
                           "KNOWN_GAPS"
        return "GAP", f"{gap}: {said}; nodes only in {kinds_apart(ours, theirs)}"
    if diff:
        return "FAIL", diff
    if len(orders) == 1 and set(reals) != {own}:
        return "FAIL", f"no order of a pass changes memplan's {own:,} B, and Aidge has " \
                       f"{aidge_said} B"
    n = sum(1 for t in theirs if not t["producer"])
    which = "its run's order" if runs == 1 else f"each of its {runs} runs' orders"
    return "ok", f"{n} nodes, memplan in {which} = Aidge's; {said}"


def inner_readers(tmp):
    """A MatMul-*>Add whose product has one reader, a second reader (a ReLU) or is also a
    graph output. Aidge's fuse_to_metaops and memplan's fuse-linear fuse the first, not
    the second; the third Aidge fuses, leaving the graph output on the absorbed MatMul,
    and its scheduler then fails ("map::at"): memplan leaves it unfused. (status, text)"""
    import aidge_core
    import aidge_onnx
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    said = []
    for case in ["one reader", "a second reader", "a graph output"]:
        nodes = [helper.make_node("MatMul", ["x", "W"], ["p"], name="mm"),
                 helper.make_node("Add", ["p", "b"], ["y"], name="add")]
        outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])]
        if case == "a second reader":
            nodes.append(helper.make_node("Relu", ["p"], ["r"], name="relu"))
            outs.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, [1, 8]))
        if case == "a graph output":
            outs.append(helper.make_tensor_value_info("p", TensorProto.FLOAT, [1, 8]))
        weights = [numpy_helper.from_array(np.zeros((8, 8), np.float32), "W"),
                   numpy_helper.from_array(np.zeros(8, np.float32), "b")]
        graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
            "x", TensorProto.FLOAT, [1, 8])], outs, weights)
        path = tmp / "inner_readers.onnx"
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
        out = tmp / "inner_readers.json"
        subprocess.run([str(MEMPLAN), "convert", str(path), "-o", str(out), "--recipes",
                        RECIPES], check=True, capture_output=True, text=True)
        doc = json.loads(out.read_text())
        ours = kinds(doc["schedule"]["nodes"]).get("Linear", 0)
        if case == "a graph output":
            with contextlib.redirect_stdout(io.StringIO()):
                fused = aidge_core.fuse_to_metaops(aidge_onnx.load_onnx(str(path)),
                                                   SEED_FUSIONS[0][0], "Linear")
            try:
                aidge(path, [[1, 8]], True)
                return "FAIL", "Aidge now schedules a Linear fused over a graph output: " \
                               "compare it with memplan's (which does not fuse it)"
            except (RuntimeError, IndexError) as e:
                failed = f"{type(e).__name__}: {e}"
            if fused != 1 or ours != 0:
                return "FAIL", f"the product with {case}: Aidge fuses {fused}, memplan {ours}"
            said.append(f"{case}: Aidge fuses it and then fails to schedule ({failed}), "
                        "memplan keeps it unfused")
            continue
        theirs, real, made = aidge(path, [[1, 8]], True)
        if made["Linear"] != ours or ours != (case == "one reader"):
            return "FAIL", f"the product with {case}: Aidge fuses {made['Linear']}, " \
                           f"memplan {ours}"
        diff, got = in_aidge_order(doc, theirs, tmp, "inner_readers")
        if diff or got != real:
            return "FAIL", f"the product with {case}: {diff or f'{got:,} B, Aidge {real:,} B'}"
        said.append(f"{case}: {ours} Linear, {real} B")
    return "ok", "MatMul-*>Add, the product with " + "; ".join(said)


def render():
    """docs/recipes.md's table from tests/data/recipes/fusions.json and memplan's CLI."""
    rec = json.loads((ROOT / "tests/data/recipes/fusions.json").read_text())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ALL:
            path = pathlib.Path(tmp) / f"{name}.onnx"
            path.write_bytes(gzip.open(FIXTURES / f"{name}.onnx.gz").read())
            ours = {}
            for mode, extra in (("plain", []), ("fused", ["--recipes", RECIPES])):
                out = subprocess.run([str(MEMPLAN), "stats", str(path), "--json", *extra],
                                     check=True, capture_output=True, text=True).stdout
                ours[mode] = int(json.loads(out)["peak"])
            r = rec[name]
            cells = []
            for mode in ("plain", "fused"):
                real = " / ".join(f"{p:,}" for p in r[mode]["aidge"])
                gap = " (gap)" if r[mode].get("known_gap") else ""
                cells += [real + gap, f"{ours[mode]:,}"]
            made = ", ".join(f"{r['fusions'][k]} {k}" for k in META + ["LayerNorm"]
                             if r["fusions"].get(k))
            rows.append(f"| {name} | {made} | " + " | ".join(cells) + " |")
    print("| model | fusions | plain: Aidge's runs (B) | plain: memplan, file's order (B) | "
          "fused: Aidge's runs (B) | fused: memplan, file's order (B) |")
    print("|---|---|---:|---:|---:|---:|")
    print("\n".join(rows))
    return 0


def main(argv):
    if "--render" in argv:
        return render()
    record = next((a.split("=", 1)[1] for a in argv if a.startswith("--record=")), None)
    runs = int(next((a.split("=", 1)[1] for a in argv if a.startswith("--runs=")),
                    RECORD_RUNS if record else 1))
    args = [a for a in argv[1:] if not a.startswith("--")]
    names = ALL if "--all" in argv else (args or CI_MODELS)
    tally = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name in names:
            data = gzip.open(FIXTURES / f"{name}.onnx.gz").read()
            (tmp / f"{name}.onnx").write_bytes(data)
            full_bytes, dims = inflate(data)
            full = tmp / f"{name}.full.onnx"
            full.write_bytes(full_bytes)
            for mode in ["plain", "fused"]:
                start = time.monotonic()
                try:
                    status, what = check(name, mode, tmp, full, dims, runs)
                except Exception as e:  # noqa: BLE001 (one model's failure, said, not fatal)
                    status, what = "FAIL", f"{type(e).__name__}: {e}"
                tally[status] += 1
                print(f"{status:<4} {name} {mode}: {what} ({time.monotonic() - start:.1f} s)",
                      flush=True)
            full.unlink()
        status, what = inner_readers(tmp)
        tally[status] += 1
        print(f"{status:<4} inner readers: {what}", flush=True)
    if record:
        pathlib.Path(record).write_text(json.dumps(RECORD, indent=1, sort_keys=True,
                                                   ensure_ascii=False) + "\n")
    print(f"{tally['ok']} passed, {tally['FAIL']} failed, {tally['GAP']} known gaps")
    return 1 if tally["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
