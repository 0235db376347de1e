// ---- attnc device library: the tensor-core backward kernels (FlashAttention-2's backward) -----
// With P recomputed from the forward's LSE, delta = rowsum(dO * O) - dLSE and
// dS = P (dP - delta) ds'/ds (the loss's derivative with respect to the scaled Q.K):
//   attn_bwd_dkdv: one CTA per 64 keys of a (batch, kv head); warps 0-3 keep dV and warps 4-7 dK
//     of 16 keys each in registers while the CTA walks the query tiles of the group's heads in
//     order: S^T = K Q^T (both), dP^T = V dO^T (dK's), then dV += P^T dO or dK += dS^T Q (the
//     accumulators of S^T and dP^T become A fragments, as P does in the forward).
//   attn_bwd_dq: one CTA per 64 queries of a (batch, head), 16 per warp of the first 4, the
//     forward's walk over key tiles: S = Q K^T, dP = dO V^T, dQ += dS K. It also sums the buffer
//     gradients: each warp adds its share of every read site into its own slot, lanes that hit
//     one element combined in lane order, then its rows' sink gradients, so that no sum depends
//     on scheduling; attn_bwd_grad adds the slots in order.
// Tile visits follow the forward's plan for 64 x 64 tiles (attn_key_tile_ranges, or the launcher's
// run-time plan for masks that read buffers), transposed for the key-major kernel (QueryTiles).
// A row whose LSE is +Inf follows attn_bwd_rows.cuh: attn_bwd_pre counts its keys at +Inf and
// leaves their share in delta, the dV warps weigh them by it, and no dS flows from the row.
// Every mma.sync operand uses the forward's fragment layouts (attn_mma_layout.cuh;
// tests/cuda/test_mma_layout.cpp simulates the transposed products).
namespace attn_dev {

/// One element's weight P (row_weight; `share`: a key at +Inf in a row at +Inf), 0 where the key
/// is not allowed.
__device__ __forceinline__ float element_weight(const attn_cuda_params& p, bool allowed, float dot, int b,
                                                int h, int q, int kv, float lse2, float share) {
  if (!allowed) return 0.f;
  const float s2 = log2_score(p, dot, b, h, q, kv);
  return row_weight(s2, lse2, share, exp2_approx(s2 - lse2));
}

/// dS from P and dS': times ds'/ds at the element (the identity without a score modifier).
__device__ __forceinline__ float element_dscore(const attn_cuda_params& p, float weight, float dsp, float dot,
                                                int b, int h, int q, int kv) {
  if (weight == 0.f) return 0.f;
#if ATTN_HAS_SCORE
  return dsp * attn_score_grad(dot * p.scale, b, h, q, kv, p);
#else
  return dsp;
#endif
}

/// Which of a warp's NC * 4 accumulator elements (rows row0 + acc_row, columns col0 + 8 j +
/// acc_col; keys along rows when KEY_ROWS) are allowed; a rolled loop, as in score_tile.
template <int NC, bool KEY_ROWS>
__device__ __forceinline__ unsigned long long allowed_elements(const attn_cuda_params& p, int b, int h,
                                                               int q0, int k0, int row0, int col0, int lane) {
  unsigned long long allowed = 0;
#pragma unroll 1
  for (int i = 0; i < NC * 4; ++i) {
    const int r = row0 + acc_row(lane, i % 4), c = col0 + (i / 4) * 8 + acc_col(lane, i % 4);
    const int q = q0 + (KEY_ROWS ? c : r), kv = k0 + (KEY_ROWS ? r : c);
    allowed |= static_cast<unsigned long long>(element_allowed(p, b, h, q, kv)) << i;
  }
  return allowed;
}

/// acc (16 rows x NC * 8 columns) += A B, A = rows a_row.. of a swizzled smem tile with K
/// columns, B^T = rows b_row.. of another (NC * 8 rows, K columns): the forward's Q K^T.
template <int NC, int K>
__device__ __forceinline__ void mma_abt(float (&acc)[NC][4], const attn_elem* sA, const attn_elem* sB,
                                        int lane) {
  const attn_elem* a_row = sA + q_lane_row(lane) * K;
  const attn_elem* b_row = sB + k_lane_row(lane) * K;
  const SwizzledPairs a_cols = q_lane_cols(lane), b_cols = k_lane_cols(lane);
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk) {
    unsigned a[4];
    ldmatrix_x4(a, a_row + a_cols.at(kk));
#pragma unroll
    for (int j = 0; j < NC; j += 2) {
      unsigned bf[4];
      ldmatrix_x4(bf, b_row + j * 8 * K + b_cols.at(kk));
      mma16816(acc[j], a, bf[0], bf[1]);
      mma16816(acc[j + 1], a, bf[2], bf[3]);
    }
  }
}

/// acc (16 rows x NC * 8 columns) += X B, X = the 16 x KX tile held as accumulators x (packed
/// to the element type), B = rows 0.. of a swizzled smem tile with NC * 8 columns (loaded
/// transposed): the forward's P V.
template <int NX, int NC>
__device__ __forceinline__ void mma_xb(float (&acc)[NC][4], const float (&x)[NX][4], const attn_elem* sB,
                                       int lane) {
  const attn_elem* b_row = sB + v_lane_row(lane) * (NC * 8);
  const SwizzledPairs b_cols = v_lane_cols(lane);
#pragma unroll
  for (int kk = 0; kk < NX / 2; ++kk) {
    unsigned a[4];
    p_fragment<NX>(x, kk, a);
#pragma unroll
    for (int j = 0; j < NC; j += 2) {
      unsigned bf[4];
      ldmatrix_x4_trans(bf, b_row + kk * 16 * (NC * 8) + b_cols.at(j / 2));
      mma16816(acc[j], a, bf[0], bf[1]);
      mma16816(acc[j + 1], a, bf[2], bf[3]);
    }
  }
}

/// Stores one warp's 16 accumulator rows (tile rows row0 ..; those below `rows`) times `factor`.
template <int NC>
__device__ __forceinline__ void store_acc(const float (&acc)[NC][4], float factor, attn_elem* base,
                                          long long stride, int row0, int rows, int lane) {
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const int i = row0 + acc_row(lane, 2 * r);
    if (i >= rows) continue;
    attn_elem* g = base + i * stride;
#pragma unroll
    for (int j = 0; j < NC; ++j)
      *reinterpret_cast<unsigned*>(g + j * 8 + acc_col(lane, 0)) =
          pack2(acc[j][2 * r] * factor, acc[j][2 * r + 1] * factor);
  }
}

/// Row `row` of head h of batch entry z (blockIdx.z) of a tensor. The entry addresses the tensors;
/// the mask, the score and the buffers see b = z + p.batch_base (a ragged batch is launched one
/// sequence at a time, on views of its packed tensors).
template <typename T>
__device__ __forceinline__ T* tensor_row(T* base, const long long (&stride)[3], int z, int h, int row) {
  return base + z * stride[0] + h * stride[1] + row * stride[2];
}

/// The allowed keys of row (b, h, q) of entry z whose score is +Inf, and its sink if that is +Inf,
/// counted by one warp (lanes across the keys of each key tile the forward's plan visits), the
/// score computed as the forward does: Q.K in f32, then log2_score.
__device__ __forceinline__ float count_ties(const attn_cuda_params& p, int z, int b, int h, int q, int lane) {
  constexpr int BN = ATTN_BWD_BN;
  const attn_elem* qrow = tensor_row(static_cast<const attn_elem*>(p.q), p.q_stride, z, h, q);
  const int hk = h / (p.q_heads / p.kv_heads);
  const KeyTiles tiles(p, b, h, q / ATTN_BWD_BM, q, q, (p.kv_len + BN - 1) / BN);
  float ties = 0.f;
  for (int kt = tiles.next(p, -1, BN); kt < tiles.kv_tiles; kt = tiles.next(p, kt, BN))
    for (int kv = kt * BN + lane; kv < min(kt * BN + BN, p.kv_len); kv += 32) {
      if (!element_allowed(p, b, h, q, kv)) continue;
      const attn_elem* krow = tensor_row(static_cast<const attn_elem*>(p.k), p.k_stride, z, hk, kv);
      float dot = 0.f;
      for (int c = 0; c < ATTN_D; ++c) dot += to_f32(qrow[c]) * to_f32(krow[c]);
      ties += log2_score(p, dot, b, h, q, kv) == inf() ? 1.f : 0.f;
    }
  // A sink at +Inf shares the row too (its value is 0: it only takes its share).
  return warp_sum(ties) + (sink_logit(p, b, h, q) == inf() ? 1.f : 0.f);
}

/// The buffer gradients' share of one warp's 16 x BN elements (dS' and raw scores in ds/raw):
/// read site s adds dS' * d score'/d buffer[index] to element index of the warp's slot. Lanes
/// whose sites hit one element add in lane order and one of them stores, so the sum is
/// independent of scheduling.
template <int BN>
__device__ __forceinline__ void buffer_grads(const attn_cuda_bwd_params& bp, const float* ds,
                                             const float* raw, int b, int h, int q0, int k0, int lane,
                                             float* slot) {
#if ATTN_BWD_SITES > 0
  const attn_cuda_params& p = bp.fwd;
#pragma unroll 1
  for (int i = 0; i < 16 * BN / 32; ++i) {
    const int e = i * 32 + lane, r = e / BN, c = e % BN;
    const float dsp = ds[e];
#pragma unroll
    for (int s = 0; s < ATTN_BWD_SITES; ++s) {
      long long at = -1;
      float g = 0.f;
      if (dsp != 0.f && bp.site_base[s] >= 0) {
        const float partial = attn_site_partial(s, raw[e], b, h, q0 + r, k0 + c, p);
        const long long o = partial != 0.f ? attn_site_offset(s, b, h, q0 + r, k0 + c, p) : -1;
        if (o >= 0) at = bp.site_base[s] + o, g = dsp * partial;
      }
      const unsigned same = __match_any_sync(0xffffffffu, at);
      float sum = 0.f;
#pragma unroll
      for (int l = 0; l < 32; ++l) {
        const float x = __shfl_sync(0xffffffffu, g, l);
        if ((same >> l) & 1u) sum += x;
      }
      if (at >= 0 && lane == __ffs(same) - 1) slot[at] += sum;
      __syncwarp();
    }
  }
#else
  (void)bp, (void)ds, (void)raw, (void)b, (void)h, (void)q0, (void)k0, (void)lane, (void)slot;
#endif
}

/// An accumulator tile as its first NC column blocks (dK's D / 8 or dV's DV / 8 of a tile sized
/// for the larger).
template <int NC, int NA>
__device__ __forceinline__ float (&first_blocks(float (&acc)[NA][4]))[NC][4] {
  static_assert(NC <= NA, "the accumulator tile is too small");
  return *reinterpret_cast<float(*)[NC][4]>(&acc);
}

/// One step of the dkdv kernel for one warp's 16 keys (tile rows row0 ..) and BQ = NQ * 8
/// queries (tile rows qs ..): S^T = K Q^T and the weights P, then dV += P^T dO (DK false; in a
/// row at +Inf sDelta holds the share of its keys at +Inf), or dP^T = V dO^T, dS and
/// dK += dS^T Q (DK true; unscaled).
template <int NQ, bool DK, int NC>
__device__ __forceinline__ void dkdv_step(const attn_cuda_bwd_params& bp, float (&acc)[NC][4],
                                          const attn_elem* sK, const attn_elem* sV, const attn_elem* sQ,
                                          const attn_elem* sdO, const float* sL, const float* sDelta,
                                          bool checked, int b, int h, int q0, int k0, int row0, int qs,
                                          int lane) {
  constexpr int D = ATTN_D, DV = ATTN_DV;
  const attn_cuda_params& p = bp.fwd;
  float st[NQ][4];
  zero(st);
  mma_abt<NQ, D>(st, sK + row0 * D, sQ + qs * D, lane);
  const unsigned long long allowed =
      checked ? allowed_elements<NQ, true>(p, b, h, q0, k0, row0, qs, lane) : ~0ull;
  if constexpr (DK) {
    float dpt[NQ][4];
    zero(dpt);
    mma_abt<NQ, DV>(dpt, sV + row0 * DV, sdO + qs * DV, lane);
#pragma unroll
    for (int j = 0; j < NQ; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int c = qs + j * 8 + acc_col(lane, e), q = q0 + c, kv = k0 + row0 + acc_row(lane, e);
        const float w = element_weight(p, (allowed >> (j * 4 + e)) & 1ull, st[j][e], b, h, q, kv, sL[c], 0.f);
        dpt[j][e] = element_dscore(p, w, w * (dpt[j][e] - sDelta[c]), st[j][e], b, h, q, kv);
      }
    mma_xb<NQ, NC>(acc, dpt, sQ + qs * D, lane);
  } else {
    (void)sV, (void)sDelta;
#pragma unroll
    for (int j = 0; j < NQ; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int c = qs + j * 8 + acc_col(lane, e), q = q0 + c, kv = k0 + row0 + acc_row(lane, e);
        st[j][e] =
            element_weight(p, (allowed >> (j * 4 + e)) & 1ull, st[j][e], b, h, q, kv, sL[c], sDelta[c]);
      }
    mma_xb<NQ, NC>(acc, st, sdO + qs * DV, lane);
  }
}

/// The sink's share of the buffer gradients, for rows [q0, q0 + rows) of head h of entry z: with
/// p_t = exp(t - LSE), d loss / d t = -p_t delta (delta = rowsum(dOut * Out) - dLSE; nothing in a
/// row at +Inf), times d t / d buffer[index] at each of the sink's read sites, added to the warp's
/// slot by lane 0 in row order. Every lane of the warp calls it.
__device__ __forceinline__ void sink_grads(const attn_cuda_bwd_params& bp, int z, int b, int h, int q0,
                                           int rows, int lane, float* slot) {
#if ATTN_BWD_SINK_SITES > 0
  const attn_cuda_params& p = bp.fwd;
  __syncwarp();  // the warp's buffer_grads adds are in the slot
  if (lane == 0)
    for (int q = q0; q < q0 + rows; ++q) {
      const float lse = *tensor_row(p.lse, p.lse_stride, z, h, q), t = sink_logit(p, b, h, q);
      if (lse == inf() || t == -inf()) continue;
      const float dt = -expf(t - lse) * bp.delta[(static_cast<long long>(z) * p.q_heads + h) * p.q_len + q];
#pragma unroll 1
      for (int s = 0; s < ATTN_BWD_SINK_SITES; ++s) {
        const long long base = bp.site_base[ATTN_BWD_SITES + s];
        const float partial = base >= 0 ? attn_sink_site_partial(s, b, h, q, p) : 0.f;
        // A read in a select's untaken branch has partial 0 and may be out of range.
        const long long o = partial != 0.f ? attn_sink_site_offset(s, b, h, q, p) : -1;
        if (o >= 0) slot[base + o] += dt * partial;
      }
    }
  __syncwarp();
#else
  (void)bp, (void)z, (void)b, (void)h, (void)q0, (void)rows, (void)lane, (void)slot;
#endif
}

}  // namespace attn_dev

/// delta (row_delta), one warp per row. Grid (ceil(Lq / 4), Hq, B); 128 threads.
extern "C" __global__ void __launch_bounds__(128) ATTN_BWD_PRE(const attn_cuda_bwd_params bp) {
  using namespace attn_dev;
  const attn_cuda_params& p = bp.fwd;
  const int q = blockIdx.x * 4 + threadIdx.x / 32, h = blockIdx.y, lane = threadIdx.x % 32;
  const int z = blockIdx.z, b = z + p.batch_base;
  if (q >= p.q_len) return;
  const attn_elem* o = tensor_row(static_cast<const attn_elem*>(p.out), p.out_stride, z, h, q);
  const attn_elem* dout = tensor_row(static_cast<const attn_elem*>(bp.dout), bp.dout_stride, z, h, q);
  float sum = 0.f;
  for (int c = lane; c < ATTN_DV; c += 32) sum += to_f32(o[c]) * to_f32(dout[c]);
  sum = warp_sum(sum);
  const float lse = *tensor_row(p.lse, p.lse_stride, z, h, q);
  // The whole warp takes the branch (one row): rare, so the count costs the common rows nothing.
  const float ties = lse == inf() ? count_ties(p, z, b, h, q, lane) : 0.f;
  if (lane == 0)
    bp.delta[(static_cast<long long>(z) * p.q_heads + h) * p.q_len + q] =
        row_delta(lse, sum, bp.dlse ? *tensor_row(bp.dlse, bp.dlse_stride, z, h, q) : 0.f, ties);
}

/// dK and dV of 64 keys. Grid (ceil(Lkv / 64), Hkv, B); ATTN_THREADS; ATTN_BWD_DKDV_SMEM bytes.
extern "C" __global__ void __launch_bounds__(ATTN_THREADS, 1) ATTN_BWD_DKDV(const attn_cuda_bwd_params bp) {
  using namespace attn_dev;
  constexpr int D = ATTN_D, DV = ATTN_DV, BM = ATTN_BWD_BM, BN = ATTN_BWD_BN, BQ = ATTN_BWD_BQ;
  constexpr int NQ = BQ / 8;
  const attn_cuda_params& p = bp.fwd;
  extern __shared__ __align__(128) unsigned char attn_smem[];
  attn_elem* sK = reinterpret_cast<attn_elem*>(attn_smem);
  attn_elem* sV = sK + BN * D;
  attn_elem* sQ = sV + BN * DV;
  attn_elem* sdO = sQ + BM * D;
  float* sL = reinterpret_cast<float*>(sdO + BM * DV);
  float* sDelta = sL + BM;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int kt = blockIdx.x, hk = blockIdx.y, k0 = kt * BN, keys = min(BN, p.kv_len - k0);
  const int z = blockIdx.z, b = z + p.batch_base;
  const int group = p.q_heads / p.kv_heads;
  load_tile_async<BN, D, false>(sK, tensor_row(static_cast<const attn_elem*>(p.k), p.k_stride, z, hk, k0),
                                p.k_stride[2], keys, tid);
  load_tile_async<BN, DV, false>(sV, tensor_row(static_cast<const attn_elem*>(p.v), p.v_stride, z, hk, k0),
                                 p.v_stride[2], keys, tid);
  cp_async_commit();

  // Warps 0 .. W/2 - 1 sum dV, warps W/2 .. W - 1 dK, of the same 16 keys each: either keeps one
  // accumulator tile in registers beside a step's S^T (and dP^T), which fits without spills.
  constexpr int NA = (D > DV ? D : DV) / 8;
  float acc[NA][4];
  zero(acc);
  const bool dk_warp = warp >= ATTN_WARPS / 2;
  const int row0 = (warp % (ATTN_WARPS / 2)) * 16;  // the warp's keys within the tile
  for (int h = hk * group; h < (hk + 1) * group; ++h) {
    const QueryTiles<BM, BN> tiles(bp, b, h, kt);
    for (int qt = tiles.next(p, -1); qt < tiles.q_tiles; qt = tiles.next(p, qt)) {
      const int q0 = qt * BM, rows = min(BM, p.q_len - q0);
      const bool checked = !tiles.unchecked(p, qt);
      load_tile_async<BM, D, false>(sQ, tensor_row(static_cast<const attn_elem*>(p.q), p.q_stride, z, h, q0),
                                    p.q_stride[2], rows, tid);
      load_tile_async<BM, DV, false>(
          sdO, tensor_row(static_cast<const attn_elem*>(bp.dout), bp.dout_stride, z, h, q0),
          bp.dout_stride[2], rows, tid);
      cp_async_commit();
      for (int i = tid; i < BM; i += ATTN_THREADS) {
        const long long row = (static_cast<long long>(z) * p.q_heads + h) * p.q_len + q0 + i;
        sL[i] = i < rows ? lse_log2(*tensor_row(p.lse, p.lse_stride, z, h, q0 + i)) : inf();
        sDelta[i] = i < rows ? bp.delta[row] : 0.f;
      }
      cp_async_wait<0>();
      __syncthreads();
#pragma unroll 1
      for (int qs = 0; qs < BM; qs += BQ) {
        if (dk_warp)
          dkdv_step<NQ, true>(bp, first_blocks<D / 8>(acc), sK, sV, sQ, sdO, sL, sDelta, checked, b, h, q0,
                              k0, row0, qs, lane);
        else
          dkdv_step<NQ, false>(bp, first_blocks<DV / 8>(acc), sK, sV, sQ, sdO, sL, sDelta, checked, b, h, q0,
                               k0, row0, qs, lane);
      }
      __syncthreads();  // everyone is done with Q and dO before the next tile overwrites them
    }
  }
  cp_async_wait<0>();
  if (dk_warp)
    store_acc(first_blocks<D / 8>(acc), p.scale,
              tensor_row(static_cast<attn_elem*>(bp.dk), bp.dk_stride, z, hk, k0), bp.dk_stride[2], row0,
              keys, lane);
  else
    store_acc(first_blocks<DV / 8>(acc), 1.f,
              tensor_row(static_cast<attn_elem*>(bp.dv), bp.dv_stride, z, hk, k0), bp.dv_stride[2], row0,
              keys, lane);
}

/// dQ of 64 queries, and their share of the buffer gradients. Grid (ceil(Lq / 64), Hq, B);
/// ATTN_THREADS; ATTN_BWD_DQ_SMEM bytes.
extern "C" __global__ void __launch_bounds__(ATTN_THREADS, 1) ATTN_BWD_DQ(const attn_cuda_bwd_params bp) {
  using namespace attn_dev;
  constexpr int D = ATTN_D, DV = ATTN_DV, BM = ATTN_BWD_BM, BN = ATTN_BWD_BN, BK = ATTN_BWD_BK, NK = BK / 8;
  const attn_cuda_params& p = bp.fwd;
  extern __shared__ __align__(128) unsigned char attn_smem[];
  attn_elem* sQ = reinterpret_cast<attn_elem*>(attn_smem);
  attn_elem* sdO = sQ + BM * D;
  attn_elem* sK = sdO + BM * DV;
  attn_elem* sV = sK + BN * D;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int qt = blockIdx.x, h = blockIdx.y, q0 = qt * BM, rows = min(BM, p.q_len - q0);
  const int z = blockIdx.z, b = z + p.batch_base;
  // The first BM / 16 warps own 16 query rows each; the others help with the tile loads only.
  constexpr int DQ_WARPS = BM / 16;
  const bool computes = warp < DQ_WARPS;
  const int hk = h / (p.q_heads / p.kv_heads), row0 = (warp % DQ_WARPS) * 16;
  load_tile_async<BM, D, false>(sQ, tensor_row(static_cast<const attn_elem*>(p.q), p.q_stride, z, h, q0),
                                p.q_stride[2], rows, tid);
  load_tile_async<BM, DV, false>(sdO,
                                 tensor_row(static_cast<const attn_elem*>(bp.dout), bp.dout_stride, z, h, q0),
                                 bp.dout_stride[2], rows, tid);
  cp_async_commit();
  float lse2[2], delta[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const int i = row0 + acc_row(lane, 2 * r);
    lse2[r] = i < rows ? lse_log2(*tensor_row(p.lse, p.lse_stride, z, h, q0 + i)) : inf();
    delta[r] = i < rows ? bp.delta[(static_cast<long long>(z) * p.q_heads + h) * p.q_len + q0 + i] : 0.f;
  }
#if ATTN_BWD_SITES + ATTN_BWD_SINK_SITES > 0
  // The warp's slot of the buffer gradients (buffer_grads, sink_grads).
  float* slot =
      bp.grad_partial && computes
          ? bp.grad_partial +
                ((((static_cast<long long>(z) * p.q_heads + h) * gridDim.x + qt) * DQ_WARPS + warp) *
                 bp.grad_numel)
          : 0;
#endif
#if ATTN_BWD_SITES > 0
  // dS' and the raw score of the warp's elements, for buffer_grads.
  float* sDs = reinterpret_cast<float*>(sV + BN * DV) + row0 * BN;
  float* sRaw = sDs + DQ_WARPS * 16 * BN;
#endif

  float dq[D / 8][4];
  zero(dq);
  const KeyTiles tiles(p, b, h, qt, q0, q0 + rows - 1, (p.kv_len + BN - 1) / BN);
  for (int kt = tiles.next(p, -1, BN); kt < tiles.kv_tiles; kt = tiles.next(p, kt, BN)) {
    const int k0 = kt * BN, keys = min(BN, p.kv_len - k0);
    load_tile_async<BN, D, false>(sK, tensor_row(static_cast<const attn_elem*>(p.k), p.k_stride, z, hk, k0),
                                  p.k_stride[2], keys, tid);
    load_tile_async<BN, DV, false>(sV, tensor_row(static_cast<const attn_elem*>(p.v), p.v_stride, z, hk, k0),
                                   p.v_stride[2], keys, tid);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    const bool unchecked = tiles.unchecked(p, kt, q0, BM, BN);
#pragma unroll 1
    for (int ks = 0; ks < (computes ? BN : 0); ks += BK) {
      float s[NK][4], dp[NK][4];
      zero(s);
      zero(dp);
      mma_abt<NK, D>(s, sQ + row0 * D, sK + ks * D, lane);
      mma_abt<NK, DV>(dp, sdO + row0 * DV, sV + ks * DV, lane);
      const unsigned long long allowed =
          unchecked ? ~0ull : allowed_elements<NK, false>(p, b, h, q0, k0, row0, ks, lane);
#pragma unroll
      for (int j = 0; j < NK; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int r = row0 + acc_row(lane, e), c = ks + j * 8 + acc_col(lane, e), q = q0 + r, kv = k0 + c;
          const float w =
              element_weight(p, (allowed >> (j * 4 + e)) & 1ull, s[j][e], b, h, q, kv, lse2[e / 2], 0.f);
          const float dsp = w == 0.f ? 0.f : w * (dp[j][e] - delta[e / 2]);
#if ATTN_BWD_SITES > 0
          sDs[(r - row0) * BN + c] = dsp;
          sRaw[(r - row0) * BN + c] = s[j][e] * p.scale;
#endif
          dp[j][e] = element_dscore(p, w, dsp, s[j][e], b, h, q, kv);
        }
      mma_xb<NK, D / 8>(dq, dp, sK + ks * D, lane);
    }
#if ATTN_BWD_SITES > 0
    __syncwarp();
    if (slot) buffer_grads<BN>(bp, sDs, sRaw, b, h, q0 + row0, k0, lane, slot);
#endif
    __syncthreads();  // everyone is done with K and V before the next tile overwrites them
  }
  cp_async_wait<0>();
#if ATTN_BWD_SINK_SITES > 0
  if (slot) sink_grads(bp, z, b, h, q0 + row0, max(0, min(16, rows - row0)), lane, slot);
#endif
  if (computes)
    store_acc(dq, p.scale, tensor_row(static_cast<attn_elem*>(bp.dq), bp.dq_stride, z, h, q0),
              bp.dq_stride[2], row0, rows, lane);
}

/// The buffer gradients: grad_out[i] = the sum of the slots' element i, in slot order.
/// Grid ceil(grad_numel / 256); 256 threads.
extern "C" __global__ void __launch_bounds__(256) ATTN_BWD_GRAD(const attn_cuda_bwd_params bp) {
  const long long i = static_cast<long long>(blockIdx.x) * 256 + threadIdx.x;
  if (i >= bp.grad_numel) return;
  float sum = 0.f;
  for (int s = 0; s < bp.grad_slots; ++s) sum += bp.grad_partial[s * bp.grad_numel + i];
  bp.grad_out[i] = sum;
}
