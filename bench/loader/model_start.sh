#!/usr/bin/env bash
# samples/model side by side: cold start with the loader (3 compiles), the same with per-key
# de-duplication and the disk cache off (a naive loader: one compile per layer), and a warm start.
# Usage: bench/loader/model_start.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
model=$build/samples/model/model
kernels=$build/samples/model/kernels
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
field() { grep "^$1" <<<"$2" | sed 's/^[^:]*: *//; s/ ms$//'; }
cold=$(ATTNC_CACHE_DIR=$cache "$model" "$kernels")
warm=$(ATTNC_CACHE_DIR=$cache "$model" "$kernels")
naive=$(ATTNC_CACHE_DIR=$cache "$model" "$kernels" --naive)
printf '%-28s %10s %18s %14s\n' "start" "compiles" "first output ms" "total ms"
for name in naive cold warm; do
  out=${!name}
  printf '%-28s %10s %18s %14s\n' "$name" "$(field 'compiles performed' "$out")" \
    "$(field 'time to first output' "$out")" "$(field 'total time' "$out")"
done
python3 - "$(field 'total time' "$naive")" "$(field 'total time' "$cold")" "$(field 'time to first output' "$warm")" \
  "$(field 'time to first output' "$cold")" <<'PY'
import sys
naive, cold, warm_first, cold_first = map(float, sys.argv[1:])
print(f"cold start, naive / loader (total): {naive / cold:.1f}x")
print(f"time to first output, cold / warm:  {cold_first / warm_first:.1f}x")
PY
