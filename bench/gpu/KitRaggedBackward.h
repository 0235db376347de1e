// The kit's check of a ragged batch's backward: the launcher's per-sequence launches
// (launch_cuda_backward_module with cu_seqlens) on packed tensors.
#pragma once

#include <random>

#include "bench/gpu/KitBackward.h"
#include "bench/gpu/KitKernel.h"

namespace attn::kit {

/// A ragged batch of 5 sequences (one row; no queries: zero dK and dV rows; no keys: zero dQ rows;
/// 77 x 133; 130 x 64) through the launcher's backward on packed tensors (dQ, dK, dV and the
/// gradients starting as NaN), against the f64 backward reference (`module`: the backward's
/// source with attn_reference_bwd.cuh appended) on dense copies of each sequence, its index as the
/// mask's b, the buffer gradients summed over the sequences. Each sequence's Out and LSE come from
/// the f64 forward reference (`fwd_module`, launched with `ref_info`).
GradientErrors check_ragged_backward(CudaDevice& device, const CudaModule& fwd_module,
                                     const CudaModule& module, const BackwardSource& src, const Kit& k,
                                     const CudaLaunchInfo& ref_info, std::mt19937& rng);

}  // namespace attn::kit
