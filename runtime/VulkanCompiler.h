// The vulkan target's modules beyond attn/vulkan.hpp: a timed dispatch, for benchmarks. A request's
// source is runtime/VulkanKernel.h's text; its artifact the pipeline-cache blob.
#pragma once

#include <memory>

#include "attn/vulkan.hpp"

namespace attn {

/// A loaded vulkan kernel: invoke() runs one dispatch on host tensors (kDLCPU, compact row-major:
/// q, k, v and out f32, f16 or bf16 alike, lse f32; buffers i32, f32 or bool/uint8), copying
/// them to the device and the results back.
class VulkanKernelModule : public KernelModule {
 public:
  /// Where a dense call's batch sits in the kernel's coordinates (push words kPushB0, kPushQ0 and
  /// kPushQLen, runtime/VulkanKernel.h): one sequence of a ragged batch or paged cache run as a
  /// batch of one. `q_len` < 0: the call's Lq.
  struct Place {
    int64_t b0 = 0, q0 = 0, q_len = -1;
  };
  /// Like invoke(), with `repeat` dispatches in a row (the results are the last one's); sets
  /// `gpu_ms` (when given) to one dispatch's GPU time, -1 when the device has no timestamps.
  int dispatch(const attn_kernel_args* args, int repeat, double* gpu_ms) const {
    return dispatch_at(args, Place{}, repeat, gpu_ms);
  }
  /// The same with the batch at `place`.
  virtual int dispatch_at(const attn_kernel_args* args, const Place& place, int repeat,
                          double* gpu_ms) const = 0;
};

}  // namespace attn
