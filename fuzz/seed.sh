#!/usr/bin/env bash
# Writes the committed seed corpora of fuzz/corpus/<target> from the repo's test files.
#   exercise — every file of tests/data/bad and tests/data/formats and the real Aidge
#              exports of the smallest graphs; the first byte of an input picks the file
#              name the target uses (0 = .json, 1 = .txt, 2 = .csv), so each seed is its
#              file with that byte in front;
#   tflite   — the small .tflite models (TFLite Micro's and Vela's) and the bad one;
#   onnx     — the small .onnx models.
# The fuzzer writes what it finds to fuzz/target/corpus/<target> (scripts/test-slow.sh),
# never here: re-run this script to reset the seeds.
set -euo pipefail
cd "$(dirname "$0")"
small() { [ "$(stat -c %s "$1")" -lt 65536 ]; }
out=corpus/exercise
rm -rf corpus && mkdir -p "$out" corpus/tflite corpus/onnx
for f in ../tests/data/bad/* ../tests/data/formats/* ../tests/data/aidge/split-*.json \
         ../tests/data/aidge/branches-*.json; do
  case "$f" in
    *.json) pick='\x00' ;;
    *.csv) pick='\x02' ;;
    *) pick='\x01' ;;
  esac
  small "$f" || continue
  { printf "$pick"; cat "$f"; } > "$out/$(basename "$f")"
done
for f in ../tests/data/tflm/*.tflite ../tests/data/vela/*.tflite ../tests/data/bad/*.tflite; do
  small "$f" && cp "$f" corpus/tflite/
done
for f in ../tests/data/onnx/*.onnx; do
  small "$f" && cp "$f" corpus/onnx/
done
for t in exercise tflite onnx; do
  echo "$(ls "corpus/$t" | wc -l) seeds in fuzz/corpus/$t ($(du -sh "corpus/$t" | cut -f1))"
done
