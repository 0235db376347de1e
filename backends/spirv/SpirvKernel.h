// The SPIR-V backend: a kernel's IR -> a validated, optimized Vulkan compute shader (tiled flash
// attention), plus the binding layout the launcher must follow. No Halide in this header.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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
  float scale = 1;
  uint32_t spirv_version = 0x00010300;
  int workgroup_size() const { return lanes * rows; }
};

/// Descriptor set 0 bindings, in order: Q, K, V, Out, LSE (f32), the argument words (i32:
/// scalars as bits, then each buffer's dimensions), the error record, then one per tensor
/// argument in declaration order (i32 or f32 words; bool buffers as 0/1 words).
enum Binding : uint32_t { kQ = 0, kK, kV, kOut, kLse, kArgs, kError, kFirstBuffer };

/// The error record (kError): word 0 is set to 1 by the first out-of-range buffer index, which
/// then writes the buffer's ordinal, the dimension, the index, the dimension's size, b, h, q, kv.
constexpr int kErrorWords = 9;
/// Word 0 of the error record when the pipeline ran with subgroups smaller than `lanes`.
constexpr int kSubgroupTooSmall = 2;

/// Push constants: B, Hq, Hkv, Lq, Lkv as i32.
constexpr int kPushWords = 5;

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

/// Chooses lanes, rows and the key tile for `ir` on `target` (head_dim/value_dim: the actual
/// dimensions; the kernel's options win when set).
SpirvConfig choose_config(const KernelIR& ir, const SpirvTarget& target, int head_dim, int value_dim);

/// Emits, validates, optimizes and validates again. Throws SpirvInternalError.
SpirvKernel compile_spirv(const KernelIR& ir, const SpirvConfig& config);

/// The module before optimization (validated), for golden tests of the printer itself.
std::vector<uint32_t> emit_spirv(const KernelIR& ir, const SpirvConfig& config);

/// spirv-dis style text of `words` (friendly names).
std::string disassemble_spirv(const std::vector<uint32_t>& words, uint32_t spirv_version);

/// Runs the validator; returns an empty string when valid, else the messages.
std::string validate_spirv(const std::vector<uint32_t>& words, uint32_t spirv_version);

}  // namespace attn::spirv
