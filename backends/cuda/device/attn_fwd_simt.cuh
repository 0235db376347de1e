// ---- attnc device library: the SIMT forward kernel (f32, and head dims the MMA path lacks) ----
// One CTA owns ATTN_BM = ATTN_WARPS * ATTN_ROWS query rows; each warp owns ATTN_ROWS of them.
// A key tile of 32 rows sits in shared memory as f32 (K padded by one column: conflict-free);
// lane j scores key j of the tile for all of the warp's rows, then the warp accumulates P V with
// lane c owning output columns c, c + 32, ...
#define ATTN_THREADS (ATTN_WARPS * 32)

/// The forward kernel. Grid: (query tiles * max(1, kv_splits), Hq, or Hkv with pack_heads, B) as
/// attn_cuda_params says (with ATTN_VARLEN: one CTA per item of its work list); block:
/// ATTN_THREADS; dynamic shared memory: ATTN_SMEM_BYTES.
extern "C" __global__ void __launch_bounds__(ATTN_THREADS, 1) ATTN_ENTRY(ATTN_FWD_PARAMS) {
  using namespace attn_dev;
  ATTN_FWD_ENTER
  constexpr int D = ATTN_D, DV = ATTN_DV, BM = ATTN_BM, BN = 32, ROWS = ATTN_ROWS;
  constexpr int KP = D + 1;              // padded K row
  constexpr int VC = (DV + 31) / 32;     // output columns per lane
  extern __shared__ __align__(16) unsigned char attn_smem[];
  float* sQ = reinterpret_cast<float*>(attn_smem);  // [BM][D]
  float* sK = sQ + BM * D;                          // [BN][KP]
  float* sV = sK + BN * KP;                         // [BN][DV]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const CtaRows cr(p, BM);
  const int b = cr.b, z = cr.z;
  const attn_in *gQ = cr.q_tile(p), *gK = cr.k_head(p), *gV = cr.v_head(p);

  for (int i = tid; i < BM * D; i += ATTN_THREADS) {
    const int r = i / D, c = i % D;
    sQ[i] = cr.present(r) ? to_f32(gQ[r * cr.row_stride + c]) : 0.f;
  }

  const KeyTiles tiles = cta_key_tiles(p, cr, BN);

  float acc[ROWS][VC];
  float row_max[ROWS], row_sum[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    row_max[r] = -inf();
    row_sum[r] = 0.f;
#pragma unroll
    for (int c = 0; c < VC; ++c) acc[r][c] = 0.f;
  }

  for (int kt = tiles.next(p, -1, BN); kt < tiles.kv_tiles; kt = tiles.next(p, kt, BN)) {
    const int k0 = kt * BN;
    const int k_rows = min(BN, p.kv_len - k0);
    __syncthreads();  // the previous tile is consumed
    for (int i = tid; i < BN * D; i += ATTN_THREADS) {
      const int r = i / D, c = i % D;
      sK[r * KP + c] = r < k_rows ? to_f32(key_row(p, gK, k0 + r, p.k_stride[2], p.k_page_stride)[c]) : 0.f;
    }
    for (int i = tid; i < BN * DV; i += ATTN_THREADS) {
      const int r = i / DV, c = i % DV;
      sV[i] = r < k_rows ? to_f32(key_row(p, gV, k0 + r, p.v_stride[2], p.v_page_stride)[c]) : 0.f;
    }
    __syncthreads();

    float s[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) s[r] = 0.f;
    for (int d = 0; d < D; ++d) {
      const float k = sK[lane * KP + d];
#pragma unroll
      for (int r = 0; r < ROWS; ++r) s[r] += sQ[(warp * ROWS + r) * D + d] * k;
    }
    const bool checked = !tiles.unchecked(p, kt, cr.q0, BM, BN);
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const int q = cr.q(warp * ROWS + r), h = cr.h(warp * ROWS + r);
      const float x = checked && !element_allowed(p, b, h, q, k0 + lane)
                          ? -inf()
                          : log2_score(p, descaled_dot(cr, s[r]), b, h, q, k0 + lane);
      const float m = fmaxf(row_max[r], warp_max(x));
      const float base = softmax_base(m);
      const float scale_old = softmax_weight(row_max[r], exp2_approx(row_max[r] - base));
      row_max[r] = m;
      s[r] = softmax_weight(x, exp2_approx(x - base));
      row_sum[r] = row_sum[r] * scale_old + warp_sum(s[r]);
#pragma unroll
      for (int c = 0; c < VC; ++c) acc[r][c] *= scale_old;
    }
    for (int j = 0; j < BN; ++j) {
      float pj[ROWS];  // key j's weight in each of the warp's rows
#pragma unroll
      for (int r = 0; r < ROWS; ++r) pj[r] = __shfl_sync(0xffffffffu, s[r], j);
#pragma unroll
      for (int c = 0; c < VC; ++c) {
        const int col = lane + 32 * c;
        const float v = (DV % 32 == 0 || col < DV) ? sV[j * DV + col] : 0.f;
#pragma unroll
        for (int r = 0; r < ROWS; ++r) acc[r][c] += pj[r] * v;
      }
    }
  }

#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const int i = warp * ROWS + r, q = cr.q(i), h = cr.h(i);
    if (!cr.present(i)) continue;
    if (kv_split_count(p) > 1) {  // unnormalized, to this CTA's partial slot (finish_split merges)
      float* slot = partial_slot(p, z, h, q, DV);
#pragma unroll
      for (int c = 0; c < VC; ++c)
        if (DV % 32 == 0 || lane + 32 * c < DV) slot[lane + 32 * c] = acc[r][c];
      if (lane == 0) slot[DV] = row_max[r], slot[DV + 1] = row_sum[r];
      continue;
    }
    float lse;
    const float norm = finish_row(row_max[r], row_sum[r], sink_logit(p, b, h, q), &lse) * out_descale(cr);
    attn_elem* gO =
        static_cast<attn_elem*>(p.out) + z * p.out_stride[0] + h * p.out_stride[1] + q * p.out_stride[2];
#pragma unroll
    for (int c = 0; c < VC; ++c) {
      const int col = lane + 32 * c;
      if (DV % 32 == 0 || col < DV) from_f32(acc[r][c] * norm, gO + col);
    }
    if (lane == 0) store_row_stats(p, z, h, q, lse, kept_max(row_max[r], row_sum[r]));
  }
  finish_split<DV>(p, cr);
}
