// Running a kernel on a CUDA GPU end to end: print, NVRTC-compile (memoized per process), load,
// launch. `attnc run -t cuda`, the GPU tests and the GPU benchmark use it.
#pragma once

#include <vector>

#include "backends/cuda/CudaTiles.h"
#include "backends/reference/Reference.h"
#include "runtime/PtxasReport.h"

namespace attn {

struct CudaRunOptions {
  int device = 0;
  int timed_repeats = 0;  ///< launches timed after the first
};

struct CudaRunResult {
  KernelOutputs outputs;
  CudaTileConfig tiles;
  PtxasFunction resources;         ///< the kernel's registers/spills
  double compile_seconds = 0;      ///< NVRTC time (0 when the cubin was already compiled)
  std::vector<float> times_ms;
};

/// Runs `ir` on `in`, specialized to the inputs' head dims and the device's architecture.
/// Throws InputError, CudaError ("no CUDA driver", out-of-range buffer indices) or
/// CudaCompileError.
CudaRunResult run_cuda(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options = {});

}  // namespace attn
