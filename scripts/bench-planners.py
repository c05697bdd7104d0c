#!/usr/bin/env python3
"""Side-by-side benchmark of memplan against the public planners built beside it
(docs/benchmarks.md, "Against every public planner"). Nothing here is run by CI.

    nice -n 19 python3 scripts/bench-planners.py --memplan target/release/memplan \
        [--minimalloc PATH] [--idealloc PATH] [--budgets 2,10,30] --out DIR SET.csv...
    python3 scripts/bench-planners.py --memplan - --render --out - DIR/results.json...
    python3 scripts/bench-planners.py --memplan - --render --out - --doc docs/benchmarks.md \
        DIR/results.json...     # rewrites the table between its markers (scripts/doc_tables.py)

Per set and budget: `memplan plan --strategy best --budget MS` (wall clock of the
whole command: read, plan, write), MiniMalloc (`--capacity` = the file's capacity,
else the lower bound; `--timeout`, `--validate`), idealloc with its defaults (once:
it has no budget; needs its binary patched to write `IDEALLOC_OUT`, see the docs),
and TFLite's and TFLM's greedy rules (memplan's `greedy-size` and
`greedy-size-first-fit`, which are those planners exactly). Every plan is checked by
`check_placement` below (not memplan's checker): a sweep over time keeping live
address ranges sorted. Prints a Markdown table; raw results go to DIR/results.json.
"""
import argparse, bisect, csv, json, os, subprocess, sys, time


def read_set(path):
    inclusive = os.path.basename(path).lower().startswith("iree")
    items = {}
    for r in csv.DictReader(open(path)):
        lo, up = int(r["lower"]), int(r["upper"])
        if inclusive:
            up += 1
        items[r["id"].strip()] = (lo, max(up, lo + 1), int(r["size"]))
    return items


def lower_bound(items):
    ev = []
    for lo, up, size in items.values():
        ev += [(lo, 1, size), (up, 0, size)]
    ev.sort()
    live = best = 0
    for _, start, size in ev:
        live += size if start else -size
        best = max(best, live)
    return best


def check_placement(items, offsets):
    """Peak of a valid placement, or a string saying what is wrong."""
    missing = [k for k in items if k not in offsets]
    if missing:
        return f"{len(missing)} buffers without offset"
    events = []
    for k, (lo, up, size) in items.items():
        if size:
            events += [(up, 0, k), (lo, 1, k)]
    events.sort()
    live, peak = [], 0
    for t, start, k in events:
        iv = (offsets[k], offsets[k] + items[k][2], k)
        at = bisect.bisect_left(live, iv)
        if not start:
            live.pop(at)
            continue
        if (at and live[at - 1][1] > iv[0]) or (at < len(live) and live[at][0] < iv[1]):
            return f"buffers overlap at clock {t}"
        live.insert(at, iv)
        peak = max(peak, iv[1])
    return peak


def offsets_of(path):
    return {r["id"].strip(): int(r["offset"]) for r in csv.DictReader(open(path))}


def run(cmd, env=None, timeout=None):
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        p = subprocess.CompletedProcess(cmd, 124, "", f"no plan after {timeout} s (stopped)")
    return p, time.monotonic() - t


def capacity_of(path):
    stem = os.path.basename(path)[:-4]
    tail = stem.rsplit(".", 1)
    return int(tail[1]) if len(tail) == 2 and tail[1].isdigit() else None


def memplan(args, path, ids, strategy, ms, out):
    plan = os.path.join(out, "memplan.json")
    placed = os.path.join(out, "memplan.csv")
    p, wall = run([args.memplan, "plan", path, "--strategy", strategy, "--budget", str(ms), "-o", plan])
    if p.returncode:
        return {"error": p.stderr.strip()[-200:], "wall": wall}
    c, _ = run([args.memplan, "convert", plan, "--format", "csv", "-o", placed])
    if c.returncode:
        return {"error": c.stderr.strip()[-200:], "wall": wall}
    # `memplan convert --format csv` numbers the rows (the ids are the plan's labels),
    # in the input's order.
    rows = list(csv.DictReader(open(placed)))
    return {"offsets": {k: int(r["offset"]) for k, r in zip(ids, rows)}, "wall": wall}


def minimalloc(args, path, capacity, seconds, out):
    placed = os.path.join(out, "minimalloc.csv")
    if os.path.exists(placed):
        os.remove(placed)
    cmd = [args.minimalloc, f"--input={path}", f"--output={placed}", f"--capacity={capacity}",
           f"--timeout={seconds}s", "--validate"]
    # MiniMalloc's setup is not timed (IOPDDL S_1 at --timeout=2s: 522 s): stopped
    # `--minimalloc-grace` seconds past its timeout.
    p, wall = run(cmd, timeout=seconds + args.minimalloc_grace)
    if p.returncode or not os.path.exists(placed):
        return {"error": "no plan within the timeout" if "eadline" in p.stderr or "imeout" in p.stderr
                else p.stderr.strip()[-200:], "wall": wall}
    return {"offsets": offsets_of(placed), "wall": wall}


def idealloc(args, path, out):
    placed = os.path.join(out, "idealloc.csv")
    if os.path.exists(placed):
        os.remove(placed)
    fmt = "in-csv" if os.path.basename(path).lower().startswith("iree") else "ex-csv"
    env = dict(os.environ, IDEALLOC_OUT=placed)
    p, wall = run([args.idealloc, "-i", path, fmt], env=env, timeout=args.idealloc_timeout)
    if p.returncode or not os.path.exists(placed):
        panic = [l for l in p.stderr.splitlines() if "panicked" in l or "rror" in l]
        return {"error": (panic[0] if panic else p.stderr.strip())[-120:], "wall": wall}
    return {"offsets": offsets_of(placed), "wall": wall}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--memplan", required=True)
    ap.add_argument("--minimalloc")
    ap.add_argument("--idealloc")
    ap.add_argument("--budgets", default="2,10,30")
    ap.add_argument("--idealloc-timeout", type=float, default=300.0)
    ap.add_argument("--minimalloc-grace", type=float, default=30.0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--render", action="store_true",
                    help="only print the table of the SETs given as results.json files")
    ap.add_argument("--doc", metavar="FILE.md",
                    help="with --render: rewrite the table `planners-side-by-side` of FILE.md "
                         "(scripts/doc_tables.py) instead of printing it")
    ap.add_argument("sets", nargs="+")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    if args.render:
        results = [row for f in args.sets for row in json.load(open(f))]
        text = table(results, budgets, True, True)
        if args.doc:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import doc_tables
            command = "python3 scripts/bench-planners.py " + " ".join(sys.argv[1:])
            doc_tables.write(args.doc, "planners-side-by-side", command, text)
        else:
            print(text)
        return
    os.makedirs(args.out, exist_ok=True)
    results = []
    for path in args.sets:
        name = os.path.basename(path)
        items = read_set(path)
        lb = lower_bound(items)
        row = {"set": name, "buffers": len(items), "lower_bound": lb, "cells": {}}

        def record(key, r):
            if "offsets" in r:
                peak = check_placement(items, r.pop("offsets"))
                if isinstance(peak, str):
                    r["error"] = "INVALID: " + peak
                else:
                    r["peak"] = peak
            row["cells"][key] = r
            print(name, key, {k: v for k, v in r.items()}, file=sys.stderr, flush=True)

        for rule in ["greedy-size", "greedy-size-first-fit"]:
            record(rule, memplan(args, path, list(items), rule, 0, args.out))
        if args.idealloc:
            record("idealloc", idealloc(args, path, args.out))
        for b in budgets:
            record(f"best {b} s", memplan(args, path, list(items), "best", b * 1000, args.out))
            if args.minimalloc:
                cap = capacity_of(path) or lb
                record(f"minimalloc {b} s", minimalloc(args, path, cap, b, args.out))
        results.append(row)
        json.dump(results, open(os.path.join(args.out, "results.json"), "w"), indent=1)
    print(table(results, budgets, bool(args.minimalloc), bool(args.idealloc)))


def short(error):
    """A failed run's reason, in a few words."""
    if "(stopped)" in error:
        return "stopped"
    if "DEADLINE" in error or "no plan after" in error:
        return "no plan"
    if "panicked" in error:
        return "panics"
    return error.replace("|", "/").replace("\n", " ")[:40]


def table(results, budgets, with_mm, with_ia):
    cols = ["greedy-size", "greedy-size-first-fit"] + (["idealloc"] if with_ia else [])
    for b in budgets:
        cols += [f"best {b} s"] + ([f"minimalloc {b} s"] if with_mm else [])
    names = {"greedy-size": "TFLite rule", "greedy-size-first-fit": "TFLM rule",
             "idealloc": "idealloc (defaults)"}
    out = ["| set | buffers | lower bound | " + " | ".join(names.get(c, c) for c in cols) + " |",
           "|---|---:|---:|" + "---:|" * len(cols)]
    for r in results:
        cells = []
        for c in cols:
            x = r["cells"].get(c)
            if x is None:
                cells.append("–")
            elif "peak" in x:
                cells.append(f"{x['peak'] - r['lower_bound']:,} ({x['wall']:.1f} s)")
            else:
                cells.append(f"{short(x['error'])} ({x['wall']:.1f} s)")
        out.append(f"| {r['set']} | {r['buffers']:,} | {r['lower_bound']:,} | " + " | ".join(cells) + " |")
    return "\n".join(out)


main()
