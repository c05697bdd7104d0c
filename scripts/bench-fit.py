#!/usr/bin/env python3
"""`memplan fit` beside TiGrIS 0.12.1 and Aidge 0.10.1's priority spill (issue #47),
outside CI: for each model of the ONNX corpus below, at fast budgets of 64K, 256K and
512K with 8 MiB of slow memory, memplan's verdict, bank peaks and slow traffic (float32,
and int8 as aidge-export-cpp deploys it: `--recipes export-cpp --dtype int8`), Aidge's
priority spill on the same schedule (the multiple-mems driver with the map's capacities,
from `memplan fit --json`'s `aidge_spill`), and `tigris analyze M.onnx -m FAST+8M --json`
on the float32 model (TiGrIS reads the model's own dtype: it has no int8 of these).
memplan's float32 fit also tries tiling (issue #48: its first stage run patch by patch,
`memplan fit`'s default, with a search of `--tile-budget`): the "+ tiling" columns are
its answer (the tiled model's fit when tiling is chosen, else the untiled one's), beside
the untiled columns.

    PYTHON scripts/bench-fit.py [--tigris PATH] [--doc] [--models a,b,...] [--tile-budget MS]

(PYTHON with `onnx` and `numpy`, e.g. the venv TiGrIS is installed in: the corpus' weights
are stripped, and TiGrIS gets a copy with zeros of each initializer's shape.)

`--doc` writes the table into docs/benchmarks.md (`scripts/doc_tables.py`, table
`fit-tigris`). Needs `target/release/memplan` (`cargo build --release`) and, for the
TiGrIS columns, a `tigris` 0.12.1 (`pip install tigris-ml==0.12.1`); without it they
read "not run".

Read TiGrIS's figures with care: it tiles chains of layers throughout the network
(memplan tiles one stage from the input), and its slow traffic has been seen at 0 B
beside megabytes of slow memory.
"""

import argparse
import gzip
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = ROOT / "target" / "release" / "memplan"
CORPUS = ROOT / "tests" / "data" / "onnx" / "corpus"
MODELS = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "mnasnet0_5",
          "regnet_x_400mf", "efficientnet_b0", "squeezenet1_1", "shufflenet_v2_x0_5",
          "densenet121"]
FAST = ["64K", "256K", "512K"]
SLOW = "8M"


def mib(b):
    """Bytes as MiB with two decimals (the table's unit)."""
    return "—" if b is None else f"{b / 1048576:.2f}"


def memplan_fit(model, memory, int8, tile_ms):
    args = [str(CLI), "fit", str(model), "--memory", memory, "--json", "--budget", "2000"]
    if int8:
        args += ["--recipes", "export-cpp", "--dtype", "int8", "--no-tile"]
    else:
        args += ["--tile-budget", str(tile_ms)]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        return {"error": run.stderr.strip().splitlines()[-1] if run.stderr else "failed"}
    return json.loads(run.stdout)


def with_weights(model):
    """The corpus' models have their weights stripped (memplan reads shapes only); TiGrIS
    reads the weights, so it gets a copy with each empty initializer filled with zeros
    of its shape (needs the `onnx` package: run this script with a Python that has it)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper
    m = onnx.load(str(model))
    for i, init in enumerate(m.graph.initializer):
        if init.raw_data or init.float_data or init.int64_data or init.int32_data:
            continue
        dtype = onnx.helper.tensor_dtype_to_np_dtype(init.data_type)
        zero = numpy_helper.from_array(np.zeros(tuple(init.dims), dtype=dtype), init.name)
        m.graph.initializer[i].CopyFrom(zero)
    out = model.with_suffix(".weights.onnx")
    onnx.save(m, str(out))
    return out


def tigris(exe, model, memory):
    if not exe:
        return {"error": "not run"}
    run = subprocess.run([exe, "analyze", str(model), "-m", memory, "--json"],
                         capture_output=True, text=True, timeout=900)
    try:
        return json.loads(run.stdout)
    except json.JSONDecodeError:
        last = (run.stderr or run.stdout).strip().splitlines()
        return {"error": last[-1][:80] if last else f"exit {run.returncode}"}


def memplan_cells(f):
    if "error" in f:
        e = f["error"]
        if "has no kernel in aidge-export-cpp" in e:
            e = "export-cpp has no kernel for a node"
        return [e[:60], "", "", "", ""]
    verdict = {"fits-fast": "fast only", "fits-with-slow": "fits + slow",
               "does-not-fit": "does not fit"}[f["verdict"]]
    peaks = " / ".join(mib(b["peak"]) for b in f["banks"])
    a = f.get("aidge_spill")
    if a is None:
        aidge = "—"
    elif a.get("error"):
        aidge = "fails (no component has room)"
    else:
        aidge = (f"{'fits' if a['fits'] else 'over'}: {mib(a['banks'][1]['peak'])} slow, "
                 f"{mib(a['slow_traffic']['total'])} traffic")
    return [verdict, mib(f["sweep"]["min_fast"]), peaks, mib(f["slow_traffic"]["total"]), aidge]


def tiled_cells(f):
    """The answer of a fit that tried tiling: verdict (and the grid when tiled), bank
    peaks, slow traffic."""
    if "error" in f:
        return ["", "", ""]
    t = f.get("tiling")
    chosen = t is not None and t["chosen"]
    answer = t["fit"] if chosen else f
    verdict = {"fits-fast": "fast only", "fits-with-slow": "fits + slow",
               "does-not-fit": "does not fit"}[answer["verdict"]]
    if chosen:
        s = t["stages"][0]
        verdict += f", tiled {s['rows']}×{s['cols']} to {s['cut'][:28]}, +{t['macs_added_percent']:.0f} % MACs"
    else:
        verdict += ", untiled"
    peaks = " / ".join(mib(b["peak"]) for b in answer["banks"])
    return [verdict, peaks, mib(answer["slow_traffic"]["total"])]


def tigris_cells(t):
    if "error" in t:
        return [t["error"], "", ""]
    unsupported = t["model"].get("unsupported_operators") or []
    if unsupported:
        # Each is "node (OpType)": the operator types it refuses.
        names = sorted({str(u).rsplit("(", 1)[-1].rstrip(")") for u in unsupported})
        return ["refuses " + ", ".join(names)[:50], "", ""]
    fast, slow = t["fast"], t["slow"] or {}
    traffic = slow.get("traffic") or {}
    total = (traffic.get("written") or 0) + (traffic.get("read") or 0)
    verdict = fast["verdict"] + ("" if slow.get("fits", True) else ", slow over")
    return [verdict, f"{mib(fast.get('scheduled_peak_bytes'))} / {mib(slow.get('peak_bytes'))}",
            mib(total) if slow else "—"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tigris", default=shutil.which("tigris"))
    ap.add_argument("--doc", action="store_true")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--tile-budget", type=int, default=4000,
                    help="milliseconds of each fit's tiling search (memplan fit --tile-budget)")
    a = ap.parse_args()
    head = ("| model | fast + 8M | memplan f32 | best peak MiB | bank peaks MiB | slow traffic MiB "
            "| memplan + tiling f32 | bank peaks MiB | slow traffic MiB "
            "| Aidge spill f32 | memplan int8 | int8 traffic MiB | TiGrIS f32 | TiGrIS peaks MiB "
            "| TiGrIS traffic MiB |")
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.models.split(","):
            model = pathlib.Path(tmp) / f"{name}.onnx"
            model.write_bytes(gzip.open(CORPUS / f"{name}.onnx.gz").read())
            weighted = with_weights(model) if a.tigris else model
            for fast in FAST:
                memory = f"{fast}+{SLOW}"
                f32 = memplan_fit(model, memory, False, a.tile_budget)
                i8 = memplan_fit(model, memory, True, a.tile_budget)
                t = tigris(a.tigris, weighted, memory)
                m = memplan_cells(f32)
                q = memplan_cells(i8)
                row = ([name, fast, m[0], m[1], m[2], m[3]] + tiled_cells(f32)
                       + [m[4], q[0], q[3]] + tigris_cells(t))
                rows.append("| " + " | ".join(row) + " |")
                print(rows[-1], file=sys.stderr, flush=True)
    table = "\n".join(rows) + "\n"
    sys.stdout.write(table)
    sys.stdout.flush()
    if a.doc:
        cmd = f"python scripts/bench-fit.py --tigris tigris --doc --tile-budget {a.tile_budget}"
        subprocess.run([sys.executable, str(ROOT / "scripts" / "doc_tables.py"), "write",
                        str(ROOT / "docs" / "benchmarks.md"), "fit-tigris", "--command", cmd],
                       input=table, text=True, check=True)


if __name__ == "__main__":
    main()
