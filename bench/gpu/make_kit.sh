#!/usr/bin/env bash
# Writes bench/gpu/kit/: everything a GPU session needs that the GPU machine cannot make itself (it
# has no Halide, ANTLR or Boost): generated CUDA sources for bench/gpu/kit_check.cpp, the Python
# package's pre-generated kernels, and the Vulkan loader. Run after building attnc (default build
# dir build/, or ATTNC_BUILD_DIR), just before a GPU session: the kit is generated, not checked in
# (git ignores it; pass `bench/gpu/kit` in the device tool's `carry` list). It prints its size:
# with the source tree it must stay under the session's 64 MiB.
#   check/        tests/cuda/kernels.attn, samples/*.attn and one wrapper per stdlib definition in
#                 bf16, f16 and f32, each with its backward where the tensor-core backward applies
#                 (NAME_backward.cu, attnc compile --cuda-backward)
#   bench/        bench/gpu/variants.attn (docs/performance.md's rows)
#   tune/         per row of bench/, every tile shape the autotuner tries (kit_check --tune)
#   check-wgmma/, bench-wgmma/  the same kernels built as Hopper's warpgroup kernel (--cuda-tiles
#                 wgmma; only those it applies to)
#   vendor/       libvulkan.so.1 from this machine (the GPU machine has no Vulkan loader)
#   counts.txt    how many NVRTC compiles each run.sh step makes (run.sh --dry-run's estimate)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${ATTNC_BUILD_DIR:-$ROOT/build}
SM=${ATTNC_CUDA_SM:-90}
KIT=$ROOT/bench/gpu/kit
ATTNC=$BUILD/cli/attnc
for tool in "$ATTNC" "$BUILD/tests/cuda/cuda_stdlib_kernels" "$BUILD/bench/cuda_tile_variants"; do
  [ -x "$tool" ] || { echo "make_kit: $tool is missing: build attnc first (scripts/build.sh)" >&2; exit 1; }
done
rm -rf "$KIT"
mkdir -p "$KIT/check" "$KIT/bench" "$KIT/tune" "$KIT/check-wgmma" "$KIT/bench-wgmma" "$KIT/vendor"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BUILD/tests/cuda/cuda_stdlib_kernels" >"$TMP/stdlib_kernels.attn"
cd "$ROOT"
# compile_all OUT [attnc compile options...]: every kernel to check into OUT.
compile_all() {
  local out=$1
  shift
  rm -rf "$TMP/std" "$TMP/samples"
  "$ATTNC" compile tests/cuda/kernels.attn -t cuda --cuda-sm "$SM" "$@" -o "$out"
  "$ATTNC" compile "$TMP/stdlib_kernels.attn" -t cuda --cuda-sm "$SM" "$@" -o "$TMP/std"
  cp "$TMP"/std/*.cu "$out/"
  for f in samples/*.attn; do
    "$ATTNC" compile "$f" -t cuda --cuda-sm "$SM" "$@" -o "$TMP/samples"
  done
  cp "$TMP"/samples/*.cu "$out/"
}
compile_all "$KIT/check" --cuda-backward
"$ATTNC" compile bench/gpu/variants.attn -t cuda --cuda-sm "$SM" -o "$KIT/bench"
if [ "$SM" = 90 ]; then
  compile_all "$KIT/check-wgmma" --cuda-tiles wgmma
  "$ATTNC" compile bench/gpu/variants.attn -t cuda --cuda-sm "$SM" --cuda-tiles wgmma -o "$KIT/bench-wgmma"
  # Keep only what became the warpgroup kernel (f32 and odd head dims keep the table's shape).
  grep -L "; wgmma " "$KIT"/check-wgmma/*.cu "$KIT"/bench-wgmma/*.cu | xargs -r rm -f
fi
"$BUILD/bench/cuda_tile_variants" bench/gpu/variants.attn "$KIT/tune" "$SM" >/dev/null
rm -rf "$KIT"/*/*.cuh "$KIT"/*/manifest.json "$KIT"/*/dlpack
# The Vulkan loader (run_vulkan.sh and the loader's vulkan target dlopen it).
LOADER=${ATTNC_VULKAN_LOADER:-$(ls /usr/lib/x86_64-linux-gnu/libvulkan.so.1 /usr/lib64/libvulkan.so.1 2>/dev/null | head -1 || true)}
if [ -n "$LOADER" ] && [ -f "$LOADER" ]; then
  cp -L "$LOADER" "$KIT/vendor/libvulkan.so.1"
else
  echo "make_kit: no libvulkan.so.1 here (apt-get install libvulkan1, or set ATTNC_VULKAN_LOADER): the kit has no Vulkan loader" >&2
fi
n_check=$(ls "$KIT"/check/*.cu | grep -vc _backward.cu)
n_bwd=$(ls "$KIT"/check/*_backward.cu 2>/dev/null | wc -l)
n_wg=$(ls "$KIT"/check-wgmma/*.cu 2>/dev/null | wc -l)
n_bench=$(ls "$KIT"/bench/*.cu | wc -l)
n_bench_wg=$(ls "$KIT"/bench-wgmma/*.cu 2>/dev/null | wc -l)
n_tune=$(ls "$KIT"/tune/*/*.cu | wc -l)
cat >"$KIT/counts.txt" <<COUNTS
check $n_check
check_backward $n_bwd
check_wgmma $n_wg
bench $n_bench
bench_wgmma $n_bench_wg
tune $n_tune
COUNTS
echo "kit: $n_check kernels to check ($n_bwd with a backward, $n_wg as the warpgroup kernel)," \
  "$n_bench to time ($n_bench_wg), $n_tune tile shapes to tune (sm_$SM);" \
  "$(du -sh "$KIT" | cut -f1) (the source tree: $(git -C "$ROOT" ls-files -z | du -ch --files0-from=- 2>/dev/null | tail -1 | cut -f1))"
