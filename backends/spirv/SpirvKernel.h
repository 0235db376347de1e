// The SPIR-V backend: a kernel's IR -> a validated, optimized Vulkan compute shader (tiled flash
// attention), plus the binding layout the launcher must follow. No Halide in this header.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/VulkanKernel.h"

namespace attn {
struct KernelIR;
}

namespace attn::spirv {

/// What the device offers (queried by the launcher; defaults describe a generic Vulkan 1.1 GPU).
struct SpirvTarget {
  int vulkan_minor = 1;      ///< 1: SPIR-V 1.3 / Vulkan 1.1; 2 or more: SPIR-V 1.5 / Vulkan 1.2
  int subgroup_size = 0;     ///< 0: no subgroup shuffles (one invocation per query row)
  bool f16_storage = false;  ///< storageBuffer16BitAccess: f16 Q/K/V/Out stay f16 in memory
  int shared_bytes = 32768;  ///< maxComputeSharedMemorySize
  /// A CPU device (lavapipe): K/V are read in place, since staging them in workgroup memory
  /// buys nothing there and its barriers make llvmpipe compile every invocation as a coroutine
  /// (about 10x the JIT time).
  bool cpu = false;
};

/// The shape of the emitted shader. Derived from the kernel, the head dimensions and the target.
struct SpirvConfig {
  int head_dim = 0, value_dim = 0;
  int lanes = 1;              ///< invocations per query row (a power of two within one subgroup)
  int rows = 64;              ///< query rows per workgroup
  int block_kv = 32;          ///< keys per tile
  bool shared_tiles = true;   ///< stage K/V tiles in workgroup memory (else read them in place)
  bool unroll_chunks = true;  ///< unroll a lane's head-dimension chunks (else loop over them)
  /// Visit only the key tiles the tile plan (codegen/PlanTiles.h, tiles rows x block_kv) does not
  /// prove empty, and skip the mask on tiles it proves full. Cleared by compile_spirv when the
  /// plan's ranges cannot be printed (the kernel then visits every tile).
  bool block_sparse = true;
  bool f16_io = false;  ///< Q/K/V/Out are f16 in the storage buffers (else f32)
  bool lse = false;
  /// return_max: each row's largest kept score goes to binding kFirstBuffer + (tensor arguments),
  /// after the tensor arguments (f32 [B, Hq, Lq]).
  bool row_max = false;
  float scale = 1;
  uint32_t spirv_version = 0x00010300;
  int workgroup_size() const { return lanes * rows; }
};

// The binding convention the launcher follows (runtime/VulkanKernel.h): bindings, the error
// record, push constants.
using vk::Binding;
using vk::kArgs;
using vk::kError;
using vk::kErrorWords;
using vk::kFirstBuffer;
using vk::kK;
using vk::kLse;
using vk::kOut;
using vk::kPushWords;
using vk::kQ;
using vk::kSubgroupTooSmall;
using vk::kV;

/// A compiled kernel: SPIR-V words and what the launcher needs to bind and dispatch it.
struct SpirvKernel {
  std::vector<uint32_t> words;  ///< validated and optimized
  SpirvConfig config;
  std::vector<std::string> buffers;  ///< tensor arguments, in binding order
  /// Word offset of each argument (declaration order) in the kArgs buffer; a scalar takes one
  /// word, a buffer one per dimension.
  std::vector<int> arg_offsets;
  int arg_words = 0;
};

/// A module that fails validation: a compiler bug. The message holds the disassembly.
struct SpirvInternalError : std::logic_error {
  using std::logic_error::logic_error;
};

/// The head dim of kernels that leave it open when the caller names none (the vulkan backend's
/// default_head_dim).
inline constexpr int kSpirvDefaultHeadDim = 64;

/// Chooses lanes, rows and the key tile for `ir` on `target` (head_dim/value_dim: the actual
/// dimensions; the kernel's options win when set).
SpirvConfig choose_config(const KernelIR& ir, const SpirvTarget& target, int head_dim, int value_dim);

/// Emits, validates, optimizes and validates again. Throws SpirvInternalError.
SpirvKernel compile_spirv(const KernelIR& ir, const SpirvConfig& config);

/// Validates `words` (emitted from `ir` with `config`), optimizes them and validates the result;
/// fills the argument layout. Throws SpirvInternalError.
SpirvKernel optimize_spirv(const KernelIR& ir, const SpirvConfig& config, std::vector<uint32_t> words);

/// The module before optimization (validated), for golden tests of the printer itself.
std::vector<uint32_t> emit_spirv(const KernelIR& ir, const SpirvConfig& config);

/// spirv-dis style text of `words` (friendly names).
std::string disassemble_spirv(const std::vector<uint32_t>& words, uint32_t spirv_version);

/// Runs the validator; returns an empty string when valid, else the messages.
std::string validate_spirv(const std::vector<uint32_t>& words, uint32_t spirv_version);

}  // namespace attn::spirv
