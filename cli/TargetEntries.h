// Each backend's entries in the target table (cli/Targets.cpp), defined in cli/<Target>Commands.cpp.
// The reference and cpu runners are the backends' own run_reference and run_cpu_kernel.
#pragma once

#include "cli/Targets.h"

namespace attn::cli {

/// CPU (cli/CpuCommands.cpp): <kernel>.cpp and <kernel>.h (C ABI over DLPack); with backward = true
/// also <kernel>_backward.cpp and <kernel>_backward.h.
std::vector<std::string> write_cpu_target(const KernelIR& ir, const CompileContext& ctx,
                                          const std::filesystem::path& dir);
/// The generated C++ of a kernel for this machine.
std::string dump_cpu_target(const KernelIR& ir);
/// The tiles of this machine's kernels.
TileSizes cpu_target_tiles(const KernelIR& ir);

/// CUDA (cli/CudaCommands.cpp): <kernel>.cu and <kernel>.cuh; with backward = true also
/// <kernel>_backward.cu and <kernel>_backward.cuh.
std::vector<std::string> write_cuda_target(const KernelIR& ir, const CompileContext& ctx,
                                           const std::filesystem::path& dir);
/// The .cu of a kernel (default options).
std::string dump_cuda_target(const KernelIR& ir);
/// The tiles of that kernel (the tile table's for sm_80).
TileSizes cuda_target_tiles(const KernelIR& ir);
/// Runs a kernel on the GPU (`threads` is unused).
KernelOutputs run_cuda_target(const KernelIR& ir, const KernelInputs& in, int threads);
/// The forward and backward on the GPU (`threads` is unused).
KernelGradients run_cuda_backward_target(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                                         int threads);
/// Searches the tile shapes of `ir` on the GPU for `in`'s size class (cached beside the loader's
/// kernels: later runs use the choice); returns a report of the tries, one line each.
std::string tune_cuda_target(const KernelIR& ir, const KernelInputs& in);

/// Vulkan (cli/VulkanCommands.cpp): <kernel>.spv and <kernel>.spv.h (the SPIR-V module embedded
/// as a uint32_t array, with its layout); with backward = true also <kernel>_backward_q.spv,
/// <kernel>_backward_k.spv and <kernel>_backward.spv.h (both modules embedded, their bindings).
std::vector<std::string> write_vulkan_target(const KernelIR& ir, const CompileContext& ctx,
                                             const std::filesystem::path& dir);
/// The disassembly of a kernel's module, headed by its name.
std::string dump_vulkan_target(const KernelIR& ir);
/// The tiles of that module (query rows per workgroup, keys per block).
TileSizes vulkan_target_tiles(const KernelIR& ir);
/// Runs a kernel on the Vulkan device (`threads` is unused).
KernelOutputs run_vulkan_target(const KernelIR& ir, const KernelInputs& in, int threads);
/// The backward pass on the Vulkan device (`threads` is unused).
KernelGradients run_vulkan_backward_target(const KernelIR& ir, const KernelInputs& in,
                                           const GradientRequest& r, int threads);

}  // namespace attn::cli
