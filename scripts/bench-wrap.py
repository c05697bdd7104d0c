#!/usr/bin/env python3
"""Wrap-around plans placed by their planes (docs/benchmarks.md): `best` on Aidge 0.10.1's
own wrap-around logs and on the schedules of six corpus models, against Aidge's plans and
the per-plane bound. Nothing here is run by CI (the verdicts are tests:
tests/strategies_shapes.rs, tests/strategies_orders.rs).

    cargo build --release --features tools
    nice python3 scripts/bench-wrap.py [--memplan target/release/memplan] \
        [--budgets 2000,10000,30000] [--log-budget 2000] [--only logs|schedules]
    nice python3 scripts/bench-wrap.py --doc docs/benchmarks.md     # rewrites both tables
    nice python3 scripts/bench-wrap.py --doc docs/benchmarks.md --doc-id wrap-logs

Table `wrap-logs`: each log of tests/data/aidge/wrap-logs/ (written by
tests/parity/wrap_logs.py: `generate_memory` with wrap-around, and the same with
`OptimizeMaxLifetimeMaxSizeFirst`): Aidge's peak and the log's per-plane bound (`memplan
stats --json`: `peak`, `lower_bound`), then `memplan plan LOG --strategy best --budget
LOG_BUDGET`: its peak, the plan's own bound, the wall time of the whole command.

Table `wrap-schedules`: each model's schedule (`memplan convert
tests/data/onnx/corpus/M.onnx.gz -o m.json`), Aidge's wrap-around + optimize plan of it
(`memplan plan m.json --from schedule --driver memory --wrap --optimize
OptimizeMaxLifetimeMaxSizeFirst`) with its per-plane bound, then `memplan plan m.json
--from schedule --strategy best --budget B` for each budget: peak and wall, the bound
`memplan stats --json` gives for the plan written (a schedule's bound is of that layout,
`bound_scope` "layout"), and whether `best` runs the branches in another order.

Every plan written is checked by `memplan check --json`; an invalid one shows as
**INVALID** in its cell. The bounds are `stats --json`'s `lower_bound`; the CLI does not
print the planner's `proven_optimal` (the tests assert it).
"""
import argparse, gzip, json, os, pathlib, shutil, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests/data/aidge/wrap-logs"
CORPUS = ROOT / "tests/data/onnx/corpus"
MODELS = ["googlenet", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "mobilenet_v3_small",
          "squeezenet1_1", "densenet121"]
IDS = {"logs": "wrap-logs", "schedules": "wrap-schedules"}
AIDGE = ["--from", "schedule", "--driver", "memory", "--wrap",
         "--optimize", "OptimizeMaxLifetimeMaxSizeFirst"]


class Run:
    def __init__(self, memplan, tmp):
        self.memplan, self.tmp, self.loads = memplan, tmp, []

    def cmd(self, *args):
        self.loads.append(os.getloadavg()[0])
        r = subprocess.run([self.memplan, *map(str, args)], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            raise SystemExit(f"memplan {' '.join(map(str, args))}: {r.stderr.strip()}")
        return r

    def stats(self, path):
        return json.loads(self.cmd("stats", "--json", path).stdout)

    def plan(self, src, out, *args):
        """(peak, own bound, wall s, valid, stderr) of `memplan plan SRC ARGS -o OUT`."""
        t = time.monotonic()
        r = self.cmd("plan", src, *args, "-o", out)
        wall = time.monotonic() - t
        if r.returncode != 0:
            raise SystemExit(f"memplan plan {src}: {r.stderr.strip()}")
        s = self.stats(out)
        valid = json.loads(self.cmd("check", "--json", out).stdout).get("problems") == []
        return s["peak"], s["lower_bound"], wall, valid, r.stderr


def n(b):
    return f"{b:,}"


def gap(peak, bound):
    if peak == bound:
        return "at the bound"
    d = peak - bound
    return f"{d:+,} B ({d / bound * 100:+.2f} %)".replace("-", "−")


def own(peak, bound):
    return f"{n(bound)}, {'reached' if peak == bound else 'not reached'}"


def cell(peak, wall, valid):
    return f"{n(peak)} ({wall:.2f} s)" + ("" if valid else " **INVALID**")


def logs_table(run, budget):
    rows = [f"| log | Aidge's peak | its per-plane bound | `best` {budget / 1000:g} s (wall) "
            "| plan's own bound | `best` − log's bound |",
            "|---|---:|---:|---:|---|---|"]
    suffix = ".memory_info.txt.gz"
    for log in sorted(LOGS.glob("*" + suffix), key=lambda f: f.name.removesuffix(suffix)):
        name = log.name.removesuffix(suffix)
        src = run.tmp / f"{name}.memory_info.txt"
        src.write_bytes(gzip.decompress(log.read_bytes()))
        s = run.stats(src)
        peak, bound, wall, valid, _ = run.plan(src, run.tmp / f"{name}.best.json",
                                             "--strategy", "best", "--budget", budget)
        rows.append(f"| {name} | {n(s['peak'])} | {n(s['lower_bound'])} | "
                    f"**{n(peak)}** ({wall:.2f} s){'' if valid else ' **INVALID**'} | "
                    f"{own(peak, bound)} | {gap(peak, s['lower_bound'])} |")
        print(rows[-1], file=sys.stderr)
    return "\n".join(rows)


def schedules_table(run, budgets):
    head = " | ".join(f"`best` {b / 1000:g} s (wall)" for b in budgets)
    rows = [f"| model | Aidge wrap + optimize | its per-plane bound | {head} "
            "| plan's own bound | other order | `best` − Aidge's bound |",
            "|---|---:|---:|" + "---:|" * len(budgets) + "---|---|---|"]
    for model in MODELS:
        onnx = run.tmp / f"{model}.onnx"
        onnx.write_bytes(gzip.decompress((CORPUS / f"{model}.onnx.gz").read_bytes()))
        sched = run.tmp / f"{model}.json"
        r = run.cmd("convert", onnx, "-o", sched)
        if r.returncode != 0:
            raise SystemExit(f"memplan convert {onnx}: {r.stderr.strip()}")
        apeak, abound, _, avalid, _ = run.plan(sched, run.tmp / f"{model}.aidge.json", *AIDGE)
        cells, last = [], None
        for b in budgets:
            last = run.plan(sched, run.tmp / f"{model}.best{b}.json", "--from", "schedule",
                            "--strategy", "best", "--budget", b)
            cells.append(cell(last[0], last[2], last[3]))
        peak, bound, _, _, err = last
        other = "yes" if "another order" in err else "no"
        rows.append(f"| {model} | {n(apeak)}{'' if avalid else ' **INVALID**'} | {n(abound)} | "
                    + " | ".join(cells) + f" | {own(peak, bound)} | {other} | {gap(peak, abound)} |")
        print(rows[-1], file=sys.stderr)
    return "\n".join(rows)


def commit():
    r = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--memplan", default=str(ROOT / "target/release/memplan"))
    ap.add_argument("--budgets", default="2000,10000,30000",
                    help="the schedules' budgets, in ms")
    ap.add_argument("--log-budget", type=int, default=2000, help="the logs' budget, in ms")
    ap.add_argument("--only", choices=sorted(IDS), help="compute one table only")
    ap.add_argument("--doc", metavar="FILE.md",
                    help="rewrite the tables of FILE.md (scripts/doc_tables.py) instead of "
                         "printing them")
    ap.add_argument("--doc-id", choices=sorted(IDS.values()),
                    help="with --doc: the one table to compute and rewrite")
    args = ap.parse_args()
    if not os.access(args.memplan, os.X_OK):
        raise SystemExit(f"{args.memplan}: not built (cargo build --release --features tools)")
    budgets = [int(b) for b in args.budgets.split(",")]
    which = [args.only] if args.only else sorted(IDS)
    if args.doc_id:
        which = [k for k, v in IDS.items() if v == args.doc_id]
    started, load0 = time.time(), os.getloadavg()[0]
    tables = {}
    with tempfile.TemporaryDirectory(prefix="bench-wrap-") as tmp:
        run = Run(args.memplan, pathlib.Path(tmp))
        for k in which:
            run.loads = []
            t = time.monotonic()
            table = (logs_table(run, args.log_budget) if k == "logs"
                     else schedules_table(run, budgets))
            note = (f"memplan at {commit()}; {time.monotonic() - t:.0f} s of wall time; load "
                    f"average {load0:.1f} at the start, {min(run.loads):.1f}–"
                    f"{max(run.loads):.1f} during the run; every plan valid by `memplan "
                    f"check` unless marked.")
            if "INVALID" in table:
                note = note.replace(" unless marked.", ": **not all** (marked).")
            tables[k] = note + "\n\n" + table
    print(f"bench-wrap: {time.time() - started:.0f} s", file=sys.stderr)
    if not args.doc:
        for k in which:
            print(f"{IDS[k]}:\n\n{tables[k]}\n")
        return
    sys.path.insert(0, str(ROOT / "scripts"))
    import doc_tables
    command = "python3 scripts/bench-wrap.py " + " ".join(sys.argv[1:])
    for k in which:
        doc_tables.write(args.doc, IDS[k], command, tables[k])


if __name__ == "__main__":
    main()
