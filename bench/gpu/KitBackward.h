// The kit's backward check: a generated backward (attnc compile --backward; NAME_backward.cu) run
// after the f64 forward reference, its dQ, dK, dV and buffer gradients against the f64 backward
// reference (backends/cuda/device/attn_reference_bwd.cuh) on the same inputs.
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/gpu/KitInputs.h"
#include "runtime/CudaBackwardLaunch.h"
#include "runtime/CudaLauncher.h"

namespace attn::kit {

/// A backward source: its macros (runtime/CudaBackwardLaunch.h) and tile plan.
struct BackwardSource : CudaBackwardInfo {
  std::string text;
  std::string tile_plan;  ///< the run-time planner's program (64 x 64), or empty
};

/// Reads a backward's macros; throws std::invalid_argument when `text` is not one.
BackwardSource parse_backward_source(std::string text);

/// Relative errors (max |got - want| / max(1, max |want|)) of one backward check.
struct GradientErrors {
  double dq = 0, dk = 0, dv = 0, dbuffers = 0;
  bool buffers = false;  ///< some buffer gradient was checked
  std::string error;     ///< a launch failure or an out-of-range report, else empty
  double worst() const;
};

/// The f64 backward reference's gradients of one launch: dQ [B, Hq, Lq, D], dK [B, Hkv, Lkv, D],
/// dV [B, Hkv, Lkv, Dv] and the buffer gradients end to end.
struct ReferenceGradients {
  std::vector<double> dq, dk, dv, grad;
};

/// The f64 backward reference (`module`'s attn_reference_bwd_rows and _keys) of the launch `p`
/// (its inputs, lengths and batch_base), dOut at device address `dout` (dense [B, Hq, Lq, Dv]),
/// the f64 forward's LSE `lse`, read site s adding to site_base[s] of `grad_numel` gradients.
ReferenceGradients reference_backward(CudaDevice& device, const CudaModule& module, const attn_cuda_params& p,
                                      const void* dout, const std::vector<double>& lse,
                                      const long long (&site_base)[ATTN_CUDA_MAX_SITES], long long grad_numel,
                                      int64_t d, int64_t dv);

/// One backward check on the inputs `fwd` holds on the device (prepare_cuda_launch's), given the
/// f64 reference forward's out and lse; `module` is the backward's source with the f64 backward
/// reference appended. Every f32 buffer a read site of the score reads gets its gradient.
GradientErrors check_backward(CudaDevice& device, const CudaModule& module, const BackwardSource& src,
                              const CudaPreparedLaunch& fwd, const std::vector<ArgSpec>& args,
                              const std::vector<HostTensor>& buffers, const std::vector<double>& ref_out,
                              const std::vector<double>& ref_lse, std::mt19937& rng);

}  // namespace attn::kit
