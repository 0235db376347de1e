// ---- attnc device library: merging the partial rows of a split-KV launch -------------------
// Pure arithmetic, also compiled on the host by tests/cuda/test_split_merge.cpp. With kv_splits
// > 1 each CTA of a query tile attends to a share of the keys and leaves, per row, its
// unnormalized O (dv floats), its row max m (log2 units, -inf when it saw no allowed key) and
// its row sum l (NaN when an allowed key scored NaN); the row's result is the FlashAttention
// rescaling of the shares:
// M = max m_s, L = sum l_s 2^(m_s - M), O = sum O_s 2^(m_s - M) / L, LSE = M ln 2 + ln L, and a
// sink (the kernel option `sink`) is folded in once, after the merge (finish_row).
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif
#ifndef ATTN_LOAD_SHARED_RESULT
// Partial rows come from other CTAs: read them from L2, never from a stale L1 line.
#define ATTN_LOAD_SHARED_RESULT(ptr) __ldcg(ptr)
#endif

namespace attn_dev {

/// The weight of a score (or of a share's max) x in a row whose max is m, given e = 2^(x - base)
/// with base = m, or 0 while m is -inf: e itself, except that a +Inf x weighs 1 (m is then +Inf
/// too and x - m NaN). So the keys scoring +Inf share the row, a NaN score keeps its NaN weight
/// and makes the row NaN, and -inf weighs 0 (docs/language.md, "Non-finite values").
ATTN_HD float softmax_weight(float x, float e) { return x == __int_as_float(0x7f800000) ? 1.f : e; }

/// What a row's scores are taken relative to, given its max m: 0 while nothing is allowed (m =
/// -inf: every weight 2^-inf = 0), the largest float when m is +Inf (a +Inf score then gives 2^inf
/// = inf, which the caller makes 1, and any finite score 0), else m itself.
ATTN_HD float softmax_base(float m) {
  return m == -__int_as_float(0x7f800000) ? 0.f : m == __int_as_float(0x7f800000) ? 3.402823466e38f : m;
}

/// The end of a row (docs/language.md, "Sinks and row maxima"): from its max m (log2 units, -inf
/// when it kept no key), its sum l relative to m (NaN when a kept key scored NaN) and its sink's
/// logit t (natural units; -inf: no sink), the factor that turns the row's unnormalized O into
/// Out, and (when lse is not null) its log-sum-exp. The sink is one more key whose value is 0: it
/// adds its weight to the sum only. Without one the factor is 1 / l and the LSE m ln 2 + ln l; a
/// row with no weight at all gives 0 and -inf.
ATTN_HD float finish_row(float m, float l, float t, float* lse) {
  const float t2 = t * 1.4426950408889634f;
  const float top = fmaxf(m, t2);  // a NaN sink leaves m here; its weight makes the sum NaN
  const float base = softmax_base(top);
  const float keep = softmax_weight(m, exp2f(m - base));  // exactly 1 when m is the top
  const float sum = l * keep + softmax_weight(t2, exp2f(t2 - base));
  // sum != 0 rather than > 0: a NaN sum (a NaN score) must reach Out and LSE.
  if (lse) *lse = sum != 0.f ? top * 0.6931471805599453f + logf(sum) : -__int_as_float(0x7f800000);
  return sum != 0.f ? keep / sum : 0.f;
}

/// The kernel option return_max: the largest kept score of a row (natural units) from its max m
/// (log2 units) and sum l; NaN when a kept key scored NaN, -inf when none was kept.
ATTN_HD float kept_max(float m, float l) { return l != l ? l : m * 0.6931471805599453f; }

/// The merged value of column c of one row whose sink logit is t (-inf: none), and (when lse or
/// max is not null) the row's log-sum-exp and largest kept score; `slots` is split 0's slot of the
/// row, the next split's dv + 2 floats further. A row no split reached gives 0, an LSE of t and a
/// max of -inf.
ATTN_HD float merge_partial_row(const float* slots, int splits, int dv, int c, float t, float* lse,
                                float* max) {
  float m = -__int_as_float(0x7f800000);
  for (int s = 0; s < splits; ++s) m = fmaxf(m, ATTN_LOAD_SHARED_RESULT(slots + s * (dv + 2) + dv));
  const float base = softmax_base(m);
  float sum = 0.f, value = 0.f;
  for (int s = 0; s < splits; ++s) {
    const float* slot = slots + s * (dv + 2);
    const float share_max = ATTN_LOAD_SHARED_RESULT(slot + dv);
    const float w = softmax_weight(share_max, exp2f(share_max - base));  // 0 for a split with no key
    sum += ATTN_LOAD_SHARED_RESULT(slot + dv + 1) * w;
    value += ATTN_LOAD_SHARED_RESULT(slot + c) * w;
  }
  if (max) *max = kept_max(m, sum);
  return value * finish_row(m, sum, t, lse);
}

}  // namespace attn_dev
