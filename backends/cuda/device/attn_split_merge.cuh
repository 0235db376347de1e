// ---- attnc device library: merging the partial rows of a split-KV launch -------------------
// Pure arithmetic, also compiled on the host by tests/cuda/test_split_merge.cpp. With kv_splits
// > 1 each CTA of a query tile attends to a share of the keys and leaves, per row, its
// unnormalized O (dv floats), its row max m (log2 units, -inf when it saw no allowed key) and
// its row sum l; the row's result is the FlashAttention rescaling of the shares:
// M = max m_s, L = sum l_s 2^(m_s - M), O = sum O_s 2^(m_s - M) / L, LSE = M ln 2 + ln L.
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif
#ifndef ATTN_LOAD_SHARED_RESULT
// Partial rows come from other CTAs: read them from L2, never from a stale L1 line.
#define ATTN_LOAD_SHARED_RESULT(ptr) __ldcg(ptr)
#endif

namespace attn_dev {

/// The merged value of column c of one row, and (when lse is not null) the row's log-sum-exp;
/// `slots` is split 0's slot of the row, the next split's dv + 2 floats further. A row no split
/// reached gives 0 and -inf.
ATTN_HD float merge_partial_row(const float* slots, int splits, int dv, int c, float* lse) {
  float m = -__int_as_float(0x7f800000);
  for (int s = 0; s < splits; ++s) m = fmaxf(m, ATTN_LOAD_SHARED_RESULT(slots + s * (dv + 2) + dv));
  const float base = m == -__int_as_float(0x7f800000) ? 0.f : m;
  float sum = 0.f, value = 0.f;
  for (int s = 0; s < splits; ++s) {
    const float* slot = slots + s * (dv + 2);
    const float w = exp2f(ATTN_LOAD_SHARED_RESULT(slot + dv) - base);  // 0 for a split with no key
    sum += ATTN_LOAD_SHARED_RESULT(slot + dv + 1) * w;
    value += ATTN_LOAD_SHARED_RESULT(slot + c) * w;
  }
  if (lse) *lse = sum > 0.f ? m * 0.6931471805599453f + logf(sum) : -__int_as_float(0x7f800000);
  return sum > 0.f ? value / sum : 0.f;
}

}  // namespace attn_dev
