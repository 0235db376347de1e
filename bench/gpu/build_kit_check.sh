#!/usr/bin/env bash
# Builds kit_check (bench/gpu/kit_check.cpp) with only a C++ compiler: no CMake, Halide, ANTLR or
# Boost, as on the GPU machine; one compiler process per source, all at once. The source list
# matches bench/CMakeLists.txt's attn_kit and kit_check.
# Usage: bench/gpu/build_kit_check.sh OUT_BINARY. CXX overrides the compiler (default c++);
# ATTNC_KIT_CXXFLAGS adds flags (-Werror on the CPU machine).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build_kit_check.sh OUT_BINARY}
CXX=${CXX:-$(command -v c++ || command -v g++)}
SRC=(bench/gpu/kit_check.cpp bench/gpu/KitBench.cpp bench/gpu/KitBackward.cpp bench/gpu/KitCheck.cpp
     bench/gpu/KitInputs.cpp bench/gpu/KitIsolate.cpp bench/gpu/KitKernel.cpp bench/gpu/KitRaggedBackward.cpp
     bench/gpu/KitServing.cpp
     bench/gpu/KitVulkan.cpp
     runtime/Nvrtc.cpp runtime/PtxasReport.cpp runtime/CudaDriver.cpp runtime/CudaErrorWord.cpp
     runtime/CudaBackwardLaunch.cpp runtime/KernelCallArgs.cpp runtime/CudaRagged.cpp runtime/CudaKernelArgs.cpp
     runtime/CudaLauncher.cpp runtime/CudaLaunch.cpp runtime/CudaGrid.cpp runtime/CudaLaunchPlan.cpp
     runtime/CudaTuner.cpp
     runtime/HostTensor.cpp runtime/TileProgram.cpp runtime/TilePlanner.cpp runtime/TilePlanText.cpp
     runtime/VulkanCompiler.cpp runtime/VulkanKernel.cpp runtime/VulkanLauncher.cpp runtime/Sha256.cpp)
# Vulkan's and OpenSSL's headers: the system's, else the kit's copies (make_kit.sh); libcrypto.so.3
# needs no dev package.
INC=()
[ -d "$ROOT/bench/gpu/kit/vendor/include" ] && INC=(-idirafter "$ROOT/bench/gpu/kit/vendor/include")
OBJ=$(mktemp -d)
trap 'rm -rf "$OBJ"' EXIT
cd "$ROOT"
pids=()
for s in "${SRC[@]}"; do
  # shellcheck disable=SC2086
  "$CXX" -std=c++20 -O2 -Wall -Wextra -Wno-unused-parameter ${ATTNC_KIT_CXXFLAGS:-} -I. -Iruntime/include "${INC[@]}" \
    -c "$s" -o "$OBJ/$(echo "$s" | tr / _).o" &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ $failed = 0 ] || { echo "build_kit_check: a source failed to compile (above)" >&2; exit 1; }
CRYPTO=-lcrypto
echo 'int main(){}' | "$CXX" -x c++ - -lcrypto -o "$OBJ/probe" 2>/dev/null || CRYPTO=-l:libcrypto.so.3
"$CXX" "$OBJ"/*.o -ldl -pthread $CRYPTO -o "$OUT"
