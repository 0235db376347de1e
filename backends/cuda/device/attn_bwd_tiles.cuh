// ---- attnc device library: the key-major backward's walk over query tiles ----------------------
// Also compiled on the host by tests/cuda/test_cuda_backward.cpp, which checks it and the dq
// kernel's KeyTiles walk against a brute-force scan of the mask.
namespace attn_dev {

/// The query tiles (BM rows) that visit key tile kt (BN keys) of head h, in order: the forward's
/// plan transposed. With the launcher's run-time plan (bp.tile_cols, masks that read buffers)
/// they are read off its runs for kt; otherwise each query tile's KeyTiles is asked about kt.
template <int BM, int BN>
struct QueryTiles {
  int b, h, kt, q_tiles, kv_tiles;
  const int* runs;  // the transposed plan's runs of query tiles (or 0)
  int run_lo, run_hi;

  __device__ __forceinline__ QueryTiles(const attn_cuda_bwd_params& bp, int b_, int h_, int kt_)
      : b(b_),
        h(h_),
        kt(kt_),
        q_tiles((bp.fwd.q_len + BM - 1) / BM),
        kv_tiles((bp.fwd.kv_len + BN - 1) / BN),
        runs(bp.tile_cols ? bp.tile_col_runs : 0),
        run_lo(bp.tile_cols ? bp.tile_cols[kt_] : 0),
        run_hi(bp.tile_cols ? bp.tile_cols[kt_ + 1] : 0) {}

  /// Query tile qt's own walk over key tiles.
  __device__ __forceinline__ KeyTiles key_tiles(const attn_cuda_params& p, int qt) const {
    const int q0 = qt * BM;
    return KeyTiles(p, b, h, qt, q0, min(q0 + BM, p.q_len) - 1, kv_tiles);
  }

  /// The query tile after qt (pass -1 for the first) that visits kt, or q_tiles when none does.
  __device__ __forceinline__ int next(const attn_cuda_params& p, int qt) const {
    if (runs) {  // sorted, disjoint, never empty: exact
      for (int r = run_lo; r < run_hi; ++r) {
        const int c = max(qt + 1, runs[3 * r]);
        if (c < min(runs[3 * r + 1], q_tiles)) return c;
      }
      return q_tiles;
    }
    for (++qt; qt < q_tiles; ++qt)
      if (key_tiles(p, qt).next(p, kt - 1, BN) == kt) return qt;
    return q_tiles;
  }

  /// True when tile (qt, kt) needs neither the mask nor bounds tests (KeyTiles::unchecked).
  __device__ __forceinline__ bool unchecked(const attn_cuda_params& p, int qt) const {
    const int q0 = qt * BM, k0 = kt * BN;
    if (!runs) return key_tiles(p, qt).unchecked(p, kt, q0, BM, BN);
    if (k0 + BN > p.kv_len || q0 + BM > p.q_len) return false;
    bool full = false;
    for (int r = run_lo; r < run_hi; ++r)
      full |= runs[3 * r + 2] == 2 && runs[3 * r] <= qt && qt < runs[3 * r + 1];
    return full || attn_tile_full(b, h, q0, q0 + BM - 1, k0, k0 + BN - 1, p);
  }
};

}  // namespace attn_dev
