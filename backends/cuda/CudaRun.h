// Running a kernel on a CUDA GPU end to end: print, compile through attn::Loader (NVRTC, disk
// cache), launch through the kernel's DLPack entry. `attnc run -t cuda`, the GPU tests and the GPU benchmark
// use it.
#pragma once

#include <vector>

#include "backends/cuda/CudaTiles.h"
#include "backends/reference/Reference.h"

namespace attn {

struct CudaRunOptions {
  int device = 0;
  int timed_repeats = 0;  ///< launches timed after the first
};

struct CudaRunResult {
  KernelOutputs outputs;
  CudaTileConfig tiles;
  double compile_seconds = 0;   ///< time to get the kernel from the loader (compile or cache)
  std::vector<float> times_ms;  ///< wall time of each timed launch (synchronous)
};

/// Runs `ir` on `in`, specialized to the inputs' head dims and the device's architecture.
/// Throws InputError, CudaError ("no CUDA driver", out-of-range buffer indices) or
/// CudaCompileError.
CudaRunResult run_cuda(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options = {});

}  // namespace attn
