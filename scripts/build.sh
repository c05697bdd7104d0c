#!/usr/bin/env bash
# Builds the static page into dist/ (what `npm run build` produces): the wasm modules
# (cargo, then wasm-bindgen --target web, no bundler), www/, and a sample plan the
# page opens by default. Serve dist/ from any static host; nothing is fetched from
# elsewhere at run time. Also writes the notebook widget of the Python package
# (python/memplan/static/widget.mjs: the whole crate's wasm and its JS in one module,
# scripts/widget.mjs), which `memplan.show()` needs.
#
# `scripts/build.sh widget` builds that widget alone (the whole crate's wasm, no dist/):
# what scripts/setup.sh python runs when the widget is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# MEMPLAN_DIST picks another output folder (lets several builds coexist).
dist="${MEMPLAN_DIST:-dist}"
target="${CARGO_TARGET_DIR:-target}"
say() { printf '\033[1mmemplan build:\033[0m %s\n' "$*" >&2; }

# binaryen's wasm-opt (pinned in package.json, installed by scripts/setup.sh): smaller
# and faster code than rustc alone. The features are the ones rustc's wasm32 target
# emits (and every browser the page supports runs).
wasm_opt=node_modules/.bin/wasm-opt
# A fresh clone has neither: set them up as `npm start` does (scripts/setup.sh build).
if [ ! -x "$wasm_opt" ] || ! command -v wasm-bindgen >/dev/null; then
  say "build tools missing: running scripts/setup.sh build first"
  scripts/setup.sh build
fi
# module DIR [CARGO FEATURE ARGS...]: compiles the crate for wasm32, binds it into DIR.
module() {
  local out="$1"
  shift
  cargo build --lib --release --target wasm32-unknown-unknown "$@"
  mkdir -p "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" \
    "$target"/wasm32-unknown-unknown/release/memplan.wasm
  "$wasm_opt" -O2 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/memplan_bg.wasm" -o "$out/memplan_bg.wasm"
}

# The notebook widget (python/memplan/static/widget.mjs), from a built pkg/.
widget() {
  node scripts/widget.mjs "$1" python/memplan/static
}

if [ "${1:-}" = widget ]; then
  say "compiling the wasm module for the notebook widget"
  module "$target/widget-pkg"
  widget "$target/widget-pkg"
  exit 0
fi

rm -rf "$dist"
mkdir -p "$dist/sample"
# The whole crate (pkg/): what <memplan-view> embeds, and what the page imports when
# a file, a strategy or a text export needs more than its first module.
say "compiling the wasm module"
module "$dist/pkg"
widget "$dist/pkg"
# The page's first module (feature lite, pkg-lite/): the viewer and a worker planner
# for well-formed memplan JSON as loaded, all the first frame of the sample needs.
say "compiling the page's first wasm module (lite)"
module "$dist/pkg-lite" --features lite
cp -R www/. "$dist/"
# The notebook widget's source is bundled above, not served.
rm "$dist/memplan-widget.js"

# The default sample, tracked in the repository: ResNet-18's schedule as exported from
# the real wheel (the page plans it the way Aidge 0.10.1 does by default).
sample=tests/data/aidge/resnet18-multi-None.json
cp "$sample" "$dist/sample/"
printf '["%s"]\n' "$(basename "$sample")" > "$dist/sample/manifest.json"
say "$dist/ ready ($(du -sh "$dist" | cut -f1))"

# The ONNX reader: a second wasm module (feature onnx-module) that the page imports only
# when an .onnx file is opened (www/onnx.js), so the first frame of a plan does not pay for it.
say "compiling the ONNX module"
module "$dist/pkg-onnx" --no-default-features --features onnx-module
say "$dist/pkg-onnx/ ready ($(du -sh "$dist/pkg-onnx" | cut -f1))"
