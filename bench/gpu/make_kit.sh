#!/usr/bin/env bash
# Writes bench/gpu/kit/: the generated CUDA sources that bench/gpu/kit_check.cpp checks and times
# on a GPU machine that cannot build attnc itself. Run after building attnc (default build dir
# build/, or ATTNC_BUILD_DIR), just before a GPU session: the kit is generated, not checked in
# (git ignores it; pass `bench/gpu/kit` in the device tool's `carry` list).
#   check/  tests/cuda/kernels.attn, samples/*.attn and one wrapper per stdlib definition in bf16,
#           f16 and f32
#   bench/  bench/gpu/variants.attn (docs/performance.md's rows)
#   tune/   per row of bench/, every tile shape the autotuner tries (kit_check --tune)
#   check-wgmma/, bench-wgmma/  the same kernels built as Hopper's warpgroup kernel (--cuda-tiles
#           wgmma; only those it applies to), checked in a process of their own first
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${ATTNC_BUILD_DIR:-$ROOT/build}
SM=${ATTNC_CUDA_SM:-90}
KIT=$ROOT/bench/gpu/kit
rm -rf "$KIT"
mkdir -p "$KIT/check" "$KIT/bench" "$KIT/tune" "$KIT/check-wgmma" "$KIT/bench-wgmma"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BUILD/tests/cuda/cuda_stdlib_kernels" >"$TMP/stdlib_kernels.attn"
cd "$ROOT"
# compile_all OUT [attnc compile options...]: every kernel to check into OUT.
compile_all() {
  local out=$1
  shift
  rm -rf "$TMP/std" "$TMP/samples"
  "$BUILD/cli/attnc" compile tests/cuda/kernels.attn -t cuda --cuda-sm "$SM" "$@" -o "$out"
  "$BUILD/cli/attnc" compile "$TMP/stdlib_kernels.attn" -t cuda --cuda-sm "$SM" "$@" -o "$TMP/std"
  cp "$TMP"/std/*.cu "$out/"
  for f in samples/*.attn; do
    "$BUILD/cli/attnc" compile "$f" -t cuda --cuda-sm "$SM" "$@" -o "$TMP/samples"
  done
  cp "$TMP"/samples/*.cu "$out/"
}
compile_all "$KIT/check"
"$BUILD/cli/attnc" compile bench/gpu/variants.attn -t cuda --cuda-sm "$SM" -o "$KIT/bench"
if [ "$SM" = 90 ]; then
  compile_all "$KIT/check-wgmma" --cuda-tiles wgmma
  "$BUILD/cli/attnc" compile bench/gpu/variants.attn -t cuda --cuda-sm "$SM" --cuda-tiles wgmma -o "$KIT/bench-wgmma"
  # Keep only what became the warpgroup kernel (f32 and odd head dims keep the table's shape).
  grep -L "; wgmma " "$KIT"/check-wgmma/*.cu "$KIT"/bench-wgmma/*.cu | xargs -r rm -f
fi
"$BUILD/bench/cuda_tile_variants" bench/gpu/variants.attn "$KIT/tune" "$SM" >/dev/null
rm -f "$KIT"/*/*.cuh "$KIT"/*/manifest.json
echo "kit: $(ls "$KIT/check" | wc -l) kernels to check ($(ls "$KIT/check-wgmma" | wc -l) as the warpgroup kernel)," \
  "$(ls "$KIT/bench" | wc -l) to time ($(ls "$KIT/bench-wgmma" | wc -l))," \
  "$(ls "$KIT"/tune/*/*.cu | wc -l) tile shapes to tune (sm_$SM)"
