// A Vulkan kernel as the loader takes it: a SPIR-V module and the layout it was built for (the
// binding convention of backends/spirv, docs/spirv.md), written as the text of a vulkan request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::vk {

/// Descriptor set 0 bindings, in order: Q, K, V, Out, LSE (f32), the argument words (i32:
/// scalars as bits, then each buffer's dimensions), the error record, then one per tensor
/// argument in declaration order (i32 or f32 words; bool buffers as 0/1 words).
enum Binding : uint32_t { kQ = 0, kK, kV, kOut, kLse, kArgs, kError, kFirstBuffer };

/// The error record (kError): word 0 is set to 1 by the first out-of-range buffer index, which
/// then writes the buffer's ordinal, the dimension, the index, the dimension's size, b, h, q, kv.
constexpr int kErrorWords = 9;
/// Word 0 of the error record when the pipeline ran with subgroups smaller than `lanes`.
constexpr int kSubgroupTooSmall = 2;
/// Push constants, i32: B, Hq, Hkv, Lq, Lkv, then where the call's batch sits in the kernel's
/// coordinates: `b` of entry 0, the position `q` of query row 0, and the value of `q_len` (a
/// dense call's are 0, 0, Lq; one sequence of a ragged batch or paged cache, run as a batch of
/// one, has its own: docs/spirv.md).
constexpr int kPushWords = 8;
/// The indices of those words.
enum PushWord : int { kPushB = 0, kPushHq, kPushHkv, kPushLq, kPushLkv, kPushB0, kPushQ0, kPushQLen };

/// One kernel argument: where its words start in the kArgs buffer, in declaration order.
struct KernelArgSlot {
  enum Kind { F32, I32, Bool, Buffer } kind = F32;
  std::string name;
  int offset = 0;  ///< first word in kArgs (a scalar takes one, a buffer one per dimension)
  int rank = 0;    ///< a buffer's dimensions
};

/// A module and what its launcher must know: dispatch (ceil(Lq / rows), Hq, B) workgroups.
struct KernelLayout {
  std::string entry;  ///< the kernel's name (the module's entry point is "main")
  int head_dim = 0, value_dim = 0;
  int rows = 1;         ///< query rows per workgroup
  bool f16_io = false;  ///< Q/K/V/Out are f16 in the buffers (else f32)
  bool lse = false;     ///< the kernel writes LSE
  /// The kernel writes row maxima (return_max) to the binding after its tensor arguments.
  bool max = false;
  std::vector<KernelArgSlot> args;
  int arg_words = 0;
  std::vector<uint32_t> spirv;
};

/// The text of a vulkan KernelRequest's source: a versioned header, the layout, the module's
/// words in hex. Deterministic. It is print_vulkan_layout's text, then print_spirv_words'.
std::string print_vulkan_kernel(const KernelLayout& kernel);
/// The layout part of the text (what KERNEL.spv.h holds as ATTN_<KERNEL>_LAYOUT).
std::string print_vulkan_layout(const KernelLayout& kernel);
/// The words part of the text.
std::string print_spirv_words(const uint32_t* words, size_t count);

/// Reads print_vulkan_kernel's text back; throws std::invalid_argument naming what is wrong.
KernelLayout parse_vulkan_kernel(const std::string& text);

}  // namespace attn::vk
