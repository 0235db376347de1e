// Running a kernel on a CUDA GPU end to end: print, compile through attn::Loader (NVRTC, disk
// cache), launch through the kernel's DLPack entry. `attnc run -t cuda`, the GPU tests and the GPU benchmark
// use it.
#pragma once

#include <vector>

#include "attn/compiler.hpp"
#include "attn/loader.hpp"
#include "backends/cuda/CudaTiles.h"
#include "backends/io/KernelIO.h"
#include "runtime/CudaTuner.h"

namespace attn {

struct CudaRunOptions {
  int device = 0;
  int timed_repeats = 0;  ///< launches timed after the first
  /// Search the tile shapes on this device (runtime/CudaTuner.h) when no choice is cached for
  /// this kernel, device and size class; the choice is cached beside the loader's kernels.
  /// Without it a cached choice is still used, else the tile table's.
  bool autotune = false;
  /// Hopper's warpgroup kernel (cuda_wgmma_tiles) wherever it applies on this device, the table's
  /// shape elsewhere; no tuned shape is looked up or searched for.
  bool prefer_wgmma = false;
  /// Plan the call once (CudaKernelModule::plan) and run it from a CUDA graph that captured the
  /// planned launches (launch_planned), as a server's decoding step does, rather than invoke().
  bool graph = false;
};

struct CudaRunResult {
  KernelOutputs outputs;
  CudaTileConfig tiles;
  bool tiles_tuned = false;                ///< `tiles` came from the autotuner (now or cached)
  std::vector<CudaTuneTrial> tune_trials;  ///< the search's tries, when it ran in this call
  double compile_seconds = 0;              ///< time to get the kernel from the loader (compile or cache)
  std::vector<float> times_ms;             ///< wall time of each timed launch (synchronous)
};

/// The loader request of `ir`'s kernel for CUDA device `device` (attn/compiler.hpp): the source
/// printed for its architecture and for the head dims, with the tile table's shape; the kernel's
/// entry takes tensors in that device's memory. Throws CudaError ("no CUDA driver", "no CUDA
/// device") before printing anything.
KernelRequest cuda_device_request(const KernelIR& ir, int head_dim, int value_dim, int device = 0);

/// B * Hq, Lq and Lkv of `in` rounded up to powers of two ("8 1024 1024"): one tuned tile shape
/// per size class.
std::string cuda_size_classes(const KernelInputs& in);

/// The kernel run_cuda launches for `ir` on inputs shaped like `in` (their head dims, this device's
/// architecture, a tuned tile shape when one is cached for their size class; no search), from the
/// process loader (NVRTC once per kernel, disk cache): for callers that launch on their own device
/// tensors (runtime/CudaCompiler.h's CudaKernelModule). Throws as run_cuda.
Kernel load_cuda_kernel(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options = {});

/// Runs `ir` on `in`, specialized to the inputs' head dims and the device's architecture.
/// Throws InputError, CudaError ("no CUDA driver", out-of-range buffer indices) or
/// CudaCompileError.
CudaRunResult run_cuda(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options = {});

}  // namespace attn
