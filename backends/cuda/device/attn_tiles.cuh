// ---- attnc device library: tile iteration and the per-element score ----------------------
namespace attn_dev {

/// The key tiles one CTA visits: the plan's runs, minus tiles the mask provably rules out.
struct KeyTiles {
  int begin[ATTN_KEY_RANGES], end[ATTN_KEY_RANGES];
  bool full[ATTN_KEY_RANGES];
  int b, h, q_lo, q_hi, kv_tiles;
  const int* runs;  // the run-time plan's runs of this query tile (or 0)
  int run_lo, run_hi;

  __device__ __forceinline__ KeyTiles(const attn_cuda_params& p, int b_, int h_, int qt, int q_lo_, int q_hi_, int tiles)
      : b(b_), h(h_), q_lo(q_lo_), q_hi(q_hi_), kv_tiles(tiles), runs(p.tile_runs), run_lo(0), run_hi(0) {
    attn_key_tile_ranges(b, h, qt, kv_tiles, p, begin, end, full);
#pragma unroll
    for (int r = 0; r < ATTN_KEY_RANGES; ++r) end[r] = min(end[r], kv_tiles);
    if (runs && p.tile_rows) {
      run_lo = p.tile_rows[qt];
      run_hi = p.tile_rows[qt + 1];
    } else {
      runs = 0;
    }
  }

  /// True when a plan run classifies tile kt as all allowed.
  __device__ __forceinline__ bool planned_full(int kt) const {
    bool f = false;
    if (runs) {
      for (int r = run_lo; r < run_hi; ++r) f |= runs[3 * r + 2] == 2 && runs[3 * r] <= kt && kt < runs[3 * r + 1];
      return f;
    }
#pragma unroll
    for (int r = 0; r < ATTN_KEY_RANGES; ++r) f |= full[r] && begin[r] <= kt && kt < end[r];
    return f;
  }

  /// The tile to visit after `kt` (pass -1 for the first), or kv_tiles when there is none.
  __device__ __forceinline__ int next(const attn_cuda_params& p, int kt, int block_n) const {
    if (runs) {  // sorted, disjoint, never empty: exact
      for (int r = run_lo; r < run_hi; ++r) {
        const int c = max(kt + 1, runs[3 * r]);
        if (c < min(runs[3 * r + 1], kv_tiles)) return c;
      }
      return kv_tiles;
    }
    for (;;) {
      int t = kv_tiles;
#pragma unroll
      for (int r = 0; r < ATTN_KEY_RANGES; ++r) {
        const int c = max(kt + 1, begin[r]);
        if (c < end[r]) t = min(t, c);
      }
      if (t >= kv_tiles) return kv_tiles;
      const int kv_lo = t * block_n, kv_hi = min(kv_lo + block_n, p.kv_len) - 1;
      if (planned_full(t) || !attn_tile_empty(b, h, q_lo, q_hi, kv_lo, kv_hi, p)) return t;
      kt = t;
    }
  }

  /// True when tile kt needs neither the mask nor bounds tests: all allowed, no padding rows
  /// (q0 + block_m <= q_len) or keys.
  __device__ __forceinline__ bool unchecked(const attn_cuda_params& p, int kt, int q0, int block_m, int block_n) const {
    const int k0 = kt * block_n;
    if (k0 + block_n > p.kv_len || q0 + block_m > p.q_len) return false;
    return planned_full(kt) || attn_tile_full(b, h, q_lo, q_hi, k0, k0 + block_n - 1, p);
  }
};

/// True when key kv is allowed for query q: within the lengths and the mask.
__device__ __forceinline__ bool element_allowed(const attn_cuda_params& p, int b, int h, int q, int kv) {
  if (q >= p.q_len || kv >= p.kv_len) return false;
#if ATTN_HAS_MASK
  return attn_mask(b, h, q, kv, p);
#else
  return true;
#endif
}

/// The score of an allowed (q, kv) element in log2 units; `dot` is Q.K in f32.
__device__ __forceinline__ float log2_score(const attn_cuda_params& p, float dot, int b, int h, int q, int kv) {
#if ATTN_HAS_SCORE
  return attn_score(dot * p.scale, b, h, q, kv, p) * 1.4426950408889634f;
#else
  return dot * p.scale_log2;
#endif
}

}  // namespace attn_dev
