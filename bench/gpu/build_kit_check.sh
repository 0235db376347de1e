#!/usr/bin/env bash
# Builds kit_check (bench/gpu/kit_check.cpp) with only a C++ compiler: no CMake, Halide, ANTLR or
# Boost, as on the GPU machine. Usage: bench/gpu/build_kit_check.sh OUT_BINARY. CXX overrides the
# compiler (default c++); ATTNC_KIT_CXXFLAGS adds flags (the CPU machine's check adds -Werror).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build_kit_check.sh OUT_BINARY}
CXX=${CXX:-$(command -v c++ || command -v g++)}
SRC=(bench/gpu/kit_check.cpp bench/gpu/KitBench.cpp bench/gpu/KitBackward.cpp bench/gpu/KitCheck.cpp
     bench/gpu/KitInputs.cpp bench/gpu/KitIsolate.cpp bench/gpu/KitKernel.cpp
     runtime/Nvrtc.cpp runtime/PtxasReport.cpp runtime/CudaDriver.cpp runtime/CudaErrorWord.cpp
     runtime/CudaLauncher.cpp runtime/CudaLaunch.cpp runtime/CudaGrid.cpp runtime/CudaTuner.cpp
     runtime/HostTensor.cpp runtime/TileProgram.cpp runtime/TilePlanner.cpp runtime/TilePlanText.cpp)
cd "$ROOT"
# shellcheck disable=SC2086
"$CXX" -std=c++20 -O2 -Wall -Wextra ${ATTNC_KIT_CXXFLAGS:-} -I. -Iruntime/include "${SRC[@]}" -ldl -pthread -o "$OUT"
