// The SPIR-V backward: FlashAttention-2's backward as two compute shaders that recompute P from the
// forward's LSE. Deterministic without atomics: every sum has one owner that runs it in a fixed order.
#pragma once

#include <string>
#include <vector>

#include "backends/spirv/SpirvKernel.h"

namespace attn::spirv {

/// The version of the backward modules' layout below (in the header `attnc compile` writes).
constexpr int kSpirvBackwardVersion = 1;

/// Bindings of the backward modules. Q, K, V (f32), dOut (f32, at kOut), LSE (the forward's, f32,
/// at kLse), the argument words, the error record and the tensor arguments are the forward's
/// (SpirvKernel.h); after the N tensor arguments come, at kFirstBuffer + N + i:
enum BackwardBinding : uint32_t {
  kDelta = 0,  ///< D - dLSE per query row [B, Hq, Lq] (f32): rowsum(dOut * Out) - dLSE
  /// The number of keys scoring +Inf per query row [B, Hq, Lq] (f32): the query-major module writes
  /// it, the key-major one reads it (a row whose LSE is +Inf shares its weight among them).
  kTies = 1,
  kDq = 2,        ///< query-major module: dQ [B, Hq, Lq, D] (f32)
  kDk = 2,        ///< key-major module: dK [B, Hkv, Lkv, D] (f32)
  kDv = 3,        ///< key-major module: dV [B, Hkv, Lkv, Dv] (f32)
  kPartials = 4,  ///< key-major module: per key, its terms of the buffer gradients (f32, see below)
};

/// The two modules, query-major first. Both dispatch ceil(L / rows) x heads x B workgroups of `rows`
/// invocations: the query-major one over (Lq, Hq), an invocation per query row summing its dQ over the keys
/// in order; the key-major one over (Lkv, Hkv), an invocation per key summing its dK and dV over the group's
/// query heads and the query rows in order. The key-major invocation of key (b, hk, j) also owns row (b * Hkv
/// + hk) * Lkv + j of the partials buffer: `grad_buffers`' elements one buffer after another, its terms of
/// their gradients; the host sums the rows in order.
struct SpirvBackward {
  SpirvKernel query_major, key_major;
  std::vector<std::string> grad_buffers;
};

/// The configuration of the backward's modules for `ir` on `target`: one invocation per row, K and
/// V read in place, f32 I/O (the host converts). The tile plan drives block skipping: the
/// query-major module visits only the key tiles (block_kv keys) it does not prove empty for the
/// workgroup's 64 query rows, the key-major one only the query tiles (64 rows) for its 64 keys.
SpirvConfig choose_backward_config(const KernelIR& ir, const SpirvTarget& target, int head_dim,
                                   int value_dim);

/// Emits, validates and optimizes both modules (clearing a module's block_sparse when the plan's
/// ranges cannot be printed: it then visits every tile); `grad_buffers` are the f32 tensor arguments whose
/// gradients the key-major module sums (validate_gradient_request's rules). Throws
/// SpirvInternalError.
SpirvBackward compile_spirv_backward(const KernelIR& ir, const SpirvConfig& config,
                                     const std::vector<std::string>& grad_buffers);

}  // namespace attn::spirv
