// A compiled SPIR-V kernel as a request of attn::Loader's vulkan target (runtime/VulkanCompiler.h).
#pragma once

#include "attn/compiler.hpp"
#include "backends/spirv/SpirvKernel.h"
#include "runtime/VulkanKernel.h"

namespace attn::spirv {

/// The module `k`, compiled from `ir`, and the layout of its launch.
vk::KernelLayout vulkan_layout(const KernelIR& ir, const SpirvKernel& k);

/// The vulkan request for `k`, compiled from `ir`: vulkan_layout's text (runtime/VulkanKernel.h)
/// as the source, the kernel's name as the entry.
KernelRequest vulkan_request(const KernelIR& ir, const SpirvKernel& k);

}  // namespace attn::spirv
