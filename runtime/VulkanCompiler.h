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
  /// Like invoke(), with `repeat` dispatches in a row (the results are the last one's); sets
  /// `gpu_ms` (when given) to one dispatch's GPU time, -1 when the device has no timestamps.
  virtual int dispatch(const attn_kernel_args* args, int repeat, double* gpu_ms) const = 0;
};

}  // namespace attn
