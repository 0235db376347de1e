// ---- attnc device library: the tensor-core forward kernel (FlashAttention-2 family) ---------
// One CTA owns ATTN_BM query rows of one (batch, head); each warp owns 16 of them. Key/value
// tiles of ATTN_BN rows stream through an ATTN_STAGES-deep cp.async ring in shared memory
// (XOR-swizzled 16-byte chunks, so ldmatrix is conflict-free); S = Q K^T and O += P V run on
// mma.sync m16n8k16 with f32 accumulators; the softmax is online, in log2 units.
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

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void* smem) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(smem)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const void* smem) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(smem)));
}

/// c += a * b on one 16x8x16 tile; a: 4 registers (row-major A), b: 2 registers (column-major B).
__device__ __forceinline__ void mma16816(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if ATTN_DTYPE_BF16
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
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
/// swizzled shared memory; rows past valid_rows are zero-filled and never read from global.
template <int ROWS, int COLS>
__device__ __forceinline__ void load_tile_async(attn_elem* smem, const attn_elem* gmem, long long stride,
                                                int valid_rows, int tid) {
  constexpr int kChunksPerRow = COLS / 8;
  constexpr int kChunks = ROWS * kChunksPerRow;
#pragma unroll
  for (int i = 0; i < (kChunks + ATTN_THREADS - 1) / ATTN_THREADS; ++i) {
    const int c = tid + i * ATTN_THREADS;
    if (kChunks % ATTN_THREADS == 0 || c < kChunks) {
      const int row = c / kChunksPerRow, col = (c % kChunksPerRow) * 8;
      const bool valid = row < valid_rows;
      const attn_elem* src = valid ? gmem + row * stride + col : gmem;
      cp_async16(smem + swz<COLS>(row, col), src, valid);
    }
  }
}

}  // namespace attn_dev

/// The forward kernel. Grid: (ceil(Lq / ATTN_BM), Hq, B); block: ATTN_THREADS; dynamic shared
/// memory: ATTN_SMEM_BYTES.
extern "C" __global__ void __launch_bounds__(ATTN_THREADS, 1) ATTN_ENTRY(const attn_cuda_params p) {
  using namespace attn_dev;
  constexpr int D = ATTN_D, DV = ATTN_DV, BM = ATTN_BM, BN = ATTN_BN, STAGES = ATTN_STAGES;
  constexpr int NB = BN / 8;  // 8-key column blocks of S
  constexpr int OB = DV / 8;  // 8-column blocks of O
  extern __shared__ __align__(128) unsigned char attn_smem[];
  attn_elem* sQ = reinterpret_cast<attn_elem*>(attn_smem);
  attn_elem* sK = sQ + BM * D;
  attn_elem* sV = sK + STAGES * BN * D;

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int b = blockIdx.z, h = blockIdx.y;
  const int kvh = h / (p.q_heads / p.kv_heads);  // grouped-query attention
  const int q0 = blockIdx.x * BM;
  const int q_rows = min(BM, p.q_len - q0);
  const int q_lo = q0, q_hi = q0 + q_rows - 1;
  const attn_elem* gQ = static_cast<const attn_elem*>(p.q) + b * p.q_stride[0] + h * p.q_stride[1] + q0 * p.q_stride[2];
  const attn_elem* gK = static_cast<const attn_elem*>(p.k) + b * p.k_stride[0] + kvh * p.k_stride[1];
  const attn_elem* gV = static_cast<const attn_elem*>(p.v) + b * p.v_stride[0] + kvh * p.v_stride[1];

  // Key tiles to visit: the plan's runs, minus the tiles the mask rules out.
  const KeyTiles tiles(p, b, h, blockIdx.x, q_lo, q_hi, (p.kv_len + BN - 1) / BN);
  const int kt_end = tiles.kv_tiles;
  const int kt_first = tiles.next(p, -1, BN);

  // Prologue: Q in its own group, then the first STAGES - 1 key/value tiles (empty groups keep
  // the count uniform).
  load_tile_async<BM, D>(sQ, gQ, p.q_stride[2], q_rows, tid);
  cp_async_commit();
  int fetch = kt_first;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (fetch < kt_end) {
      const int rows = min(BN, p.kv_len - fetch * BN);
      load_tile_async<BN, D>(sK + s * BN * D, gK + fetch * BN * p.k_stride[2], p.k_stride[2], rows, tid);
      load_tile_async<BN, DV>(sV + s * BN * DV, gV + fetch * BN * p.v_stride[2], p.v_stride[2], rows, tid);
      fetch = tiles.next(p, fetch, BN);
    }
    cp_async_commit();
  }

  float acc[OB][4];  // O for rows (lane/4) and (lane/4 + 8) of the warp's 16
#pragma unroll
  for (int j = 0; j < OB; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.f;
  float row_max[2] = {-inf(), -inf()};  // running max, log2 units
  float row_sum[2] = {0.f, 0.f};        // this thread's part of the running sum
#if ATTN_Q_IN_REGS
  unsigned qf[D / 16][4];
  bool q_loaded = false;
#endif
  // ldmatrix addresses: each lane's row within the tile, and its swizzled column patterns
  // (every row a lane addresses has the same low 3 bits, lane % 8).
  const attn_elem* q_row = sQ + (warp * 16 + q_lane_row(lane)) * D;
  const int k_row = k_lane_row(lane) * D;
  const int v_row = v_lane_row(lane) * DV;
  const SwizzledPairs q_cols = q_lane_cols(lane), k_cols = k_lane_cols(lane), v_cols = v_lane_cols(lane);

  int stage = 0;
  for (int kt = kt_first; kt < kt_end; kt = tiles.next(p, kt, BN)) {
    {  // Refill the stage consumed last iteration.
      const int s = (stage + STAGES - 1) % STAGES;
      if (fetch < kt_end) {
        const int rows = min(BN, p.kv_len - fetch * BN);
        load_tile_async<BN, D>(sK + s * BN * D, gK + fetch * BN * p.k_stride[2], p.k_stride[2], rows, tid);
        load_tile_async<BN, DV>(sV + s * BN * DV, gV + fetch * BN * p.v_stride[2], p.v_stride[2], rows, tid);
        fetch = tiles.next(p, fetch, BN);
      }
      cp_async_commit();
    }
    cp_async_wait<STAGES - 1>();  // the group holding tile kt (and Q) has landed
    __syncthreads();
    const attn_elem* tK = sK + stage * BN * D;
    const attn_elem* tV = sV + stage * BN * DV;
#if ATTN_Q_IN_REGS
    if (!q_loaded) {
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) ldmatrix_x4(qf[kk], q_row + q_cols.at(kk));
      q_loaded = true;
    }
#endif

    // S = Q K^T for the warp's 16 rows and the tile's BN keys.
    float s_acc[NB][4];
#pragma unroll
    for (int j = 0; j < NB; ++j) s_acc[j][0] = s_acc[j][1] = s_acc[j][2] = s_acc[j][3] = 0.f;
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
    const bool checked = !tiles.unchecked(p, kt, q0, BM, BN);
    // Partial tiles: the mask first, one element per iteration of a rolled loop (a mask that
    // reads buffers, unrolled over 32 elements, would spill), then the scores of allowed keys.
    unsigned allowed = ~0u;
    if (checked) {
      allowed = 0;
#pragma unroll 1
      for (int i = 0; i < NB * 4; ++i) {
        const int q = q0 + warp * 16 + acc_row(lane, i % 4), kv = k0 + (i / 4) * 8 + acc_col(lane, i % 4);
        allowed |= static_cast<unsigned>(element_allowed(p, b, h, q, kv)) << i;
      }
    }
    float tile_max[2] = {-inf(), -inf()};
#pragma unroll
    for (int j = 0; j < NB; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int q = q0 + warp * 16 + acc_row(lane, e), kv = k0 + j * 8 + acc_col(lane, e);
        s_acc[j][e] = (allowed >> (j * 4 + e)) & 1u ? log2_score(p, s_acc[j][e], b, h, q, kv) : -inf();
        tile_max[e / 2] = fmaxf(tile_max[e / 2], s_acc[j][e]);
      }
    }
    float scale_old[2], base[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const float m = fmaxf(row_max[r], quad_max(tile_max[r]));
      base[r] = m == -inf() ? 0.f : m;  // a row with nothing allowed yet stays at exactly 0
      scale_old[r] = exp2_approx(row_max[r] - base[r]);
      row_max[r] = m;
      row_sum[r] *= scale_old[r];
    }
#pragma unroll
    for (int j = 0; j < OB; ++j) {
      acc[j][0] *= scale_old[0];
      acc[j][1] *= scale_old[0];
      acc[j][2] *= scale_old[1];
      acc[j][3] *= scale_old[1];
    }
#pragma unroll
    for (int j = 0; j < NB; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        s_acc[j][e] = exp2_approx(s_acc[j][e] - base[e / 2]);
        row_sum[e / 2] += s_acc[j][e];
      }
    }

    // O += P V: the S accumulators of two key blocks form one A fragment.
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) {
      const unsigned a[4] = {pack2(s_acc[2 * kk][0], s_acc[2 * kk][1]), pack2(s_acc[2 * kk][2], s_acc[2 * kk][3]),
                             pack2(s_acc[2 * kk + 1][0], s_acc[2 * kk + 1][1]),
                             pack2(s_acc[2 * kk + 1][2], s_acc[2 * kk + 1][3])};
#pragma unroll
      for (int j = 0; j < OB; j += 2) {
        unsigned bv[4];
        ldmatrix_x4_trans(bv, tV + v_row + kk * 16 * DV + v_cols.at(j / 2));
        mma16816(acc[j], a, bv[0], bv[1]);
        mma16816(acc[j + 1], a, bv[2], bv[3]);
      }
    }
    __syncthreads();  // everyone is done with this stage before it is refilled
    stage = (stage + 1) % STAGES;
  }
  cp_async_wait<0>();

  // Epilogue: normalize and store; a row with no allowed key gets Out 0 and LSE -inf.
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const float sum = quad_sum(row_sum[r]);
    const float inv = sum > 0.f ? 1.f / sum : 0.f;
    const int q = q0 + warp * 16 + acc_row(lane, 2 * r);
    if (q < p.q_len) {
      attn_elem* gO = static_cast<attn_elem*>(p.out) + b * p.out_stride[0] + h * p.out_stride[1] + q * p.out_stride[2];
#pragma unroll
      for (int j = 0; j < OB; ++j) {
        const unsigned v = pack2(acc[j][2 * r] * inv, acc[j][2 * r + 1] * inv);
        *reinterpret_cast<unsigned*>(gO + j * 8 + acc_col(lane, 0)) = v;
      }
      if (p.lse && lane % 4 == 0)
        p.lse[b * p.lse_stride[0] + h * p.lse_stride[1] + q * p.lse_stride[2]] =
            sum > 0.f ? row_max[r] * 0.6931471805599453f + logf(sum) : -inf();
    }
  }
}
