// A compiled SPIR-V kernel as a request of attn::Loader's vulkan target (runtime/VulkanCompiler.h).
#pragma once

#include "attn/compiler.hpp"
#include "backends/spirv/SpirvKernel.h"

namespace attn::spirv {

/// The vulkan request for `k`, compiled from `ir`: its module and the layout of its launch
/// (runtime/VulkanKernel.h) as the source, the kernel's name as the entry.
KernelRequest vulkan_request(const KernelIR& ir, const SpirvKernel& k);

}  // namespace attn::spirv
