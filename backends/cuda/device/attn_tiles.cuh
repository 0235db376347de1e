// ---- attnc device library: tile iteration and the per-element score ----------------------
namespace attn_dev {

/// The key tile after `kt` that the mask does not rule out, or `end`.
__device__ __forceinline__ int next_key_tile(const attn_cuda_params& p, int b, int h, int q_lo, int q_hi, int kt,
                                             int end, int block_n) {
  for (++kt; kt < end; ++kt) {
    const int kv_lo = kt * block_n, kv_hi = min(kv_lo + block_n, p.kv_len) - 1;
    if (!attn_tile_empty(b, h, q_lo, q_hi, kv_lo, kv_hi, p)) break;
  }
  return kt;
}

/// The score of one (q, kv) element in log2 units, -inf where the key is dropped. `dot` is
/// Q.K in f32. `checked`: the tile is partial (or has padding): test bounds and the mask.
__device__ __forceinline__ float log2_score(const attn_cuda_params& p, float dot, int b, int h, int q, int kv,
                                            bool checked) {
  if (checked) {
    if (q >= p.q_len || kv >= p.kv_len) return -inf();
#if ATTN_HAS_MASK
    if (!attn_mask(b, h, q, kv, p)) return -inf();
#endif
  }
#if ATTN_HAS_SCORE
  return attn_score(dot * p.scale, b, h, q, kv, p) * 1.4426950408889634f;
#else
  return dot * p.scale_log2;
#endif
}

}  // namespace attn_dev
