#!/usr/bin/env bash
# The slow proofs, outside CI's 30 minutes: run before a release (`npm run test:slow`).
# Installs what is missing first (scripts/setup.sh build cortexm: the .venv with
# aidge-export-arm-cortexm, Debian's arm-none-eabi toolchain and qemu-system-arm,
# cargo-fuzz). Every step runs even when one before it failed; the summary gives each
# step's verdict and time, and the exit status is 1 when any failed.
#
# Usage: scripts/test-slow.sh [STEP...]   (no argument: every step, in this order)
#   budget  — `memplan plan --budget` timed end to end on the largest committed sets
#             (tests/slow/budget_wall.py)
#   fuzz    — libFuzzer (cargo-fuzz) on every reader: fuzz/fuzz_targets' `exercise` (the
#             text formats and the worker hand-off), `tflite` (FlatBuffers) and `onnx`
#             (protobuf), MEMPLAN_FUZZ_SECONDS each (default 120), from the committed
#             corpus fuzz/corpus/<target>
#   onnx    — every ONNX node model against aidge_core (tests/parity/onnx_nodes_diff.py --all)
#   wrap    — Aidge's wrap-around plans built and run in aidge-export-cpp, on every CNN of
#             tests/data/bench/models (tests/parity/wrap_exec.py)
#   tiling  — `memplan tile` proven by execution on every model of tests/parity/tiling_exec.py
#             (onnxruntime: tiled = original, within rtol 1e-4; int8 QDQ exactly)
#   exports — the whole aidge-export-cpp set built, run and compared (CI runs a subset):
#             tests/parity/exportcpp_diff.py --all, recipes_diff.py --all --full,
#             fusions_diff.py --all
#   ignored — the cargo tests too long for CI (#[ignore]: MiniMalloc's D and J placed below
#             their capacity, `best`'s repair on 54,500 buffers), `cargo test -- --ignored`
#   cortexm — one model's aidge-export-arm-cortexm build run in QEMU against memplan's
#             `--recipes cortexm-int8` (tests/parity/cortexm_qemu.py squeezenet1_0 --qemu)
set -uo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
say() { printf '\033[1mmemplan test:slow:\033[0m %s\n' "$*" >&2; }

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(budget fuzz onnx wrap tiling exports ignored cortexm)
t_all=$SECONDS

step "setup"
set -e
scripts/setup.sh build cortexm   # cortexm includes python
if ! command -v cargo-fuzz >/dev/null; then
  say "installing cargo-fuzz 0.13.2 (about 2 minutes, once)"
  cargo install cargo-fuzz --version 0.13.2 --locked
fi
cargo build --release --features tools -q
set +e

# libFuzzer's sanitized builds need a nightly rustc; a stable one does the same with
# RUSTC_BOOTSTRAP=1 (docs/robustness.md).
fuzz_cargo() {
  if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    cargo +nightly "$@"
  else
    RUSTC_BOOTSTRAP=1 cargo "$@"
  fi
}

run_budget() { python3 tests/slow/budget_wall.py --memplan target/release/memplan; }

run_fuzz() {
  local seconds=${MEMPLAN_FUZZ_SECONDS:-120} status=0 t log
  mkdir -p fuzz/target
  for t in exercise tflite onnx; do
    say "fuzzing $t for $seconds s (log: fuzz/target/fuzz-$t.log)"
    log="fuzz/target/fuzz-$t.log"
    # New inputs go to fuzz/target/corpus/<t> (not committed); the committed seeds are
    # read only. A crash leaves its input in fuzz/artifacts/<t>/ and fails the step.
    mkdir -p "fuzz/target/corpus/$t"
    if (cd fuzz && fuzz_cargo fuzz run -O "$t" "target/corpus/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
        -print_final_stats=1) >"$log" 2>&1; then
      grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )|INITED' "$log"
    else
      status=1
      tail -n 40 "$log"
    fi
  done
  return $status
}

run_onnx() { .venv/bin/python tests/parity/onnx_nodes_diff.py --all; }

run_tiling() { MEMPLAN=target/release/memplan .venv/bin/python tests/parity/tiling_exec.py --all; }
run_wrap() { MEMPLAN=target/release/memplan .venv/bin/python tests/parity/wrap_exec.py --markdown; }

run_exports() {
  local status=0
  .venv/bin/python tests/parity/exportcpp_diff.py --all || status=1
  .venv/bin/python tests/parity/recipes_diff.py --all --full || status=1
  .venv/bin/python tests/parity/fusions_diff.py --all || status=1
  return $status
}

run_ignored() { cargo test --release --features tools -q -- --ignored; }

run_cortexm() {
  .venv/bin/python tests/parity/cortexm_qemu.py squeezenet1_0 --qemu
}

summary=()
failed=0
for s in "${steps[@]}"; do
  if ! declare -F "run_$s" >/dev/null; then
    echo "unknown step $s (budget, fuzz, onnx, wrap, tiling, exports, ignored, cortexm)" >&2
    exit 2
  fi
  step "$s"
  t0=$SECONDS
  if "run_$s"; then verdict=ok; else verdict=FAILED; failed=1; fi
  summary+=("$(printf '%-8s %-6s %4d s' "$s" "$verdict" $((SECONDS - t0)))")
done

step "summary"
printf '%s\n' "${summary[@]}"
echo "total $((SECONDS - t_all)) s (setup included)"
exit $failed
