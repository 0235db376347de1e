// The vulkan target for runtime users: run a module `attnc compile -t vulkan` wrote (KERNEL.spv.h)
// through attn::Loader, on host tensors, like a cpu kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "attn/compiler.hpp"

namespace attn {

/// What a vulkan kernel's call returns besides 0; args->error holds the message either way.
enum VulkanStatus : int {
  kVulkanFailed = 1,            ///< a Vulkan call failed (no device, out of memory, ...)
  kVulkanBadArguments = 2,      ///< the tensors do not fit the kernel (shape, type, layout, size)
  kVulkanIndexOutOfRange = 3,   ///< a buffer index was out of range: the message names it
  kVulkanSubgroupTooSmall = 4,  ///< the driver ran smaller subgroups than the module needs: no
                                ///< results; the module must be rebuilt for one invocation per row
};

/// The vulkan Compiler (`loader.add_compiler(make_vulkan_compiler())`). Its kernels run on the
/// process's Vulkan device (`ATTNC_VULKAN_DEVICE`, `ATTNC_VULKAN_LOADER`: docs/spirv.md) and take
/// host tensors (kDLCPU, compact row-major; q, k, v and out f32, f16 or bf16 alike, lse f32,
/// tensor arguments i32, f32 or bool), copied to the device and the results back. The loader
/// caches one pipeline per kernel in memory and its VkPipelineCache blob on disk. Without a
/// Vulkan loader or device every request fails with LoadError(LoadFailed) saying so.
std::unique_ptr<Compiler> make_vulkan_compiler();

/// The request for a module attnc wrote: `layout` is KERNEL.spv.h's ATTN_<KERNEL>_LAYOUT, `words`
/// and `count` its attn_<kernel>_spirv array and attn_<kernel>_spirv_words; the entry is the
/// kernel's name. Throws std::invalid_argument when `layout` is not such a text.
KernelRequest vulkan_kernel_request(const char* layout, const uint32_t* words, size_t count);

}  // namespace attn
