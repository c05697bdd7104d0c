#!/usr/bin/env bash
# Seeds the fuzz corpus (fuzz/corpus/exercise, not committed) from the repo's test
# files: the first byte of an input picks the file name the target uses (0 = .json,
# 1 = .txt, 2 = .csv), so each seed is its file with that byte in front.
set -euo pipefail
cd "$(dirname "$0")"
out=corpus/exercise
mkdir -p "$out"
for f in ../tests/data/bad/* ../tests/data/formats/* ../tests/data/aidge/split-*.json \
         ../tests/data/aidge/branches-*.json; do
  case "$f" in
    *.json) pick='\x00' ;;
    *.csv) pick='\x02' ;;
    *) pick='\x01' ;;
  esac
  [ "$(stat -c %s "$f")" -lt 65536 ] || continue
  { printf "$pick"; cat "$f"; } > "$out/$(basename "$f")"
done
echo "$(ls "$out" | wc -l) seeds in fuzz/$out"
