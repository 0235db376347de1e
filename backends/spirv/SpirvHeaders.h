// Offline SPIR-V modules for `attnc compile -t vulkan`: the device they assume and the C headers
// that embed them (the words and the launch layout of attn/vulkan.hpp).
#pragma once

#include <string>
#include <vector>

#include "backends/spirv/SpirvBackward.h"
#include "backends/spirv/SpirvKernel.h"

namespace attn {
struct KernelIR;
}

namespace attn::spirv {

/// What an offline module assumes about the device it will run on: Vulkan 1.1, subgroups of at
/// least 8 invocations with shuffles, 16-bit storage for f16 kernels, 32 KB of shared memory.
inline constexpr SpirvTarget kOfflineTarget{1, 8, true, 32768};

/// The offline module's configuration: the kernel's head_dim, else `head_dim`, else kSpirvDefaultHeadDim.
SpirvConfig offline_config(const KernelIR& ir, int head_dim);

/// The f32 tensor arguments whose gradients an offline backward sums: those the score reads at an
/// index (validate_gradient_request's rule), in declaration order.
std::vector<std::string> offline_grad_buffers(const KernelIR& ir);

/// The C header embedding forward module `k` of `ir` (compiled from `source_name`, IR hash
/// `kernel_hash`): dispatch and binding comments, ATTN_<NAME>_* macros, the layout, the words.
std::string embed_header(const KernelIR& ir, const std::string& source_name, const std::string& kernel_hash,
                         const SpirvKernel& k);

/// The C header embedding backward modules `b` of `ir` (both modules' words, their bindings).
std::string embed_backward_header(const KernelIR& ir, const std::string& source_name,
                                  const std::string& kernel_hash, const SpirvBackward& b);

}  // namespace attn::spirv
