// The per-target writers of `attnc compile` and runners of `attnc run`: one entry per backend,
// each defined in its own cli/<Target>Commands.cpp.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace attn {
struct KernelIR;
struct KernelInputs;
struct KernelOutputs;
}  // namespace attn

namespace attn::cli {

/// What every target writer gets besides the kernel.
struct CompileContext {
  std::string source_name;  ///< the .attn file's name (no folders)
  std::string kernel_hash;
  int cuda_sm = 80;
  std::string
      cuda_tiles;  ///< empty: the tile table's shape; "wgmma": Hopper's warpgroup kernel where it applies
  int head_dim = 0;
  std::string cpu_isa = "avx512";
};

/// Writes one kernel's files for a target into `dir`; returns their names relative to `dir`.
using TargetWriter = std::vector<std::string> (*)(const KernelIR& ir, const CompileContext& ctx,
                                                  const std::filesystem::path& dir);

/// The writer of `target`, or nullptr when this build has no such target.
TargetWriter target_writer(const std::string& target);

/// CPU (cli/CpuCommands.cpp): <kernel>.cpp and <kernel>.h (C ABI over DLPack).
std::vector<std::string> write_cpu_target(const KernelIR& ir, const CompileContext& ctx,
                                          const std::filesystem::path& dir);
/// The generated C++ of a kernel for this machine, for `attnc dump --stage=cpu`.
std::string dump_cpu_target(const KernelIR& ir);

/// CUDA (cli/CudaCommands.cpp): <kernel>.cu and <kernel>.cuh.
std::vector<std::string> write_cuda_target(const KernelIR& ir, const CompileContext& ctx,
                                           const std::filesystem::path& dir);
/// The .cu of a kernel (default options), for `attnc dump --stage=cuda`.
std::string dump_cuda_target(const KernelIR& ir);
/// Runs a kernel on the GPU for `attnc run -t cuda`.
KernelOutputs run_cuda_target(const KernelIR& ir, const KernelInputs& in);
/// Searches the tile shapes of `ir` on the GPU for `in`'s size class (cached beside the loader's
/// kernels: later runs use the choice); returns a report of the tries, one line each.
std::string tune_cuda_target(const KernelIR& ir, const KernelInputs& in);

/// SPIR-V (cli/SpirvCommands.cpp): <kernel>.spv and <kernel>.spv.h (the module embedded as a
/// uint32_t array, with its layout).
std::vector<std::string> write_spirv_target(const KernelIR& ir, const CompileContext& ctx,
                                            const std::filesystem::path& dir);
/// The disassembly of a kernel's module, for `attnc dump --stage=spirv`.
std::string dump_spirv_target(const KernelIR& ir);
/// Runs a kernel on the Vulkan device for `attnc run -t vulkan`.
KernelOutputs run_vulkan_target(const KernelIR& ir, const KernelInputs& in);

}  // namespace attn::cli
