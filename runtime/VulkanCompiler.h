// The loader's vulkan target: a SPIR-V module and its layout (runtime/VulkanKernel.h) become a
// pipeline on the process's Vulkan device; the pipeline-cache blob is the cached artifact.
#pragma once

#include <memory>

#include "attn/compiler.hpp"

namespace attn {

/// What a vulkan module's invoke() returns besides 0; args->error holds the message either way.
enum VulkanStatus : int {
  kVulkanFailed = 1,            ///< a Vulkan call failed (vk::VulkanError's message)
  kVulkanBadArguments = 2,      ///< the tensors do not fit the kernel (shape, type, layout, size)
  kVulkanIndexOutOfRange = 3,   ///< a buffer index was out of range: the message names it
  kVulkanSubgroupTooSmall = 4,  ///< the driver ran smaller subgroups than the module needs: no
                                ///< results; rebuild the module for one invocation per row
};

/// A loaded vulkan kernel: invoke() runs one dispatch on host tensors (kDLCPU, compact row-major:
/// q, k, v and out f32, f16 or bf16 alike, lse f32; buffers i32, f32 or bool/uint8), copying
/// them to the device and the results back.
class VulkanKernelModule : public KernelModule {
 public:
  /// Like invoke(), with `repeat` dispatches in a row (the results are the last one's); sets
  /// `gpu_ms` (when given) to one dispatch's GPU time, -1 when the device has no timestamps.
  virtual int dispatch(const attn_kernel_args* args, int repeat, double* gpu_ms) const = 0;
};

/// The vulkan Compiler for attn::Loader (`loader.add_compiler(make_vulkan_compiler())`).
/// Requests carry print_vulkan_kernel's text and the kernel's name as entry; the key includes
/// the device and driver build (vk::VulkanDevice::get(), opened when first needed: without a
/// loader or device every request fails with LoadError(LoadFailed) saying so). compile() builds
/// the pipeline; its artifact is the VkPipelineCache blob, from which a later process's load()
/// rebuilds the pipeline without the driver's shader compile.
std::unique_ptr<Compiler> make_vulkan_compiler();

}  // namespace attn
