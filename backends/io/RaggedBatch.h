// Ragged batches (cu_seqlens): the sequences a call's packed Q and K/V hold, checked once for every
// backend. Q [Tq, Hq, D], K [Tk, Hkv, D], V [Tk, Hkv, Dv]; sequence b holds query rows
// [cu_seqlens_q[b], cu_seqlens_q[b + 1]) and key rows [cu_seqlens_k[b], cu_seqlens_k[b + 1]).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct KernelInputs;

/// One sequence of a ragged batch: its first query and key rows in the packed tensors and its lengths.
struct Sequence {
  int64_t q_first = 0, q_len = 0, kv_first = 0, kv_len = 0;
};

/// The sequences of `in` (which must be ragged: KernelInputs::ragged()). Throws InputError when a
/// boundary tensor is not i32 [N + 1], does not start at 0, decreases, or does not end at the
/// packed length, or when the two have different lengths.
std::vector<Sequence> ragged_sequences(const KernelInputs& in);

/// Throws InputError when `in` is a ragged batch, which `what` (e.g. "the cuda target") does not
/// take yet.
void require_dense(const KernelInputs& in, const std::string& what);

}  // namespace attn
