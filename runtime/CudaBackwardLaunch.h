// Launching a CUDA backward written by attnc (NAME_backward.cu, attn/cuda_backward_abi.h) on a
// caller's device tensors and stream, without the compiler: what it needs is its CudaBackwardInfo
// (runtime/CudaLaunch.h). backends/cuda (launch_cuda_backward) and the runtime-only Python
// extension share it.
#pragma once

#include <string>
#include <vector>

#include "attn/kernel_backward_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/CudaLaunch.h"
#include "runtime/HostTensor.h"

namespace attn {

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
