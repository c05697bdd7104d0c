"""Runs every parity check against the real aidge_core 0.10.1 wheel.

Convention: a check is a file `tests/parity/<name>_diff.py` (one per area:
`manager_diff.py`, `models_diff.py`, ...). The runner first builds the release
binaries (`cargo build --release --bins --features tools`), then runs each check in its own
process as `<python> tests/parity/<name>_diff.py` from the repository root,
with this runner's interpreter (the .venv that has aidge_core). A check passes
when it exits 0; it prints its own details. The runner ends with the line
`N passed, N failed` and exits non-zero if any check failed.

Usage: .venv/bin/python tests/parity/run.py [NAME ...]   (names filter the checks,
e.g. `manager` runs only manager_diff.py)

Several checks feed aidge_core cases it refuses (to check that memplan refuses them
too); aidge_core then prints red `[ERROR] Assertion failed ...` lines before raising,
which read like failures. The runner holds such lines back and counts them: a check
that passes prints the count only, a check that fails prints them all.
MEMPLAN_AIDGE_NOISE=1 prints them as they come.
"""

import os
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def is_aidge_error(line):
    """A line of aidge_core's own error log (`[ERROR] ...`), colours aside."""
    return ANSI.sub("", line).lstrip().startswith("[ERROR]")


def run_check(check):
    """Runs `check`, streaming its output but holding back aidge_core's error lines;
    returns (exit code, the lines held back)."""
    if os.environ.get("MEMPLAN_AIDGE_NOISE"):
        return subprocess.run([sys.executable, str(check)], cwd=ROOT).returncode, []
    held = []
    proc = subprocess.Popen([sys.executable, str(check)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    for line in proc.stdout:
        if is_aidge_error(line):
            held.append(line)
        else:
            sys.stdout.write(line)
            sys.stdout.flush()
    return proc.wait(), held


def main(argv):
    wanted = set(argv[1:])
    # tiling_exec.py runs its CI subset with no argument (scripts/test-slow.sh: --all).
    checks = sorted([*HERE.glob("*_diff.py"), HERE / "tiling_exec.py"])
    if wanted:
        checks = [c for c in checks if c.stem.removesuffix("_diff") in wanted]
    print("building release binaries (cargo build --release --bins --features tools)", flush=True)
    build = subprocess.run(
        ["cargo", "build", "--release", "--bins", "--features", "tools", "-q"], cwd=ROOT
    )
    if build.returncode != 0:
        print("cargo build failed")
        print(f"0 passed, {max(len(checks), 1)} failed")
        return 1
    passed = failed = 0
    for check in checks:
        start = time.monotonic()
        print(f"== {check.name}", flush=True)
        rc, held = run_check(check)
        took = time.monotonic() - start
        if held and rc == 0:
            print(f"   ({len(held)} lines of aidge_core's own [ERROR] log held back: cases it "
                  "refuses, as memplan must; MEMPLAN_AIDGE_NOISE=1 shows them)", flush=True)
        elif held:
            sys.stdout.writelines(held)
        if rc == 0:
            passed += 1
            print(f"-- {check.name}: passed ({took:.1f} s)", flush=True)
        else:
            failed += 1
            print(f"-- {check.name}: FAILED (exit {rc}, {took:.1f} s)", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not checks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
