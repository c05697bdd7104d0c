#!/usr/bin/env bash
# Runs every test: lints, cargo tests, parity against the real aidge_core wheel,
# the wasm build and the end-to-end tests in Debian's chromium.
# Installs what is missing first (scripts/setup.sh). Used by `npm test` and CI.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "setup"
scripts/setup.sh build browser python

step "rustfmt and clippy"
cargo fmt --all -- --check
cargo clippy --all-targets --features tools -q -- -D warnings
# The code only other builds compile: the page's three wasm modules (src/web, the
# `lite` paths, src/web_onnx.rs) and the Python extension (src/python.rs).
cargo clippy --lib --target wasm32-unknown-unknown -q -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --features lite -q -- -D warnings
cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features onnx-module -q -- -D warnings
cargo clippy --lib --no-default-features --features python -q -- -D warnings

step "cargo test"
# Property and mutation tests draw from a pinned seed here so a run is reproducible
# (a plain `cargo test` explores new random cases every time; so does fuzz/).
PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261203}" cargo test --release --features tools -q

step "docs: generated tables"
# Each generated table of docs/ sits between markers naming the script that rewrites it;
# the tables a script renders from the repository alone (memplan's CLI, built by the step
# above) are rendered again and must not differ (scripts/doc_tables.py, RENDER).
python3 scripts/doc_tables.py check

step "parity with aidge_core 0.10.1"
.venv/bin/python tests/parity/run.py

step "wasm build"
scripts/build.sh

step "end-to-end tests in chromium"
node --test --test-concurrency=1 tests/e2e/*.test.mjs
