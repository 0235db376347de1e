// Ragged batches (cu_seqlens) and paged KV caches: the sequences a call's packed Q and K/V hold,
// checked once for every backend. Q [Tq, Hq, D], K [Tk, Hkv, D], V [Tk, Hkv, Dv]; sequence b holds
// query rows [cu_seqlens_q[b], cu_seqlens_q[b + 1]) and key rows [cu_seqlens_k[b], cu_seqlens_k[b + 1]).
// Paged: K [pages, page_size, Hkv, D], V [pages, page_size, Hkv, Dv], and sequence b's key j is row
// j % page_size of page page_table[b][j / page_size], for j < kv_lens[b].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct KernelInputs;

/// One sequence of a ragged batch: its first query and key rows in the packed tensors and its
/// lengths. A paged sequence's keys are in `pages` instead, and its queries are its last tokens.
struct Sequence {
  int64_t q_first = 0, q_len = 0, kv_first = 0, kv_len = 0;
  int64_t q_pos = 0;           ///< the position (`q`) of its first query: kv_len - q_len when paged
  std::vector<int32_t> pages;  ///< a paged sequence's pages, in key order (key j: page j / page_size)
};

/// The sequences of `in` (which must be ragged: KernelInputs::ragged()). Throws InputError when a
/// boundary tensor is not i32 [N + 1], does not start at 0, decreases, or does not end at the
/// packed length, or when the two have different lengths; for a paged cache, when page_table is
/// not i32 [N, max_pages] or kv_lens i32 [N], a sequence has more keys than its pages hold or more
/// queries than keys, or a page it uses is not in the cache.
std::vector<Sequence> ragged_sequences(const KernelInputs& in);

/// Throws InputError when `in` is a ragged batch, which `what` (e.g. "the cuda target") does not
/// take yet.
void require_dense(const KernelInputs& in, const std::string& what);

}  // namespace attn
