#!/usr/bin/env bash
# `npm start`: installs the build tools if missing, builds dist/, and serves it on
# http://127.0.0.1:8080 (PORT overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
scripts/build.sh
exec node scripts/serve.mjs dist
