"""Parity of `memplan plan` (schedule-driven drivers) and `memplan convert` (Aidge text
log) with the real aidge_core 0.10.1 wheel, on real models and built graphs.

For every case (the ONNX models of $MEMPLAN_BENCH/models, default tests/data/bench,
resnet18 with Conv+ReLU fused into meta-operators (EXTRA_CASES), the graphs of
aidge_cases.py built with aidge_core's API: branches + Concat, residual adds, a
multi-output Split, channels-last Concats, Inception and DenseNet Concats, a grouped
Conv the wheel refuses) and every option combination of $MEMPLAN_BENCH/aidge/ (plus a
few the bench lacks, see EXTRA_COMBOS, and several memory components,
COMPONENT_COMBOS); and for the four models as aidge_export_cpp prepares them, in
NHWC (NHWC_CASES), on a subset of the combos (NHWC_COMBOS); in this one
process and from one scheduler per case (Aidge's node order can differ between
processes, so the schedule and Aidge's plan must come from the same one):

1. run Aidge's driver on the scheduler and write the memplan JSON the exporter
   (python/memplan/aidge/exporter.py) writes: the schedule and Aidge's plan;
2. `memplan plan FILE --driver D [--wrap] [--optimize S] [--alignment N] [--inc-producers]
   [--capacities C,... --priorities P,...] -o out.json` (where Aidge throws, memplan
   must fail with the same message);
3. compare out.json's plan with Aidge's plane by plane (node, index, clock, offset,
   size, stride, length, count, contiguous and wrapped parts, the space's offset,
   size, allocation, release and pending dependencies), then the max lifetime;
4. `memplan convert out.json -o memplan.txt` (`--format aidge-single` for the
   single-memory drivers) and compare it byte for byte with the memory_info.txt
   that aidge_core.mem_info.log_meminfo_text writes for the same MemoryManager
   (as the tool that wrote tests/data/bench/aidge/ did).

The memplan binary is $CARGO_TARGET_DIR/release/memplan (default target/);
tests/parity/run.py builds it first. Prints one line per export and
"N passed, N failed"; exits non-zero on any failure.

Usage: .venv/bin/python tests/parity/models_diff.py [CASE ...]
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))

import aidge_cases  # noqa: E402
import aidge_core  # noqa: E402
from memplan.aidge import exporter as memplan_aidge  # noqa: E402

BENCH = aidge_cases.BENCH
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
MEMPLAN = TARGET / "release" / "memplan"

# Combinations the bench does not hold that memplan reproduces too: optimize
# after a wrap-around plan, auto-concat with wrap-around, memory_alignment (100:
# rounds nearly every size) and inc_producers in each driver.
EXTRA_COMBOS = ["single-wrap-OptimizeMaxLifetimeMaxSizeFirst", "autoconcat-wrap-None",
                "multi-align100-None", "single-align100-None", "single-wrap-align100-None",
                "autoconcat-align100-None",
                "multi-incprod-None", "single-incprod-None", "single-wrap-incprod-None",
                "autoconcat-incprod-None"]


# Several memory components for multiple-mems, (capacities, priorities) by tag,
# given to `memplan plan` as --capacities/--priorities: a small first bank that
# overflows into a large one, reversed priorities, and three banks tried in the
# order 1, 0, 2.
COMPONENT_COMBOS = {
    "multi-banks-small-first-None": ([20000, 1000000000], [0, 1]),
    "multi-banks-priority-reversed-None": ([1000000000, 4000000], [1, 0]),
    "multi-banks-three-None": ([300000, 20000, 1000000000], [1, 0, 2]),
}


def resnet18_fused():
    """resnet18 with every PaddedConv2D->ReLU fused into a meta-operator, as the
    README flow does (meta-operators answer required data through their inner nodes)."""
    import gzip
    import shutil

    import aidge_onnx
    tmp = pathlib.Path(tempfile.mkdtemp(dir=aidge_cases.SCRATCH.name)) / "resnet18.onnx"
    with gzip.open(BENCH / "models" / "resnet18.onnx.gz") as f, open(tmp, "wb") as g:
        shutil.copyfileobj(f, g)
    graph = aidge_onnx.load_onnx(str(tmp))
    aidge_core.fuse_to_metaops(graph, "PaddedConv2D->ReLU", "ConvReLU")
    return aidge_cases._schedule(graph, [[1, 3, 224, 224]])


def broadcast_add():
    """Add of a [1,8,1,10] and a [1,8,10,1] tensor (two convs of the graph input):
    no input can be overwritten in place, and both are wrap-around candidates
    with the same reusable size, so the scan's tie rule decides (the first one
    stays)."""
    a = aidge_core.Conv2D(3, 8, [10, 1], name="a")
    b = aidge_core.Conv2D(3, 8, [1, 10], name="b")
    add = aidge_core.Add("add")
    a.add_child(add, 0, 0)
    b.add_child(add, 0, 1)
    relu = aidge_core.ReLU("relu")
    add.add_child(relu, 0, 0)
    graph = aidge_core.get_connected_graph_view(a)
    graph.add(b)
    return aidge_cases._schedule(graph, [[1, 3, 10, 10], [1, 3, 10, 10]])


EXTRA_CASES = {"resnet18_fused": resnet18_fused, "broadcast_add": broadcast_add}

# The four models as aidge_export_cpp prepares them (NHWC, export_cpp kernels:
# aidge_cases.model_nhwc), on the combos that exercise per-pixel planes in each
# driver. No inc_producers combo: the wheel itself segfaults on them for
# mobilenet_v2 in every driver (resnet18 and squeezenet1_1 pass all 17 combos).
NHWC_CASES = [m + aidge_cases.NHWC_SUFFIX for m in aidge_cases.MODELS]
NHWC_COMBOS = ["multi-None", "multi-align100-None", "single-wrap-None",
               "single-wrap-OptimizeMaxLifetimeMaxSizeFirst", "single-wrap-align100-None",
               "autoconcat-None", "autoconcat-wrap-None", "autoconcat-align100-None",
               "multi-banks-small-first-None"]


def bench_combos():
    """The option tags of $MEMPLAN_BENCH/aidge/<model>-<tag>/ (e.g. single-wrap-None)."""
    tags = set()
    models = sorted(aidge_cases.MODELS, key=len, reverse=True)
    for d in (BENCH / "aidge").iterdir():
        if not d.is_dir():
            continue
        model = next((m for m in models if d.name.startswith(m + "-")), None)
        if model is not None:
            tags.add(d.name[len(model) + 1:])
    return sorted(tags)


def parse_combo(tag):
    """(aidge driver, memplan --driver, wrap, inc_producers, optimize, alignment)
    of a tag such as single-wrap-align100-None."""
    parts = tag.split("-")
    driver = {"multi": "multiple_mems", "single": "memory", "autoconcat": "auto_concat"}[parts[0]]
    cli = {"multiple_mems": "multiple-mems", "memory": "memory", "auto_concat": "auto-concat"}
    optimize = None if parts[-1] == "None" else parts[-1]
    align = next((int(p[5:]) for p in parts if p.startswith("align")), 1)
    return driver, cli[driver], "wrap" in parts, "incprod" in parts, optimize, align


def aidge_export(scheduler, tag, path):
    """Runs Aidge's driver for `tag`, writes the memplan JSON (schedule + Aidge's
    plan, as memplan_aidge.export does) and returns the MemoryManager."""
    driver, _, wrap, inc, optimize, align = parse_combo(tag)
    caps, prios = COMPONENT_COMBOS.get(tag, ([1000000000], [0]))
    mm = memplan_aidge.aidge_plan(scheduler, driver, wrap, optimize, inc, align, caps, prios)
    components = None
    if driver == "multiple_mems":
        components = [{"name": f"MEM_{i}", "capacity": c, "priority": p}
                      for i, (c, p) in enumerate(zip(caps, prios))]
    doc = {"format": "memplan", "version": 1,
           "schedule": memplan_aidge.schedule_of(scheduler),
           "plan": memplan_aidge.plan_of(scheduler, mm, components, align)}
    path.write_text(json.dumps(doc, separators=(",", ":")))
    return mm, doc


def plane_key(plan, p):
    s = plan["spaces"][p["space"]]
    return ((p["node"], p["index"], p["allocated"], p["offset"], p["size"], p["stride"],
             p["length"], p["count"]),
            (p["cont_offset"], p["cont_size"], p["wrap_offset"], p["wrap_size"]),
            (s["offset"], s["size"], s["allocated"], s.get("released"), s.get("has_deps", False)))


def diff_plans(ours, aidge, steps):
    """The first difference between two plans, or None."""
    if len(ours["planes"]) != len(aidge["planes"]):
        return f"{len(ours['planes'])} planes, Aidge {len(aidge['planes'])}"
    for k, (a, b) in enumerate(zip(ours["planes"], aidge["planes"])):
        ka, kb = plane_key(ours, a), plane_key(aidge, b)
        if ka != kb:
            return f"plane {k} ({steps[b['node']]['name']}):\n    ours  {ka}\n    Aidge {kb}"
    if ours.get("alignment", 1) != aidge["alignment"]:
        return f"alignment {ours.get('alignment', 1)}, Aidge {aidge['alignment']}"
    if ours.get("max_lifetime") != aidge["max_lifetime"]:
        return f"max lifetime {ours.get('max_lifetime')}, Aidge {aidge['max_lifetime']}"
    return None


def memplan(*args):
    r = subprocess.run([str(MEMPLAN), *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"memplan {' '.join(map(str, args))}: exit {r.returncode}: "
                           f"{r.stderr.strip()}")
    return r


def check(scheduler, case, tag, tmp):
    """Compares one export; returns None when exact, else the first difference."""
    _, cli_driver, wrap, inc, optimize, align = parse_combo(tag)
    src = tmp / f"{case}-{tag}.json"
    out = tmp / f"{case}-{tag}.plan.json"
    args = ["plan", src, "--driver", cli_driver, "-o", out]
    if wrap:
        args.append("--wrap")
    if inc:
        args.append("--inc-producers")
    if optimize:
        args += ["--optimize", optimize]
    if align != 1:
        args += ["--alignment", align]
    if tag in COMPONENT_COMBOS:
        caps, prios = COMPONENT_COMBOS[tag]
        args += ["--capacities", ",".join(map(str, caps)),
                 "--priorities", ",".join(map(str, prios))]
    try:
        mm, doc = aidge_export(scheduler, tag, src)
    except RuntimeError as e:
        # The wheel throws on some inputs (auto-concat + wrap on the split graph:
        # "offStack(): offset … not found in stack"): memplan must refuse the
        # same schedule with the same message.
        src.write_text(json.dumps({"format": "memplan", "version": 1,
                                   "schedule": memplan_aidge.schedule_of(scheduler)}))
        r = subprocess.run([str(MEMPLAN), *map(str, args)], capture_output=True, text=True)
        if r.returncode != 0 and str(e) in r.stderr:
            return None
        return f"Aidge threw {e!r}; memplan: exit {r.returncode} {r.stderr.strip()!r}"
    memplan(*args)
    ours = json.loads(out.read_text())["plan"]
    d = diff_plans(ours, doc["plan"], doc["plan"]["steps"])
    if d:
        return d
    golden = tmp / f"{case}-{tag}.aidge.txt"
    aidge_core.mem_info.log_meminfo_text(mm, golden, scheduler, cli_driver == "multiple-mems")
    text = tmp / f"{case}-{tag}.memplan.txt"
    # Aidge's log has the ` [MEM_i] @ t` suffix only for the multiple-mems driver
    # (log_meminfo_text's multiple_mems flag); memplan writes it by default.
    dialect = [] if cli_driver == "multiple-mems" else ["--format", "aidge-single"]
    memplan("convert", out, "-o", text, *dialect)
    a, b = text.read_bytes(), golden.read_bytes()
    if a != b:
        la, lb = a.decode().splitlines(), b.decode().splitlines()
        line = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
        got = la[line] if line < len(la) else "<end of file>"
        want = lb[line] if line < len(lb) else "<end of file>"
        return f"memory_info.txt line {line + 1}:\n    ours  {got!r}\n    Aidge {want!r}"
    return None


def main(argv):
    if not MEMPLAN.exists():
        print(f"{MEMPLAN} not found: run `cargo build --release --bins` (with the same "
              "CARGO_TARGET_DIR) or tests/parity/run.py")
        print("0 passed, 1 failed")
        return 1
    cases = argv[1:] or aidge_cases.CASES + list(EXTRA_CASES) + NHWC_CASES
    all_combos = bench_combos() + EXTRA_COMBOS + list(COMPONENT_COMBOS)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for case in cases:
            start = time.monotonic()
            build = EXTRA_CASES.get(case)
            scheduler = build() if build else aidge_cases.scheduler(case)
            combos = NHWC_COMBOS if case in NHWC_CASES else all_combos
            for tag in combos:
                try:
                    d = check(scheduler, case, tag, tmp)
                except RuntimeError as e:
                    d = str(e)
                if d is None:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {case}-{tag}: {d}", flush=True)
            print(f"{case}: {len(combos)} combos ({time.monotonic() - start:.1f} s)", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
