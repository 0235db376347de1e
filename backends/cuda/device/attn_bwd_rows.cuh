// ---- attnc device library: the backward's per-row rule for rows that are not finite ------------
// Pure arithmetic, also compiled on the host by tests/cuda/test_cuda_backward.cpp, which runs the
// backward's per-element steps with it against the reference backward. docs/language.md,
// "Non-finite values": a row whose LSE is +Inf (some score is +Inf) gives its keys at +Inf equal
// weights and the others 0, locally constant, so its keys get dV = weight * dOut and nothing flows
// back through its scores; a row that reached no key (LSE -inf) contributes nothing.
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif

namespace attn_dev {

/// A row's natural-log LSE in log2 units; +inf for a row that reached no key (LSE -inf), so that
/// its weights 2^(s - lse) are exactly 0.
ATTN_HD float lse_log2(float lse) {
  return lse == -__int_as_float(0x7f800000) ? __int_as_float(0x7f800000) : lse * 1.4426950408889634f;
}

/// What attn_bwd_pre leaves in delta for a row, given its LSE, rowsum(dOut * Out), dLSE and the
/// number of its keys whose score is +Inf (counted only where the LSE is +Inf): rowsum - dLSE;
/// the share 1 / ties of each key at +Inf in a row whose LSE is +Inf (its scores need no delta);
/// 0 in a row that reached no key.
ATTN_HD float row_delta(float lse, float dout_out, float dlse, float ties) {
  const float inf = __int_as_float(0x7f800000);
  if (lse == inf) return ties > 0.f ? 1.f / ties : 0.f;
  if (lse == -inf) return 0.f;
  return dout_out - dlse;
}

/// The weight P of an allowed key with score s2 (log2 units) in a row with lse2 = lse_log2(LSE),
/// given e = 2^(s2 - lse2): e itself, except in a row at +Inf (lse2 +inf), where a key at +Inf
/// weighs `share` (e is NaN there) and any other 0. A NaN LSE keeps e NaN. Where the weight feeds
/// dS pass share 0: nothing flows back through the scores of a row at +Inf.
ATTN_HD float row_weight(float s2, float lse2, float share, float e) {
  const float inf = __int_as_float(0x7f800000);
  return lse2 == inf ? (s2 == inf ? share : 0.f) : e;
}

}  // namespace attn_dev
