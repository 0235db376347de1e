// ---- attnc device library: what both tensor-core kernels share ------------------------------
// cp.async tile loads, and the per-warp score, online-softmax and store steps over the MMA
// accumulator layout (16 rows a warp; element e of 8-column block j of lane L at row L/4 + 8 (e/2),
// column 8 j + 2 (L % 4) + e % 2), which mma.sync m16n8 and wgmma m64nN have in common.
#define ATTN_THREADS (ATTN_WARPS * 32)

namespace attn_dev {

__device__ __forceinline__ unsigned smem_u32(const void* ptr) {
  return static_cast<unsigned>(__cvta_generic_to_shared(ptr));
}

/// 16-byte global -> shared copy; zero-fills the destination when `valid` is false.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(smem)), "l"(gmem),
               "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/// Two floats as a packed pair of the element type (`lo` in the low half).
__device__ __forceinline__ unsigned pack2(float lo, float hi) {
#if ATTN_DTYPE_BF16
  __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
#else
  __half2 v = __floats2half2_rn(lo, hi);
#endif
  return *reinterpret_cast<unsigned*>(&v);
}

/// Starts copying rows [0, valid_rows) of a ROWS x COLS tile (row stride `stride` elements) into
/// shared memory, XOR-swizzled across whole rows (SLABS false, for ldmatrix) or as wgmma's
/// 64-column slabs (SLABS true); row r is at row_at(r). Rows outside [first_row, valid_rows) are
/// zero-filled and never read from global (their copy names row first_row's address, reading
/// nothing). FP8 rows are loaded 8 bytes at a time and stored converted to bf16 (attn_fp8.cuh):
/// done when this returns, which the pipeline's waits and barriers take as an early landing.
template <int ROWS, int COLS, bool SLABS, class RowAt>
__device__ __forceinline__ void load_rows_async(attn_elem* smem, const RowAt& row_at, int first_row,
                                                int valid_rows, int tid) {
  constexpr int kChunksPerRow = COLS / 8;
  constexpr int kChunks = ROWS * kChunksPerRow;
#pragma unroll
  for (int i = 0; i < (kChunks + ATTN_THREADS - 1) / ATTN_THREADS; ++i) {
    const int c = tid + i * ATTN_THREADS;
    if (kChunks % ATTN_THREADS == 0 || c < kChunks) {
      const int row = c / kChunksPerRow, col = (c % kChunksPerRow) * 8;
      const bool valid = row >= first_row && row < valid_rows;
      const attn_in* src = valid ? row_at(row) + col : row_at(first_row);
      attn_elem* dst = smem + (SLABS ? slab_swz<ROWS>(row, col) : swz<COLS>(row, col));
#if ATTN_FP8
      const uint2 raw = valid ? *reinterpret_cast<const uint2*>(src) : make_uint2(0u, 0u);
      unsigned v[4];
      fp8x8_to_bf16(raw.x, raw.y, v);
      *reinterpret_cast<uint4*>(dst) = make_uint4(v[0], v[1], v[2], v[3]);
#else
      cp_async16(dst, src, valid);
#endif
    }
  }
}

/// load_rows_async over rows `stride` elements apart from `gmem`.
template <int ROWS, int COLS, bool SLABS>
__device__ __forceinline__ void load_tile_async(attn_elem* smem, const attn_in* gmem, long long stride,
                                                int valid_rows, int tid, int first_row = 0) {
  load_rows_async<ROWS, COLS, SLABS>(
      smem, [=](int r) { return gmem + r * stride; }, first_row, valid_rows, tid);
}

/// One CTA's share of the problem: its query rows (CtaRows), its Q/K/V in global memory, the key
/// tiles it visits (the plan's runs minus the tiles the mask rules out), and the cp.async ring
/// that fetches them STAGES - 1 tiles ahead into shared memory laid out as Q (BM x D), then
/// STAGES K tiles (BN x D), then STAGES V tiles (BN x DV).
template <int BM, int BN, int D, int DV, int STAGES, bool SLABS>
struct CtaStream {
  CtaRows rows;
  const attn_in *gQ, *gK, *gV;
  attn_elem *sQ, *sK, *sV;
  KeyTiles tiles;
  int first;  ///< the first key tile to visit (tiles.kv_tiles when there is none)
  int fetch;  ///< the next key tile to copy

  __device__ __forceinline__ CtaStream(const attn_cuda_params& p, unsigned char* smem)
      : rows(p, BM),
        gQ(rows.q_tile(p)),
        gK(rows.k_head(p)),
        gV(rows.v_head(p)),
        sQ(reinterpret_cast<attn_elem*>(smem)),
        sK(sQ + BM * D),
        sV(sK + STAGES * BN * D),
        tiles(cta_key_tiles(p, rows, BN)),
        first(tiles.next(p, -1, BN)),
        fetch(first) {}

  /// The prologue: Q in its own commit group, then the first STAGES - 1 key/value tiles (empty
  /// groups keep the count uniform, so waiting for STAGES - 1 pending groups always means the
  /// oldest tile has landed).
  __device__ __forceinline__ void start(const attn_cuda_params& p, int tid) {
    load_tile_async<BM, D, SLABS>(sQ, gQ, rows.row_stride, rows.rows, tid, rows.row_lo);
    cp_async_commit();
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) refill(p, s, tid);
  }

  /// Starts copying the next tile into stage `s` and commits the group (empty past the end).
  __device__ __forceinline__ void refill(const attn_cuda_params& p, int s, int tid) {
    if (fetch < tiles.kv_tiles) {
      const int n = min(BN, p.kv_len - fetch * BN), k0 = fetch * BN;
      if (p.page_table && p.page_size % BN != 0) {  // a tile across pages: each row through the table
        const attn_in *k = gK, *v = gV;
        load_rows_async<BN, D, SLABS>(
            sK + s * BN * D, [&](int r) { return key_row(p, k, k0 + r, p.k_stride[2], p.k_page_stride); }, 0,
            n, tid);
        load_rows_async<BN, DV, SLABS>(
            sV + s * BN * DV, [&](int r) { return key_row(p, v, k0 + r, p.v_stride[2], p.v_page_stride); }, 0,
            n, tid);
      } else {  // dense, or a tile within one page (one lookup): rows k_stride[2] apart from its first
        load_tile_async<BN, D, SLABS>(sK + s * BN * D, key_row(p, gK, k0, p.k_stride[2], p.k_page_stride),
                                      p.k_stride[2], n, tid);
        load_tile_async<BN, DV, SLABS>(sV + s * BN * DV, key_row(p, gV, k0, p.v_stride[2], p.v_page_stride),
                                       p.v_stride[2], n, tid);
      }
      fetch = tiles.next(p, fetch, BN);
    }
    cp_async_commit();
  }
};

/// Sets an accumulator tile to 0.
template <int N>
__device__ __forceinline__ void zero(float (&d)[N][4]) {
#pragma unroll
  for (int j = 0; j < N; ++j) d[j][0] = d[j][1] = d[j][2] = d[j][3] = 0.f;
}

/// What a thread keeps of its warp's 16 rows across key tiles: O for rows lane/4 and lane/4 + 8
/// (unnormalized), their running max (log2 units) and this thread's part of their running sum.
template <int OB>
struct RowState {
  float acc[OB][4];
  float row_max[2] = {-inf(), -inf()};
  float row_sum[2] = {0.f, 0.f};
  __device__ __forceinline__ RowState() { zero(acc); }
};

/// Turns one warp's raw Q.K products for 16 rows (tile rows row0 ..) and NB * 8 keys (from k0)
/// into scores in log2 units, -inf where the key is not allowed; `checked` false skips the mask
/// and bounds (a tile the plan proved full). Returns the rows' maxima over this lane's elements.
template <int NB>
__device__ __forceinline__ void score_tile(const attn_cuda_params& p, float (&s)[NB][4], bool checked,
                                           const CtaRows& cr, int row0, int k0, int lane,
                                           float (&tile_max)[2]) {
  const int b = cr.b;
  // Partial tiles: the mask first, one element per iteration of a rolled loop (a mask that
  // reads buffers, unrolled over 32 elements, would spill), then the scores of allowed keys.
  unsigned long long allowed = ~0ull;
  if (checked) {
    allowed = 0;
#pragma unroll 1
    for (int i = 0; i < NB * 4; ++i) {
      const int r = row0 + acc_row(lane, i % 4), kv = k0 + (i / 4) * 8 + acc_col(lane, i % 4);
      allowed |= static_cast<unsigned long long>(element_allowed(p, b, cr.h(r), cr.q(r), kv)) << i;
    }
  }
  tile_max[0] = tile_max[1] = -inf();
#pragma unroll
  for (int j = 0; j < NB; ++j) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int r = row0 + acc_row(lane, e), kv = k0 + j * 8 + acc_col(lane, e);
      s[j][e] = (allowed >> (j * 4 + e)) & 1ull
                    ? log2_score(p, descaled_dot(cr, s[j][e]), b, cr.h(r), cr.q(r), kv)
                    : -inf();
      tile_max[e / 2] = fmaxf(tile_max[e / 2], s[j][e]);
    }
  }
}

/// The online-softmax step without O: folds the tile's maxima into the running ones, rescales
/// the running sums, turns the scores into unnormalized probabilities (in place) and returns the
/// factor O must be scaled by (`rescale`) before this tile's P V is added.
template <int NB, int OB>
__device__ __forceinline__ void softmax_step(float (&s)[NB][4], RowState<OB>& o, const float (&tile_max)[2],
                                             float (&scale_old)[2]) {
  float(&row_max)[2] = o.row_max;
  float(&row_sum)[2] = o.row_sum;
  float base[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const float m = fmaxf(row_max[r], quad_max(tile_max[r]));
    base[r] = softmax_base(m);  // a row with nothing allowed yet stays at exactly 0
    scale_old[r] = softmax_weight(row_max[r], exp2_approx(row_max[r] - base[r]));
    row_max[r] = m;
    row_sum[r] *= scale_old[r];
  }
#pragma unroll
  for (int j = 0; j < NB; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) s[j][e] = exp2_approx(s[j][e] - base[e / 2]);
  // A row whose max is +Inf (rare; a branch, so that the common path keeps its registers): its
  // +Inf keys came out as inf and weigh 1 (softmax_base).
  if (base[0] == 3.402823466e38f || base[1] == 3.402823466e38f) {
#pragma unroll
    for (int j = 0; j < NB; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) s[j][e] = softmax_weight(s[j][e], s[j][e]);
  }
#pragma unroll
  for (int j = 0; j < NB; ++j)
#pragma unroll
    for (int e = 0; e < 4; ++e) row_sum[e / 2] += s[j][e];
}

/// O *= the factor of each of the thread's two rows.
template <int OB>
__device__ __forceinline__ void rescale(float (&acc)[OB][4], const float (&scale)[2]) {
#pragma unroll
  for (int j = 0; j < OB; ++j) {
    acc[j][0] *= scale[0];
    acc[j][1] *= scale[0];
    acc[j][2] *= scale[1];
    acc[j][3] *= scale[1];
  }
}

/// The whole online-softmax step: softmax_step, then O rescaled.
template <int NB, int OB>
__device__ __forceinline__ void softmax_update(float (&s)[NB][4], RowState<OB>& o,
                                               const float (&tile_max)[2]) {
  float scale_old[2];
  softmax_step(s, o, tile_max, scale_old);
  rescale(o.acc, scale_old);
}

/// The A fragment of O += P V for keys [16 kk, 16 kk + 16): the probabilities of key blocks
/// 2 kk and 2 kk + 1, packed to the element type.
template <int NB>
__device__ __forceinline__ void p_fragment(const float (&s)[NB][4], int kk, unsigned (&a)[4]) {
  a[0] = pack2(s[2 * kk][0], s[2 * kk][1]);
  a[1] = pack2(s[2 * kk][2], s[2 * kk][3]);
  a[2] = pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
  a[3] = pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
}

/// Normalizes and stores one warp's 16 rows of O (tile rows row0 ..), their LSE and their largest
/// kept score (finish_row: a row with no allowed key gets Out 0 and LSE -inf, or its sink's). With
/// split-KV, the rows go unnormalized to this CTA's partial slots instead (finish_split merges them).
template <int OB>
__device__ __forceinline__ void store_rows(const attn_cuda_params& p, const RowState<OB>& o,
                                           const CtaRows& cr, int row0, int lane) {
  const int z = cr.z;
  const float(&acc)[OB][4] = o.acc;
  const float(&row_max)[2] = o.row_max;
  const float(&row_sum)[2] = o.row_sum;
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const float sum = quad_sum(row_sum[r]);
    const int i = row0 + acc_row(lane, 2 * r), q = cr.q(i), h = cr.h(i);
    if (cr.present(i) && kv_split_count(p) > 1) {
      float* slot = partial_slot(p, z, h, q, OB * 8);
#pragma unroll
      for (int j = 0; j < OB; ++j)
        *reinterpret_cast<float2*>(slot + j * 8 + acc_col(lane, 0)) =
            make_float2(acc[j][2 * r], acc[j][2 * r + 1]);
      if (lane % 4 == 0) slot[OB * 8] = row_max[r], slot[OB * 8 + 1] = sum;
    } else if (cr.present(i)) {
      float lse;
      const float norm = finish_row(row_max[r], sum, sink_logit(p, cr.b, h, q), &lse) * out_descale(cr);
      attn_elem* gO =
          static_cast<attn_elem*>(p.out) + z * p.out_stride[0] + h * p.out_stride[1] + q * p.out_stride[2];
#pragma unroll
      for (int j = 0; j < OB; ++j) {
        const unsigned v = pack2(acc[j][2 * r] * norm, acc[j][2 * r + 1] * norm);
        *reinterpret_cast<unsigned*>(gO + j * 8 + acc_col(lane, 0)) = v;
      }
      if (lane % 4 == 0) store_row_stats(p, z, h, q, lse, kept_max(row_max[r], sum));
    }
  }
}

}  // namespace attn_dev
