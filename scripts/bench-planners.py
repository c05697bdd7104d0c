#!/usr/bin/env python3
"""Side-by-side benchmark of memplan against the public planners built beside it
(docs/benchmarks.md, "Against the tuned planners"; the first, untuned run is in
docs/history/benchmarks.md, "The budget and the public planners"). Nothing here is run by CI.

    nice -n 19 python3 scripts/bench-planners.py --memplan target/release/memplan \
        [--minimalloc PATH] [--idealloc PATH] [--idealloc-lives 1,2,4,...] \
        [--budgets 2,10,30,120] [--no-best] [--reuse OLD/results.json] --out DIR SET.csv...
    python3 scripts/bench-planners.py --memplan - --budgets 2,10,30,120 --render --out - \
        DIR/results.json...
    python3 scripts/bench-planners.py --memplan - --budgets 2,10,30,120 --render --out - \
        --doc docs/benchmarks.md DIR/results.json...   # rewrites table planners-tuned in place

Per set and budget: `memplan plan --strategy best --budget MS` (wall clock of the
whole command: read, plan, write); MiniMalloc's capacity-minimising search
(`--minimize_capacity`, from the file's capacity, else TFLite's peak; `--timeout`,
`--validate`); idealloc with each `-l` of `--idealloc-lives` in turn until a run takes
longer than the largest budget (it has no budget; needs its binary patched to write
`IDEALLOC_OUT`, see the docs), reported per budget as its lowest peak among the runs
that ended within it; and TFLite's and TFLM's greedy rules (memplan's `greedy-size`
and `greedy-size-first-fit`, which are those planners exactly). Every plan is checked
by `check_placement` below (not memplan's checker): a sweep over time keeping live
address ranges sorted. Raw results (with the command, date, machine and load) go to
DIR/results.json; `--render` prints the Markdown table of one or more of them (rows of
one set merged, so the other planners can be measured once and `best` again with
`--no-best`/`--reuse`), under the command, date, machine and load of each run.
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


def minimalloc(args, path, capacity, seconds, out, minimize=False):
    placed = os.path.join(out, "minimalloc.csv")
    if os.path.exists(placed):
        os.remove(placed)
    cmd = [args.minimalloc, f"--input={path}", f"--output={placed}", f"--capacity={capacity}",
           f"--timeout={seconds}s", "--validate"] + (["--minimize_capacity"] if minimize else [])
    # MiniMalloc's setup is not timed (IOPDDL S_1 at --timeout=2s: 522 s): stopped
    # `--minimalloc-grace` seconds past its timeout.
    p, wall = run(cmd, timeout=seconds + args.minimalloc_grace)
    if p.returncode or not os.path.exists(placed):
        return {"error": "no plan within the timeout" if "eadline" in p.stderr or "imeout" in p.stderr
                else p.stderr.strip()[-200:], "wall": wall}
    return {"offsets": offsets_of(placed), "wall": wall}


def idealloc(args, path, lives, out):
    placed = os.path.join(out, "idealloc.csv")
    if os.path.exists(placed):
        os.remove(placed)
    fmt = "in-csv" if os.path.basename(path).lower().startswith("iree") else "ex-csv"
    env = dict(os.environ, IDEALLOC_OUT=placed)
    p, wall = run([args.idealloc, "-i", path, fmt, "-l", str(lives)], env=env,
                  timeout=args.idealloc_timeout)
    if p.returncode or not os.path.exists(placed):
        panic = [l for l in p.stderr.splitlines() if "panicked" in l or "rror" in l]
        return {"error": (panic[0] if panic else p.stderr.strip())[-120:], "wall": wall}
    return {"offsets": offsets_of(placed), "wall": wall}


def machine():
    """What the run was measured on, for the table's caption."""
    cpu = "?"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {"cpu": cpu, "cores": os.cpu_count(), "memplan_commit": rev.stdout.strip() or "?"}


def load():
    return round(os.getloadavg()[0], 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--memplan", required=True)
    ap.add_argument("--minimalloc")
    ap.add_argument("--idealloc")
    ap.add_argument("--budgets", default="2,10,30")
    ap.add_argument("--idealloc-lives", default="1,2,4,8,16,32,64,128",
                    help="idealloc's -l values, tried in this order until one run takes "
                         "longer than the largest budget")
    ap.add_argument("--idealloc-timeout", type=float, default=300.0)
    ap.add_argument("--minimalloc-grace", type=float, default=30.0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-best", action="store_true",
                    help="run only the other planners (and the greedy rules)")
    ap.add_argument("--reuse", action="append", default=[],
                    help="a results.json whose cells of other planners than `best` (the greedy "
                         "rules too) are "
                         "kept instead of being measured again (several may be given)")
    ap.add_argument("--render", action="store_true",
                    help="only print the table of the SETs given as results.json files")
    ap.add_argument("--doc", metavar="FILE.md",
                    help="with --render: rewrite a table of FILE.md (scripts/doc_tables.py) "
                         "instead of printing it")
    ap.add_argument("--doc-id", default="planners-tuned",
                    help="with --doc: the table's id (planners-tuned: the 2/10/30/120 s table "
                         "of issue #38, docs/benchmarks.md; planners-side-by-side: the older one, "
                         "docs/history/benchmarks.md)")
    ap.add_argument("sets", nargs="+")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    if args.render:
        runs = [json.load(open(f)) for f in args.sets]
        # A results.json of before 2026-12-07 is a bare list of rows.
        runs = [r if isinstance(r, dict) else {"meta": {}, "rows": r} for r in runs]
        # Rows of one set from several runs are merged (a later run's cells win).
        rows = {}
        for r in runs:
            for row in r["rows"]:
                rows.setdefault(row["set"], dict(row, cells={}))["cells"].update(row["cells"])
        text = render([{"meta": r["meta"], "rows": []} for r in runs[:-1]]
                      + [{"meta": runs[-1]["meta"], "rows": list(rows.values())}], budgets)
        if args.doc:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import doc_tables
            command = "python3 scripts/bench-planners.py " + " ".join(sys.argv[1:])
            doc_tables.write(args.doc, args.doc_id, command, text)
        else:
            print(text)
        return
    os.makedirs(args.out, exist_ok=True)
    meta = dict(machine(), command=" ".join(sys.argv), budgets=budgets,
                started=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load_start=load(),
                loads=[])
    results = {"meta": meta, "rows": []}
    reused = {}
    for f in args.reuse:
        old = json.load(open(f))
        for r in old["rows"] if isinstance(old, dict) else old:
            for k, x in r["cells"].items():
                if not k.startswith("best "):
                    reused.setdefault(r["set"], {})[k] = x
        meta["reused"] = meta.get("reused", []) + [old.get("meta", {}) if isinstance(old, dict) else {}]
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
            r["load"] = load()
            meta["loads"].append(r["load"])
            row["cells"][key] = r
            print(name, key, {k: v for k, v in r.items()}, file=sys.stderr, flush=True)

        row["cells"].update(reused.get(name, {}))
        for rule in ["greedy-size", "greedy-size-first-fit"]:
            if rule not in row["cells"]:
                record(rule, memplan(args, path, list(items), rule, 0, args.out))
        if args.idealloc and not any(k.startswith("idealloc") for k in row["cells"]):
            for lives in [int(x) for x in args.idealloc_lives.split(",")]:
                record(f"idealloc -l {lives}", idealloc(args, path, lives, args.out))
                if row["cells"][f"idealloc -l {lives}"]["wall"] > max(budgets):
                    break
        # MiniMalloc minimises from a capacity that fits: the file's, else TFLite's peak.
        fits = capacity_of(path) or row["cells"]["greedy-size"].get("peak") or 2 * lb
        for b in budgets:
            if not args.no_best:
                record(f"best {b} s", memplan(args, path, list(items), "best", b * 1000, args.out))
            if args.minimalloc and f"minimalloc {b} s" not in row["cells"]:
                record(f"minimalloc {b} s", minimalloc(args, path, fits, b, args.out, True))
        results["rows"].append(row)
        meta["ended"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        json.dump(results, open(os.path.join(args.out, "results.json"), "w"), indent=1)
    print(render([results], budgets))


def short(error):
    """A failed run's reason, in a few words."""
    if "(stopped)" in error:
        return "stopped"
    if "DEADLINE" in error or "no plan after" in error or "not found" in error.lower():
        return "no plan"
    if "panicked" in error:
        return "panics"
    return error.replace("|", "/").replace("\n", " ")[:40]


def cell(x, lb):
    if "peak" in x:
        return f"{x['peak'] - lb:,} ({x['wall']:.1f} s)"
    return f"{short(x['error'])} ({x['wall']:.1f} s)"


def idealloc_within(r, seconds):
    """idealloc's lowest peak among its -l runs that ended within `seconds` (any time
    when None), as a cell with its -l."""
    runs = [(x["peak"], x["wall"], k.split()[-1]) for k, x in r["cells"].items()
            if k.startswith("idealloc -l ") and "peak" in x
            and (seconds is None or x["wall"] <= seconds)]
    if not runs:
        tried = [x for k, x in r["cells"].items() if k.startswith("idealloc -l ")]
        if not tried:
            return "–"
        fail = [x for x in tried if "error" in x]
        return f"{short(fail[0]['error'])} ({fail[0]['wall']:.1f} s)" if fail else "none in time"
    peak, wall, lives = min(runs)
    return f"{peak - r['lower_bound']:,} (-l {lives}, {wall:.1f} s)"


def table(rows, budgets):
    with_mm = any(k.startswith("minimalloc") for r in rows for k in r["cells"])
    with_ia = any(k.startswith("idealloc") for r in rows for k in r["cells"])
    head = ["TFLite rule", "TFLM rule"] + (["idealloc, best -l (any time)"] if with_ia else [])
    for b in budgets:
        head += [f"best {b} s"] + ([f"idealloc ≤ {b} s"] if with_ia else []) \
            + ([f"MiniMalloc min {b} s"] if with_mm else [])
    out = ["| set | buffers | lower bound | " + " | ".join(head) + " |",
           "|---|---:|---:|" + "---:|" * len(head)]
    for r in rows:
        lb, c = r["lower_bound"], r["cells"]
        get = lambda k: cell(c[k], lb) if k in c else "–"
        cells = [get("greedy-size"), get("greedy-size-first-fit")]
        if with_ia:
            cells.append(idealloc_within(r, None))
        for b in budgets:
            cells.append(get(f"best {b} s"))
            if with_ia:
                cells.append(idealloc_within(r, b))
            if with_mm:
                cells.append(get(f"minimalloc {b} s"))
        out.append(f"| {r['set']} | {r['buffers']:,} | {lb:,} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def render(runs, budgets):
    """The table of every run, each under the command, date, machine and load it was
    measured with (what docs/benchmarks.md shows between its markers)."""
    out = []
    for run_ in runs:
        m = run_["meta"]
        if m:
            loads = m.get("loads") or [m.get("load_start", 0)]
            out.append(f"Measured {m.get('started')} – {m.get('ended')}, memplan at "
                       f"{m.get('memplan_commit')}, {m.get('cores')} cores ({m.get('cpu')}), load "
                       f"average {m.get('load_start')} at the start, {min(loads)}–{max(loads)} "
                       f"during the run. Command:\n\n    {m.get('command')}\n")
            for old in m.get("reused", []):
                out.append(f"Cells of the other planners reused from the run of {old.get('started')} – "
                           f"{old.get('ended')} (load {min(old.get('loads') or [0])}–"
                           f"{max(old.get('loads') or [0])}):\n\n    {old.get('command')}\n")
        if run_["rows"]:
            out.append(table(run_["rows"], m.get("budgets") or budgets))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


main()
