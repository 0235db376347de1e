// The CUDA backward pass: the tensor-core backward kernels printed for one kernel (device/
// attn_bwd_mma.cuh; parameter block attn/cuda_backward_abi.h), and running them on a GPU after
// the forward. Light header (no Halide.h).
#pragma once

#include <string>
#include <vector>

#include "attn/kernel_backward_abi.h"
#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaRun.h"
#include "backends/io/KernelIO.h"
#include "runtime/CudaLaunch.h"

namespace attn {

/// The backward's translation unit and how to launch its four entry points.
struct CudaBackwardSource {
  std::string cu;           ///< kernels, device functions and (nvcc only) a host launcher
  std::string header;       ///< C declarations: launch macros, launcher
  CudaBackwardInfo launch;  ///< entry points and launch shapes (manifest "cuda_backward_launch")
  /// The run-time planner's program for the kernels' 64 x 64 tiles (runtime/TilePlanText.h), for
  /// masks that read buffers; empty for the others.
  std::string tile_plan;
};

/// True when the tensor-core backward takes this dtype and these head dims (bf16/f16; D and Dv
/// 64 or 128).
bool cuda_backward_supported(DType dtype, int head_dim, int value_dim);

/// Prints the backward of `ir` (head dims as print_cuda_kernel resolves them; `o.tiles` and
/// `o.prefer_wgmma` are ignored: the backward has one shape per head dims). Throws
/// KernelLimitError for what it does not support.
CudaBackwardSource print_cuda_backward(const KernelIR& ir, const CudaPrintOptions& o);

/// The backward's run-time tile plan as its kernels read it: query-major for attn_bwd_dq
/// (attn_cuda_params::tile_rows, tile_runs) and transposed for attn_bwd_dkdv
/// (attn_cuda_bwd_params::tile_cols, tile_col_runs). All empty when `src` has no tile_plan.
struct CudaBackwardTilePlan {
  std::vector<int> rows, runs;      ///< per query tile, its runs of key tiles
  std::vector<int> cols, col_runs;  ///< per key tile, its runs of query tiles
};

/// Plans `src`'s tiles for `in` (lengths, scalars, the mask's buffers). Throws std::out_of_range
/// when the mask reads a buffer out of range.
CudaBackwardTilePlan plan_cuda_backward_tiles(const CudaBackwardSource& src, const KernelInputs& in);

struct CudaBackwardResult {
  KernelOutputs outputs;  ///< the forward's (its lse whether or not the kernel sets it)
  KernelGradients gradients;
  std::vector<float> times_ms;  ///< forward + backward wall time of each timed repeat
};

/// The backward of `ir` on device tensors the caller owns, as attn_backward_args describes them
/// (kDLCUDA on device `device`; the forward's Out and LSE given; Q, K, V, Out, dOut, dQ, dK, dV
/// rows 16-byte aligned, any strides with a contiguous last dimension; buffers and their gradients
/// dense), launched on `stream` (a CUstream of the device's primary context, PyTorch's current
/// stream) without waiting. Its workspace is allocated and freed in stream order. A buffer index
/// out of range reads 0 and sets the backward's error word (runtime/CudaErrorWord.h: zeroed once,
/// not per launch), which take_cuda_errors() reports at the next synchronization. The caller checks
/// shapes (validate_inputs, validate_gradient_request). Throws InputError for tensors it cannot
/// take, KernelLimitError for what the backward does not support, CudaError and CudaCompileError.
void launch_cuda_backward(const KernelIR& ir, const attn_backward_args& args, void* stream, int device = 0);

/// The forward (run_cuda's kernel) and then the backward of `ir` on `in`, as
/// attn_backward_args describes it. Throws as run_cuda does, and InputError for a request that
/// does not fit the kernel.
CudaBackwardResult run_cuda_backward(const KernelIR& ir, const KernelInputs& in,
                                     const GradientRequest& request, const CudaRunOptions& options = {});

}  // namespace attn
