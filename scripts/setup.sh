#!/usr/bin/env bash
# Installs what building and testing memplan needs, skipping what is already there.
# Usage: scripts/setup.sh [build|browser|python|cortexm]...   (no argument: build)
#   build   — wasm32 target, wasm-bindgen-cli pinned to Cargo.toml's wasm-bindgen, npm packages
#             (playwright-core, binaryen: the build's wasm-opt)
#   browser — Debian's chromium (for the end-to-end tests)
#   python  — .venv with the real aidge_core 0.10.1 wheels (parity tests, export-cpp builds,
#             aidge-quantization for the int8 exports),
#             tflite-micro (tests/parity/tflm_diff.py), mypy (tests/parity/python_api_diff.py),
#             JupyterLab, anywidget, nbconvert and ipykernel (tests/e2e/notebook.test.mjs:
#             memplan.show in a real JupyterLab) and memplan's own Python package built
#             into it (`pip install -e .`, with the notebook widget: `scripts/build.sh widget`)
#   cortexm — outside CI: python's .venv plus aidge-export-arm-cortexm 0.10.1 and Debian's
#             arm-none-eabi toolchain and qemu-system-arm (tests/parity/cortexm_qemu.py,
#             scripts/cortexm/run.py; about 560 MB of packages)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1mmemplan setup:\033[0m %s\n' "$*" >&2; }

setup_build() {
  if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  local want
  want=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
  if ! command -v wasm-bindgen >/dev/null || [ "$(wasm-bindgen --version | awk '{print $2}')" != "$want" ]; then
    say "installing wasm-bindgen-cli $want (about 2 minutes, once)"
    cargo install wasm-bindgen-cli --version "$want"
  fi
  if [ ! -d node_modules ] || [ package.json -nt node_modules ]; then
    say "installing npm packages"
    npm install --no-audit --no-fund
    touch node_modules
  fi
}

setup_browser() {
  if ! command -v chromium >/dev/null; then
    say "installing Debian's chromium"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
}

setup_python() {
  if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import aidge_core, aidge_onnx, aidge_backend_cpu, aidge_export_cpp, maturin' 2>/dev/null; then
    say "creating .venv with aidge_core 0.10.1 (about 20 s)"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check \
      aidge-core==0.10.1 aidge-backend-cpu==0.10.1 aidge-onnx==0.10.1 aidge-export-cpp==0.10.1 \
      "maturin>=1.16,<2"
  fi
  # onnxruntime: tests/parity/tiling_exec.py runs original and tiled models (issue #48);
  # onnx comes with aidge-onnx, pinned here with it.
  if ! .venv/bin/python -c 'import onnxruntime' 2>/dev/null; then
    say "adding onnxruntime to .venv"
    .venv/bin/pip install -q --disable-pip-version-check onnx==1.23.2 onnxruntime==1.32.0
  fi
  # TFLite Micro's own interpreter (4 MB, no TensorFlow): tests/parity/tflm_diff.py runs
  # memplan's offline plans in it, and memplan.tflm reads .tflite files with its schema.
  if ! .venv/bin/python -c 'import tflite_micro' 2>/dev/null; then
    say "adding tflite-micro to .venv"
    .venv/bin/pip install -q --disable-pip-version-check tflite-micro==0.dev20261023182759
  fi
  # aidge-quantization: the int8 exports tests/parity/recipes_diff.py checks
  # (aidge_core's export() quantizes with it when dtype="int8").
  # (aidge_quantization's bindings need aidge_core's types registered first: imported
  # alone it fails even when installed)
  if ! .venv/bin/python -c 'import aidge_core, aidge_quantization' 2>/dev/null; then
    say "adding aidge-quantization to .venv"
    .venv/bin/pip install -q --disable-pip-version-check aidge-quantization==0.10.1
  fi
  # mypy: tests/parity/python_api_diff.py holds memplan's public Python API to `mypy --strict`.
  if ! .venv/bin/python -c 'import mypy' 2>/dev/null; then
    say "adding mypy to .venv"
    .venv/bin/pip install -q --disable-pip-version-check mypy==1.13.0
  fi
  # The notebook of memplan.show (tests/e2e/notebook.test.mjs): a real JupyterLab, the
  # widget library, the HTML export and the kernel.
  if ! .venv/bin/python -c 'import jupyterlab, anywidget, nbconvert, ipykernel' 2>/dev/null; then
    say "adding jupyterlab, anywidget, nbconvert and ipykernel to .venv"
    .venv/bin/pip install -q --disable-pip-version-check jupyterlab==4.6.6 anywidget==0.11.0 \
      ipywidgets==8.1.9 nbconvert==7.17.2 ipykernel==7.4.0
  fi
  # memplan.show's widget (python/memplan/static/widget.mjs: the wasm viewer in one ES
  # module) is a build product: made here when missing (npm run build remakes it).
  if [ ! -f python/memplan/static/widget.mjs ]; then
    scripts/build.sh widget
  fi
  # memplan's Python package, editable: python/memplan is the package and the compiled
  # module lands beside it. Re-run every time so the module follows the Rust sources
  # (cargo rebuilds only what changed).
  say "building memplan's Python extension (pip install -e .)"
  # (maturin's build hook runs the `maturin` program of the venv: put it on PATH)
  PATH="$PWD/.venv/bin:$PATH" .venv/bin/pip install -q --disable-pip-version-check \
    --no-build-isolation -e .
}

setup_cortexm() {
  setup_python
  # (its benchmark module imports aidge_deploy, not on PyPI: scripts/cortexm/stub stands in)
  if ! PYTHONPATH=scripts/cortexm/stub .venv/bin/python -c 'import aidge_export_arm_cortexm' 2>/dev/null; then
    say "adding aidge-export-arm-cortexm to .venv"
    .venv/bin/pip install -q --disable-pip-version-check aidge-export-arm-cortexm==0.10.1
  fi
  if ! command -v arm-none-eabi-g++ >/dev/null || ! command -v qemu-system-arm >/dev/null; then
    say "installing Debian's arm-none-eabi toolchain and qemu-system-arm"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc-arm-none-eabi \
      libnewlib-arm-none-eabi qemu-system-arm >/dev/null
  fi
}

[ $# -eq 0 ] && set -- build
for what in "$@"; do "setup_$what"; done
