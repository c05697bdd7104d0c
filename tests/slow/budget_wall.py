"""`memplan plan --budget MS` times the whole command: reading, planning every memory
component and writing (README, "The CLI"). This runs the real command on the largest
committed sets, times it from outside (the wall clock of the process, start to exit),
and holds it to its budget.

Not in CI (`npm test`): a timing assertion on a machine shared with other jobs would be
flaky there. `npm run test:slow` runs it (scripts/test-slow.sh). The tolerance: 10 % of the
budget (see TOLERANCE), plus the process's own start and exit, measured here on `memplan
--version` (the budget's clock starts inside the process).

Usage: python3 tests/slow/budget_wall.py [--memplan target/release/memplan]
"""

import argparse
import gzip
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "data" / "bench"
#: (file, strategy, budget in ms, extra arguments): the largest buffer list committed
#: (SOMAS PanGu-2.6B, 18,692 buffers) with `best` and `search` at the page's default
#: and at 10 s, a dense one (BERT), and two schedules: DenseNet-121 read from its ONNX
#: model (the drivers' configurations, then the re-placements, then the checker of the
#: winner, all inside the budget; the example of docs/history/benchmarks.md, "The
#: budget and the public planners") and an Aidge export of EfficientNet-B0 planned from
#: its schedule.
DENSE = pathlib.Path("dense-1000000.csv")  # generated in the run's folder
RUNS = [
    (BENCH / "idealloc" / "somas_pangu_2.6B.csv", "best", 2000, []),
    (BENCH / "idealloc" / "somas_pangu_2.6B.csv", "search", 2000, []),
    (BENCH / "idealloc" / "somas_pangu_2.6B.csv", "best", 10000, []),
    (BENCH / "idealloc" / "somas_bert_base.csv", "best", 2000, []),
    (ROOT / "tests" / "data" / "onnx" / "corpus" / "densenet121.onnx.gz", "best", 2000, []),
    (ROOT / "tests" / "data" / "aidge" / "efficientnet_b0-autoconcat-None.json", "best", 2000,
     ["--from", "schedule"]),
    # A dense trace of 10^6 buffers (`scripts/gen-synthetic.mjs 1000000 --dense`, written
    # here): too dense for a greedy pass, so the sweep goes first, and stops at the
    # budget's end (issue #52: it took its 2 s whatever the budget). Reading the 26 MB
    # CSV takes 2 s on the shared machine and writing the plan 3.5 s, so the budget is
    # 8 s, of which `Budget::whole` leaves the planner only what reading and writing do
    # not take.
    (DENSE, "best", 8000, []),
]
#: docs/history/benchmarks.md ("The budget and the public planners", issue #29) measured
#: the walls at most 3.6 % over (load average 6-9 on 2 cores); on this shared machine a
#: run at load 12 saw `search` 6.5 % over. The test is there to
#: catch a phase that ignores the clock (IOPDDL S_1 took 82 s of a 5 s budget before
#: issue #29), so it allows 10 %.
TOLERANCE = 0.10


def wall(cmd):
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    return time.monotonic() - t0, r


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--memplan", default=str(ROOT / "target" / "release" / "memplan"))
    a = ap.parse_args(argv[1:])
    start, r = min((wall([a.memplan, "--version"]) for _ in range(3)), key=lambda x: x[0])
    if r.returncode:
        print(f"{a.memplan} --version failed: {r.stderr.strip()}")
        return 1
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"process start and exit: {start * 1000:.0f} ms; load average {load} "
          f"on {os.cpu_count()} cores (walls stretch on a loaded machine)")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path, strategy, budget, extra in RUNS:
            out = pathlib.Path(tmp) / "plan.json"
            out.unlink(missing_ok=True)
            if path == DENSE:
                model = pathlib.Path(tmp) / DENSE
                with open(model, "w") as f:
                    subprocess.run(["node", str(ROOT / "scripts" / "gen-synthetic.mjs"),
                                    "1000000", "--dense"], stdout=f, check=True)
            elif path.suffix == ".gz":  # the CLI reads the model itself, not its archive
                model = pathlib.Path(tmp) / path.stem
                model.write_bytes(gzip.decompress(path.read_bytes()))
            else:
                model = path
            cmd = [a.memplan, "plan", str(model), "--strategy", strategy,
                   "--budget", str(budget), "-o", str(out), *extra]
            took, r = wall(cmd)
            limit = budget / 1000 * (1 + TOLERANCE) + start
            ok = r.returncode == 0 and out.exists() and took <= limit
            failed += not ok
            rel = path.relative_to(ROOT) if path.is_absolute() else path
            print(f"{'ok  ' if ok else 'FAIL'} {rel} {strategy} --budget {budget}: "
                  f"{took:.2f} s ({(took - start) / (budget / 1000) - 1:+.1%} of the budget; "
                  f"limit {limit:.2f} s)"
                  + ("" if r.returncode == 0 else f", exit {r.returncode}: {r.stderr.strip()}")
                  + ("" if r.returncode or out.exists() else ", no plan written"),
                  flush=True)
    print(f"{len(RUNS) - failed} within their budget, {failed} over")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
