"""Runs Aidge's wrap-around plans in aidge-export-cpp 0.10.1 builds (issue #11).

Question: `generate_memory(wrap_around_buffer=True)` followed by `optimize(...)` makes
plans in which a space is placed over bytes of another space that the older
`memplan check` called live (a space's every plane was live until the space's
release). Are those plans wrong (an Aidge defect), or was the check too strict?

For every CNN of tests/data/bench/models, on one seeded random input (small, 64×64
by default, so that builds are fast), with exportcpp_diff.py's helpers:

1. reference: aidge_backend_cpu's outputs;
2. plain build: the default export (multiple-mems driver, no wrap) compiled and run;
3. for each wrap-around variant (`generate_memory` + wrap, then no optimize or one
   optimize strategy; Aidge's own placement, kept through
   `memplan.aidge.memory_manager(strategy="aidge")`): the export, `memplan check`
   (this checkout's CLI, target/debug/memplan or $MEMPLAN: build it first) of the
   plan it used (memory_info.memplan.json), the overlaps the space-lifetime
   rule would report (`old_rule`), the overlaps under *dataflow* liveness (each
   plane live from its write to its last reader's clock, read from the schedule:
   the ground truth, independent of the plan's own structure), and the build's
   outputs compared byte for byte with the plain build's;
4. an unsafe plan: the wrap + OptimizeMaxLifetimeMaxSizeFirst plan with one space
   moved so that one of its planes lands on a plane of another space that is still
   to be read (preferably a plane that an in-space successor replaces later, i.e.
   exactly the reuse the wrap-around rule allows only *after* the replacement).
   `memplan check` must flag it and its build must compute different outputs. An
   overwrite need not reach the graph's outputs (on ViT-tiny, at 64×64, the first two
   moves, onto the first MatMuls of an attention, left them bit-identical; why was
   not traced): the next moves are tried, up to UNSAFE_TRIES, until one does.

A model whose export-cpp build does not compile is reported with g++'s first error
(resnet18: its element-wise kernels `static_assert` "Incompatible input memory
wrapping"). Prints one JSON row per model and variant, then a Markdown table with
--markdown. Exits 1 when a wrap-around build differs from the plain one, or an unsafe
plan is not flagged or computes the same outputs. Not part of tests/parity/run.py
(several minutes per model). Results: docs/aidge-parity.md, "Wrap-around with optimize".

Usage: .venv/bin/python tests/parity/wrap_exec.py [--size 64] [--markdown] [--strategy best] [MODEL ...]
"""

import argparse
import contextlib
import importlib
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import exportcpp_diff as ecd  # noqa: E402

VARIANTS = [None, "OptimizeMaxLifetimeMinSizeFirst", "OptimizeMaxLifetimeMaxSizeFirst",
            "OptimizeMaxHoleMaxLifetimeFirst"]
UNSAFE_BASE = "OptimizeMaxLifetimeMaxSizeFirst"
# How many unsafe moves a model gets before its negative control counts as failed.
UNSAFE_TRIES = 3
#: The checker under test: this checkout's CLI (the installed memplan._native may be
#: another checkout's build).
MEMPLAN = os.environ.get("MEMPLAN", str(ecd.ROOT / "target" / "debug" / "memplan"))


def check(path):
    """`memplan check`'s problem lines for the plan file at `path`."""
    r = subprocess.run([MEMPLAN, "check", str(path)], capture_output=True, text=True)
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    if r.returncode == 0:
        return []
    return [ln.split(": ", 1)[1] if ": " in ln else ln for ln in lines] or [r.stderr.strip()]


@contextlib.contextmanager
def hooked(fn):
    """Installs `fn` as the export's generate_optimized_memory_info."""
    module = importlib.import_module("aidge_core.export_utils.export")
    original = module.generate_optimized_memory_info
    module.generate_optimized_memory_info = fn
    try:
        yield
    finally:
        module.generate_optimized_memory_info = original


def aidge_wrap(optimize, edit=None, strategy="aidge"):
    """Aidge's generate_memory + wrap-around [+ optimize] plan, unchanged (or changed
    by `edit(doc)`, which rewrites the stats folder's memplan file), or re-placed by
    memplan's `strategy` (`--strategy best`: spaces by their live planes, planes cut
    out of their space)."""
    import aidge_core
    from memplan.aidge import hook
    rule = getattr(aidge_core.OptimizeStrategy, optimize) if optimize else None

    def fn(scheduler, *args, **kwargs):
        kwargs = {**kwargs, "multiple_mems": False, "wrapping": True,
                  "mem_optimize_strategy": rule}
        mem, records = hook.memory_manager(scheduler, *args, strategy=strategy, **kwargs)
        if edit is None:
            return mem, records
        path = pathlib.Path(kwargs["stats_folder"]) / "memory_info.memplan.json"
        doc = json.loads(path.read_text())
        edit(doc)
        path.write_text(json.dumps(doc))
        plan = doc["plan"]
        mem = max(s["offset"] + s["size"] for s in plan["spaces"])
        return mem, hook.records(scheduler, json.dumps(doc))

    return fn


def space_last(plan, s):
    released = s.get("released")
    return released if released is not None and not s.get("has_deps") else plan["max_lifetime"]


def extents(p):
    out = [(p["cont_offset"], p["cont_offset"] + p["cont_size"])]
    if p["wrap_size"]:
        out.append((p["wrap_offset"], p["wrap_offset"] + p["wrap_size"]))
    return out


def dataflow_lives(doc):
    """Per plane: [written, last read] from the schedule (graph outputs and planes
    without a reader: to the max lifetime)."""
    plan, nodes = doc["plan"], doc["schedule"]["nodes"]
    clock = [s.get("clock") for s in plan["steps"]]
    out = []
    for p in plan["planes"]:
        o = nodes[p["node"]]["outputs"][p["index"]]
        reads = [clock[c["node"]] for c in o.get("consumers", []) if clock[c["node"]] is not None]
        last = max(reads) if reads and not o.get("graph_output") else plan["max_lifetime"]
        out.append((p["allocated"], max(last, p["allocated"])))
    return out


def space_lives(doc):
    """Per plane: the old rule, [written, its space's last live clock]."""
    plan = doc["plan"]
    return [(p["allocated"], space_last(plan, plan["spaces"][p["space"]])) for p in plan["planes"]]


def overlaps(doc, lives):
    """Pairs of planes of different spaces sharing bytes at a clock both are live."""
    planes = doc["plan"]["planes"]
    found = []
    for i, p in enumerate(planes):
        for j in range(i + 1, len(planes)):
            q = planes[j]
            if p["space"] == q["space"]:
                continue
            (a0, a1), (b0, b1) = lives[i], lives[j]
            if max(a0, b0) > min(a1, b1):
                continue
            if any(max(x0, y0) < min(x1, y1) for x0, x1 in extents(p) for y0, y1 in extents(q)):
                found.append((i, j))
    return found


def make_unsafe(doc, rank=0):
    """Moves one space so that a plane of it, written at clock t, lands on a plane of
    another space that is read after t: first choice, a plane that is later replaced
    in its own space (wrap-around / in place) but still to be read at t; `rank` takes
    the next choices (`rank` 1: the second best). Returns a description, and edits
    `doc` in place."""
    plan = doc["plan"]
    planes, spaces = plan["planes"], plan["spaces"]
    live = dataflow_lives(doc)
    later = {}
    for i, p in enumerate(planes):
        later[i] = any(q["space"] == p["space"] and q["allocated"] > p["allocated"]
                       for q in planes)
    choices = []
    for i, p in enumerate(planes):          # the victim: still to be read after t
        for j, q in enumerate(planes):      # the intruder, written at t
            if p["space"] == q["space"] or not p["allocated"] < q["allocated"] < live[i][1]:
                continue
            if q["cont_size"] < p["cont_size"] // 4 or q["wrap_size"]:
                continue
            if spaces[q["space"]]["offset"] + p["cont_offset"] - q["cont_offset"] < 0:
                continue  # no room below
            choices.append(((later[i], q["allocated"] - p["allocated"], p["cont_size"]), i, j))
    choices.sort(key=lambda c: c[0], reverse=True)
    if len(choices) <= rank:
        raise RuntimeError("no plane to move onto a plane still to be read")
    _, i, j = choices[rank]
    p, q = planes[i], planes[j]
    shift = p["cont_offset"] - q["cont_offset"]
    b = q["space"]
    spaces[b]["offset"] += shift
    for r in planes:
        if r["space"] == b:
            r["cont_offset"] += shift
            if r["wrap_size"]:
                r["wrap_offset"] += shift
    names = [s["name"] for s in plan["steps"]]
    return (f"space {b} moved by {shift:+d} B: {names[q['node']]} (written at {q['allocated']}) "
            f"over {names[p['node']]} (space {p['space']}, written at {p['allocated']}, read "
            f"until {live[i][1]}{', replaced in its space later' if later[i] else ''})")


def build(name, onnx_path, x, counts, folder, cache):
    try:
        return ecd.build_and_run(folder, counts, cache), None
    except RuntimeError as e:
        msg = str(e)
        m = re.search(r"error: (.*)", msg)
        return None, (m.group(1) if m else msg)[:200]


def run_model(name, size, tmp, cache, emit, strategy="aidge"):
    """Builds and compares every variant of one model; `emit(row)` gets each row."""
    onnx_path = tmp / f"{name}.onnx"
    ecd.prepared_onnx(name, onnx_path)
    x = np.random.default_rng(1).standard_normal((1, 3, size, size)).astype(np.float32)
    ref = ecd.reference(onnx_path, x)
    counts = [r.size for r in ref]
    want = np.concatenate(ref)
    plain_mem = ecd.export(onnx_path, x, tmp / f"{name}-plain")
    plain, err = build(name, onnx_path, x, counts, tmp / f"{name}-plain", cache)
    if plain is None:
        emit({"model": name, "variant": "plain", "error": err})
        return
    rel = float(np.max(np.abs(np.frombuffer(plain, np.float32) - want)) / np.max(np.abs(want)))
    emit({"model": name, "variant": "plain", "mem_0": plain_mem, "vs_backend": rel})

    def wrapped(variant, label, edit=None, strategy="aidge"):
        folder = tmp / f"{name}-{label}"
        with hooked(aidge_wrap(variant, edit, strategy)):
            mem = ecd.export(onnx_path, x, folder)
        path = folder / "stats" / "memory_info.memplan.json"
        doc = json.loads(path.read_text())
        problems = check(path)
        row = {"model": name, "variant": label, "mem_0": mem,
               "check": len(problems), "first_problem": problems[0] if problems else None,
               "old_rule": len(overlaps(doc, space_lives(doc))),
               "dataflow": len(overlaps(doc, dataflow_lives(doc)))}
        out, err = build(name, onnx_path, x, counts, folder, cache)
        if out is None:
            row["build"] = f"does not compile: {err}"
        else:
            got = np.frombuffer(out, np.float32)
            row["identical_to_plain"] = out == plain
            row["vs_backend"] = float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
        return row

    for v in VARIANTS:
        emit(wrapped(v, f"wrap+{v or 'None'}"))
        if strategy != "aidge":
            emit(wrapped(v, f"wrap+{v or 'None'}+{strategy}", strategy=strategy))
    # An overwrite need not reach the outputs (module docstring, item 4): the next
    # moves are tried, up to UNSAFE_TRIES, until a flagged plan computes something
    # else; each try is in the row.
    tries = []
    for rank in range(UNSAFE_TRIES):
        note = {}
        row = wrapped(UNSAFE_BASE, "unsafe",
                      lambda doc: note.setdefault("what", make_unsafe(doc, rank)))
        tries.append(note.get("what"))
        if row.get("check") and row.get("identical_to_plain") is False:
            break
    row["unsafe"] = tries[-1]
    row["tries"] = tries
    emit(row)


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="*", default=ecd.MODELS)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--strategy", default="aidge",
                    help="also build each wrap-around plan re-placed by this memplan strategy")
    a = ap.parse_args(argv[1:])
    import aidge_core
    aidge_core.Log.set_console_level(aidge_core.Level.Error)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        cache = tmp / "objects"
        cache.mkdir()
        def emit(row):
            print(json.dumps(row), flush=True)
            rows.append(row)

        for name in a.models:
            try:
                run_model(name, a.size, tmp, cache, emit, a.strategy)
            except Exception as e:  # one model's failure, its rows so far are kept
                emit({"model": name, "error": f"{type(e).__name__}: {e}"})
    if a.markdown:
        print("\n| model | plan | `mem_0` (B) | `memplan check` | overlaps, space rule |"
              " overlaps, dataflow | outputs |")
        print("|---|---|---:|---:|---:|---:|---|")
        for r in rows:
            if "mem_0" not in r:
                print(f"| {r['model']} | {r.get('variant', '')} | | | | | {r.get('error')} |")
                continue
            if "build" in r:
                out = r["build"]
            elif r["variant"] == "plain":
                out = f"max rel. diff vs aidge_backend_cpu {r['vs_backend']:.1e}"
            else:
                out = "bit-identical to plain" if r["identical_to_plain"] else \
                    f"DIFFERENT (max rel. diff {r['vs_backend']:.1e})"
            print(f"| {r['model']} | {r['variant']} | {r['mem_0']:,} | {r.get('check', '')} |"
                  f" {r.get('old_rule', '')} | {r.get('dataflow', '')} | {out} |")
    # The answer holds when every wrap-around build that runs equals the plain one, and
    # every unsafe plan is flagged and computes something else.
    bad = [r for r in rows if "error" in r
           or r.get("variant", "").startswith("wrap+") and r.get("identical_to_plain") is False
           or r.get("variant") == "unsafe"
           and (not r.get("check") or r.get("identical_to_plain", True) and "build" not in r)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
