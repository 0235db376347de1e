
/// The forward kernel. Grid: (query tiles * max(1, kv_splits), Hq, or Hkv with pack_heads, B) as
/// attn_cuda_params says (with ATTN_VARLEN: one CTA per item of its work list); block:
/// ATTN_THREADS; dynamic shared memory: ATTN_SMEM_BYTES.
extern "C" __global__ void __launch_bounds__(ATTN_THREADS, 1) ATTN_ENTRY(ATTN_FWD_PARAMS) {
  using namespace attn_dev;
  ATTN_FWD_ENTER
  constexpr int D = ATTN_D, DV = ATTN_DV, BM = ATTN_BM, BN = ATTN_BN, STAGES = ATTN_STAGES;
  constexpr int NB = BN / 8;  // 8-key column blocks of S
  constexpr int OB = DV / 8;  // 8-column blocks of O
  extern __shared__ __align__(128) unsigned char attn_smem[];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  CtaStream<BM, BN, D, DV, STAGES, false> cta(p, attn_smem);
  const int q0 = cta.rows.q0;
  cta.start(p, tid);

  RowState<OB> o;
#if ATTN_Q_IN_REGS
  unsigned qf[D / 16][4];
  bool q_loaded = false;
#endif
  // ldmatrix addresses: each lane's row within the tile, and its swizzled column patterns
  // (every row a lane addresses has the same low 3 bits, lane % 8).
  const attn_elem* q_row = cta.sQ + (warp * 16 + q_lane_row(lane)) * D;
  const int k_row = k_lane_row(lane) * D;
  const int v_row = v_lane_row(lane) * DV;
  const SwizzledPairs q_cols = q_lane_cols(lane), k_cols = k_lane_cols(lane), v_cols = v_lane_cols(lane);

  int stage = 0;
  for (int kt = cta.first; kt < cta.tiles.kv_tiles; kt = cta.tiles.next(p, kt, BN)) {
    cta.refill(p, (stage + STAGES - 1) % STAGES, tid);  // the stage consumed last iteration
    cp_async_wait<STAGES - 1>();                        // the group holding tile kt (and Q) has landed
    __syncthreads();
    const attn_elem* tK = cta.sK + stage * BN * D;
    const attn_elem* tV = cta.sV + stage * BN * DV;
#if ATTN_Q_IN_REGS
    if (!q_loaded) {
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) ldmatrix_x4(qf[kk], q_row + q_cols.at(kk));
      q_loaded = true;
    }
#endif

    // S = Q K^T for the warp's 16 rows and the tile's BN keys.
    float s_acc[NB][4];
    zero(s_acc);
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) {
#if ATTN_Q_IN_REGS
      const unsigned(&a)[4] = qf[kk];
#else
      unsigned a[4];
      ldmatrix_x4(a, q_row + q_cols.at(kk));
#endif
#pragma unroll
      for (int j = 0; j < NB; j += 2) {
        unsigned bk[4];
        ldmatrix_x4(bk, tK + k_row + j * 8 * D + k_cols.at(kk));
        mma16816(s_acc[j], a, bk[0], bk[1]);
        mma16816(s_acc[j + 1], a, bk[2], bk[3]);
      }
    }

    // Scores, mask and online softmax. Full tiles (all keys allowed, no padding) skip the mask.
    const int k0 = kt * BN;
    float tile_max[2];
    score_tile<NB>(p, s_acc, !cta.tiles.unchecked(p, kt, q0, BM, BN), cta.rows, warp * 16, k0, lane,
                   tile_max);
    softmax_update(s_acc, o, tile_max);

    // O += P V: the S accumulators of two key blocks form one A fragment.
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) {
      unsigned a[4];
      p_fragment<NB>(s_acc, kk, a);
#pragma unroll
      for (int j = 0; j < OB; j += 2) {
        unsigned bv[4];
        ldmatrix_x4_trans(bv, tV + v_row + kk * 16 * DV + v_cols.at(j / 2));
        mma16816(o.acc[j], a, bv[0], bv[1]);
        mma16816(o.acc[j + 1], a, bv[2], bv[3]);
      }
    }
    __syncthreads();  // everyone is done with this stage before it is refilled
    stage = (stage + 1) % STAGES;
  }
  cp_async_wait<0>();

  // Epilogue: normalize and store (store_rows: the sink, the LSE and the row maxima too).
  store_rows(p, o, cta.rows, warp * 16, lane);
  finish_split<DV>(p, cta.rows);
}
