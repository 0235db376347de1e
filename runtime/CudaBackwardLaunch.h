// Launching a CUDA backward written by attnc (NAME_backward.cu, attn/cuda_backward_abi.h) on a
// caller's device tensors and stream, without the compiler: what it needs is read from the
// source's macros. backends/cuda (launch_cuda_backward) and the runtime-only Python extension
// share it.
#pragma once

#include <string>
#include <vector>

#include "attn/kernel_backward_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/HostTensor.h"

namespace attn {

/// How to launch a backward's four entry points (the order of attn/cuda_backward_abi.h).
struct CudaBackwardInfo {
  std::string pre, dkdv, dq, grad;  ///< entry points (attn_bwd_{pre,dkdv,dq,grad}_<kernel>)
  int threads = 0;                  ///< block size of dkdv and dq
  int block_m = 0, block_n = 0;     ///< queries per dq CTA, keys per dkdv CTA
  int dkdv_smem = 0, dq_smem = 0;   ///< dynamic shared memory, bytes
  int head_dim = 0, value_dim = 0;
  ScalarType dtype = ScalarType::BF16;    ///< Q/K/V/Out/dOut/dQ/dK/dV element type (bf16 or f16)
  double scale = 0;                       ///< the softmax scale
  std::vector<std::string> site_buffers;  ///< the buffer each read site of the score reads
};

/// Reads a generated backward's macros (ATTN_BWD_*, ATTN_D, ATTN_DV, ATTN_WARPS, ATTN_SCALE,
/// ATTN_DTYPE_*); throws std::invalid_argument when `source` is not one.
CudaBackwardInfo parse_cuda_backward_info(const std::string& source);

/// The backward of `module` (the backward's cubin, loaded on `device`) on the tensors `a`
/// describes (kDLCUDA on `device`'s ordinal; Out and LSE the forward's; Q, K, V, Out, dOut, dQ, dK,
/// dV rows 16-byte aligned with a contiguous last dimension; buffers and their gradients dense),
/// launched on `stream` without waiting; workspace in stream order. `buffer_names` name the
/// kernel's tensor arguments in order (a read site's gradient goes to the buffer it names).
/// Out-of-range buffer reads read 0 and set `word` (read at the next synchronization). Throws
/// std::invalid_argument for tensors it cannot take, CudaError for the driver's failures.
void launch_cuda_backward_module(CudaDevice& device, int ordinal, const CudaModule& module,
                                 const CudaBackwardInfo& info, const std::vector<std::string>& buffer_names,
                                 const attn_backward_args& a, void* stream, CudaErrorWord& word);

}  // namespace attn
