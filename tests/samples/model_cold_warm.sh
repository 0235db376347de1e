#!/usr/bin/env bash
# samples/model twice on an empty cache: the first process compiles the 3 distinct kernels of its
# 32 layers, the second compiles none. Usage: model_cold_warm.sh MODEL_BINARY KERNELS_DIR
set -euo pipefail
model=$1
kernels=$2
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
cold=$(ATTNC_CACHE_DIR=$cache "$model" "$kernels")
echo "$cold"
warm=$(ATTNC_CACHE_DIR=$cache "$model" "$kernels")
echo "$warm"
grep -q "^layers: *32$" <<<"$cold"
grep -q "^distinct kernels: *3$" <<<"$cold"
grep -q "^compiles performed: *3$" <<<"$cold" || { echo "FAIL: cold start should compile 3 kernels"; exit 1; }
grep -q "^compiles performed: *0$" <<<"$warm" || { echo "FAIL: warm start should compile nothing"; exit 1; }
grep -q "3 on disk" <<<"$warm" || { echo "FAIL: warm start should load 3 kernels from disk"; exit 1; }
# Same weights, same kernels: the same output either way.
[ "$(grep 'mean |x|' <<<"$cold")" = "$(grep 'mean |x|' <<<"$warm")" ] || { echo "FAIL: outputs differ"; exit 1; }
echo "PASS"
