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
#   vulkan/       the check kernels as Vulkan modules (NAME.spv, NAME.layout: attnc compile -t
#                 vulkan), checked against check/NAME.cu's f64 reference (kit_check --vulkan)
#   vulkan-bench/ bench/gpu/targets.attn's rows for Vulkan (NAME.spv, NAME.layout) and CUDA (the
#                 reference), checked and timed (kit_check --vulkan-bench)
#   python/       tests/python_runtime/kernels.attn generated with --cuda-backward and its manifest:
#                 what the runtime-only Python extension loads there (docs/python.md)
#   vendor/       libvulkan.so.1 from this machine (the GPU machine has no Vulkan loader); include/
#                 with the headers the runtime-only build needs and that machine may lack
#                 (nlohmann/json.hpp, dlpack, OpenSSL's, Vulkan's); python/nanobind (from
#                 ATTNC_PYTHON's environment, or python3's)
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
mkdir -p "$KIT/check" "$KIT/bench" "$KIT/tune" "$KIT/check-wgmma" "$KIT/bench-wgmma" "$KIT/vendor/include" "$KIT/vendor/python" \
  "$KIT/vulkan" "$KIT/vulkan-bench"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BUILD/tests/cuda/cuda_stdlib_kernels" >"$TMP/stdlib_kernels.attn"
cd "$ROOT"
# compile_all OUT [attnc compile options...]: every kernel to check into OUT.
compile_all() {
  local out=$1
  shift
  rm -rf "$TMP/std" "$TMP/samples" "$TMP/fp8"
  "$ATTNC" compile tests/cuda/kernels.attn -t cuda --cuda-sm "$SM" "$@" -o "$out"
  "$ATTNC" compile tests/cuda/fp8_kernels.attn -t cuda --cuda-sm "$SM" "$@" -o "$TMP/fp8"  # no vulkan module
  cp "$TMP"/fp8/*.cu "$out/"
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
rm -rf "$KIT"/*/*.cuh "$KIT"/*/manifest.json "$KIT"/*/dlpack  # python/ comes after: it keeps its manifest
# The Vulkan modules: the check kernels, and the timing rows with their CUDA sources; each
# NAME.spv.h's layout text kept as NAME.layout (what the loader's vulkan request needs beside the words).
# Head dims as the CUDA sources have them (128 where a kernel leaves them open), or Vulkan's own
# default where that does not fit its 32 KB of shared memory (kit_check then skips the kernel).
for f in tests/cuda/kernels.attn "$TMP/stdlib_kernels.attn" samples/*.attn; do
  "$ATTNC" compile "$f" -t vulkan --head-dim 128 -o "$KIT/vulkan" 2>/dev/null ||
    "$ATTNC" compile "$f" -t vulkan -o "$KIT/vulkan"
done
"$ATTNC" compile bench/gpu/targets.attn -t vulkan,cuda --cuda-sm "$SM" --head-dim 128 -o "$KIT/vulkan-bench"
python3 - "$KIT/vulkan" "$KIT/vulkan-bench" <<'PY'
import glob, os, re, sys
for folder in sys.argv[1:]:
    for header in glob.glob(os.path.join(folder, "*.spv.h")):
        text = open(header).read()
        m = re.search(r"#define ATTN_\w+_LAYOUT \\\n((?:  \".*\"(?: \\)?\n)+)", text)
        if m:
            parts = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
            layout = "".join(parts).encode().decode("unicode_escape")
            open(header[: -len(".spv.h")] + ".layout", "w").write(layout)
        os.remove(header)
    for spv in glob.glob(os.path.join(folder, "*.spv")):  # backward modules: no layout of their own
        if not os.path.exists(spv[: -len(".spv")] + ".layout"):
            os.remove(spv)
PY
rm -rf "$KIT"/vulkan*/dlpack "$KIT"/vulkan*/manifest.json "$KIT"/vulkan-bench/*.cuh
# The runtime-only Python build's kernels, headers and nanobind.
"$ATTNC" compile tests/python_runtime/kernels.attn -t cuda --cuda-sm "$SM" --cuda-backward -o "$KIT/python"
for h in nlohmann dlpack openssl vk_video; do
  [ -d "/usr/include/$h" ] && cp -rL "/usr/include/$h" "$KIT/vendor/include/"
done
mkdir -p "$KIT/vendor/include/vulkan"
for h in vulkan.h vulkan_core.h vk_platform.h; do cp -L "/usr/include/vulkan/$h" "$KIT/vendor/include/vulkan/"; done
[ -f /usr/include/x86_64-linux-gnu/openssl/opensslconf.h ] &&
  cp -L /usr/include/x86_64-linux-gnu/openssl/*.h "$KIT/vendor/include/openssl/"
# nanobind (the extension's build) and pytest with its pure-Python dependencies (the tests), from
# ATTNC_PYTHON's environment: the GPU machine reaches no package registry.
SITE=$("${ATTNC_PYTHON:-python3}" -c 'import nanobind, os; print(os.path.dirname(os.path.dirname(nanobind.__file__)))' 2>/dev/null || true)
if [ -n "$SITE" ]; then
  for m in nanobind pytest _pytest pluggy iniconfig packaging pygments py.py; do
    [ -e "$SITE/$m" ] && cp -r "$SITE/$m" "$KIT/vendor/python/"
  done
  find "$KIT/vendor/python" -name __pycache__ -prune -exec rm -rf {} +
else
  echo "make_kit: no nanobind for ${ATTNC_PYTHON:-python3} (pip install nanobind pytest, or set ATTNC_PYTHON): the kit cannot build the Python extension" >&2
fi
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
n_py=$(ls "$KIT"/python/*.cu | wc -l)
n_vk=$(ls "$KIT"/vulkan/*.spv | wc -l)
n_vk_bench=$(ls "$KIT"/vulkan-bench/*.spv | wc -l)
cat >"$KIT/counts.txt" <<COUNTS
check $n_check
check_backward $n_bwd
check_wgmma $n_wg
bench $n_bench
bench_wgmma $n_bench_wg
tune $n_tune
python $n_py
vulkan $n_vk
vulkan_bench $n_vk_bench
COUNTS
echo "kit: $n_check kernels to check ($n_bwd with a backward, $n_wg as the warpgroup kernel)," \
  "$n_bench to time ($n_bench_wg), $n_tune tile shapes to tune, $n_py Python sources, $n_vk + $n_vk_bench Vulkan modules (sm_$SM);" \
  "$(du -sh "$KIT" | cut -f1) (the source tree: $(git -C "$ROOT" ls-files -z | du -ch --files0-from=- 2>/dev/null | tail -1 | cut -f1))"
