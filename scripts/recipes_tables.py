#!/usr/bin/env python3
"""docs/recipes.md's tables of `--recipes export-cpp` against the real export, rendered
from the real exports' figures recorded in tests/data/recipes/export_cpp.json (written by
`tests/parity/recipes_diff.py --all --full --record=…`, which runs Aidge) and memplan's
CLI. Standard library only, so `scripts/doc_tables.py check` re-renders them in CI and a
figure that changes (the record's or memplan's) fails it.

    python3 scripts/recipes_tables.py export-cpp [--untimed]   # float32, table recipes-export-cpp
    python3 scripts/recipes_tables.py int8                     # --dtype int8, table recipes-int8

`--untimed` leaves empty the column a time budget decides (`--strategy best --budget 2000`,
whose figure depends on the machine): the check skips it, and skips its 2 s a model.
The binary: target/release/memplan (`CARGO_TARGET_DIR` honoured), or `MEMPLAN`.
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "data" / "recipes" / "export_cpp.json"
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
MEMPLAN = pathlib.Path(os.environ.get("MEMPLAN", TARGET / "release" / "memplan"))
#: The transformer is its folded fixture (docs/recipes.md, "Fold the model first").
TRANSFORMERS = {"hf_vit": ROOT / "tests" / "data" / "onnx" / "fusions" / "hf_vit.onnx.gz"}


def model(name):
    """The gzipped model of `name` (memplan reads it as it is)."""
    return TRANSFORMERS.get(name, ROOT / "tests" / "data" / "onnx" / "corpus" / f"{name}.onnx.gz")


def stats(path, *args):
    """`memplan stats --json` of `path` with `args`, and its stderr lines."""
    r = subprocess.run([str(MEMPLAN), "stats", "--json", str(path), *args], check=True,
                       capture_output=True, text=True)
    return json.loads(r.stdout), r.stderr.splitlines()


def best(path, tmp):
    """The peak of `memplan plan --recipes export-cpp --strategy best --budget 2000`."""
    out = pathlib.Path(tmp) / "best.json"
    subprocess.run([str(MEMPLAN), "plan", str(path), "--recipes", "export-cpp", "--strategy",
                    "best", "--budget", "2000", "-o", str(out)], check=True,
                   capture_output=True, text=True)
    return stats(out)[0]["peak"]


def export_cpp(untimed):
    rec = json.loads(RECORD.read_text())
    print("| model | export's mem_0 (B) | memplan `--recipes export-cpp` (B) | and `--strategy "
          "best` (2 s) (B) | graph as imported, default plan (B) | real figure from |")
    print("|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(rec):
            r, path = rec[name], model(name)
            deployed = stats(path, "--recipes", "export-cpp")[0]
            real = f"{r['mem_0']:,}" + (" (varies)" if r.get("order_dependent") else "")
            planned = "" if untimed else f"{best(path, tmp):,}"
            how = "whole export" if r.get("whole_export") else "export's front half"
            print(f"| {name} | {real} | {deployed['peak']:,} | {planned} | "
                  f"{stats(path)[0]['peak']:,} | {how} |")


def quantizer(notes):
    """What memplan says the int8 export's quantizer did, from its deployment's notes."""
    said = []
    for line in notes:
        if m := re.search(r"(\d+) Quantizer\(s\) inserted", line):
            said.append(f"{m[1]} Quantizers on shared Add operands")
        if m := re.search(r"cannot quantize a graph with a (\w+) node", line):
            said.append(f"refused ({m[1]}): float32")
        if "index output (int64)" in line:
            said.append("PadMaxPool's int64 indices planned")
    return "; ".join(said) or "none needed"


def int8():
    rec = json.loads(RECORD.read_text())
    print("| model | int8 export's mem_0 (B) | memplan (B) | what the quantizer did (memplan's "
          "notes) |")
    print("|---|---:|---:|---|")
    for name in sorted(n for n in rec if "int8" in rec[n]):
        got, notes = stats(model(name), "--recipes", "export-cpp", "--dtype", "int8")
        print(f"| {name} | {rec[name]['int8']['mem_0']:,} | {got['peak']:,} | "
              f"{quantizer(notes)} |")


def main(argv):
    if not MEMPLAN.exists():
        print(f"{MEMPLAN} is not built: cargo build --release", file=sys.stderr)
        return 2
    if argv[1:2] == ["export-cpp"]:
        export_cpp("--untimed" in argv)
        return 0
    if argv[1:2] == ["int8"]:
        int8()
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
