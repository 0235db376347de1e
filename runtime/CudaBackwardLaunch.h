// Launching a CUDA backward written by attnc (NAME_backward.cu, attn/cuda_backward_abi.h) on a
// caller's device tensors and stream, without the compiler: what it needs is its CudaBackwardInfo
// (runtime/CudaLaunch.h). backends/cuda (launch_cuda_backward) and the runtime-only Python
// extension share it.
#pragma once

#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "attn/kernel_backward_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/CudaLaunch.h"
#include "runtime/CudaRagged.h"
#include "runtime/HostTensor.h"

namespace attn {

/// The backward's parameter block of sequence `index`, `s`, of a ragged batch whose block `packed`
/// points at the packed tensors' first rows with strides {0, head, token}: the forward's block of
/// the sequence (cuda_sequence_params: views at its rows, its lengths, batch_base = index), and dOut,
/// dLSE and dQ at its query rows, dK and dV at its key rows. `elem_bytes`: a Q/K/V element's size.
attn_cuda_bwd_params cuda_backward_sequence_params(const attn_cuda_bwd_params& packed, const CudaSequence& s,
                                                   int index, size_t elem_bytes);

/// The backward of `module` (the backward's cubin, loaded on `device`) on the tensors `a`
/// describes (kDLCUDA on `device`'s ordinal; Out and LSE the forward's; Q, K, V, Out, dOut, dQ, dK,
/// dV rows 16-byte aligned with a contiguous last dimension; buffers and their gradients dense),
/// launched on `stream` without waiting; workspace in stream order. `buffer_names` name the
/// kernel's tensor arguments in order (a read site's gradient goes to the buffer it names).
/// Out-of-range buffer reads read 0 and set `word` (read at the next synchronization). Throws
/// std::invalid_argument for tensors it cannot take, CudaError for the driver's failures. A ragged
/// batch (cu_seqlens_q and cu_seqlens_k, in CPU or GPU memory; the tensors packed [T, H, D], the
/// LSE and dLSE [T, H]) runs a dense batch of one per sequence (cuda_backward_sequence_params),
/// each buffer gradient summed over the sequences in order; a sequence without keys gets zero dQ
/// rows, one without queries zero dK and dV rows (then dq, dk and dv must be dense).
void launch_cuda_backward_module(CudaDevice& device, int ordinal, const CudaModule& module,
                                 const CudaBackwardInfo& info, const std::vector<std::string>& buffer_names,
                                 const attn_backward_args& a, void* stream, CudaErrorWord& word);

}  // namespace attn
