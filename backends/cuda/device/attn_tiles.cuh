// ---- attnc device library: tile iteration and the per-element score ----------------------
#ifndef ATTN_VARLEN
#define ATTN_VARLEN 0  // 1: one grid over a planned call's launches (attn_cuda_params::work)
#endif
namespace attn_dev {

#if ATTN_VARLEN
/// One grid over a planned call's launches: this CTA's launch's parameter block, and its block
/// (x, y, z) and grid (x, y) in that launch, made by enter_launch.
__shared__ attn_cuda_params cta_params;
__shared__ int cta_block[5];
__device__ __forceinline__ int block_x() { return cta_block[0]; }
__device__ __forceinline__ int block_y() { return cta_block[1]; }
__device__ __forceinline__ int block_z() { return cta_block[2]; }
__device__ __forceinline__ int grid_x() { return cta_block[3]; }
__device__ __forceinline__ int grid_y() { return cta_block[4]; }

/// The parameter block of this CTA's launch: the call's `call` with the launch's changes
/// (attn_cuda_launch) applied, as the host's planned_params (runtime/CudaLaunchPlan.cpp) makes
/// it for a launch of its own. Every thread of the CTA calls it, first.
__device__ __forceinline__ const attn_cuda_params& enter_launch(const attn_cuda_params& call) {
  const int words = static_cast<int>(sizeof(attn_cuda_params) / sizeof(int));
  const int* from = reinterpret_cast<const int*>(&call);
  int* to = reinterpret_cast<int*>(&cta_params);
  for (int i = threadIdx.x; i < words; i += blockDim.x) to[i] = from[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    const int* w = call.work + 4 * static_cast<long long>(blockIdx.x);
    const attn_cuda_launch l = call.launches[w[0]];
    attn_cuda_params& p = cta_params;
    if (l.sequence >= 0) {  // the sequence's views of the packed tensors, its lengths and index
      p.q = static_cast<const attn_in*>(call.q) + l.q_row * call.q_stride[2];
      p.out = static_cast<attn_elem*>(call.out) + l.q_row * call.out_stride[2];
      if (call.lse) p.lse = call.lse + l.q_row * call.lse_stride[2];
      if (call.max) p.max = call.max + l.q_row * call.max_stride[2];
      if (call.page_table) {
        p.page_table = call.page_table + l.table_row;
      } else {
        p.k = static_cast<const attn_in*>(call.k) + l.k_row * call.k_stride[2];
        p.v = static_cast<const attn_in*>(call.v) + l.k_row * call.v_stride[2];
      }
      p.batch = 1, p.q_len = l.q_len, p.kv_len = l.kv_len, p.q_first = l.q_first, p.batch_base = l.sequence;
    }
    p.q_tile0 = l.q_tile0, p.pack_heads = l.pack_heads;
    const bool split = l.kv_splits > 1;
    p.kv_splits = split ? l.kv_splits : 0;
    p.partial = split ? call.partial + l.partial_at : 0;
    p.split_done = split ? call.split_done + l.done_at : 0;
    p.tile_rows = l.tile_rows_at >= 0 ? call.tile_rows + l.tile_rows_at : 0;
    p.tile_runs = l.tile_runs_at >= 0 ? call.tile_runs + l.tile_runs_at : 0;
    p.launches = 0, p.work = 0;
    cta_block[0] = w[1], cta_block[1] = w[2], cta_block[2] = w[3], cta_block[3] = l.grid_x,
    cta_block[4] = l.grid_y;
  }
  __syncthreads();
  return cta_params;
}
#else
__device__ __forceinline__ int block_x() { return blockIdx.x; }
__device__ __forceinline__ int block_y() { return blockIdx.y; }
__device__ __forceinline__ int block_z() { return blockIdx.z; }
__device__ __forceinline__ int grid_x() { return gridDim.x; }
__device__ __forceinline__ int grid_y() { return gridDim.y; }
#endif

/// Split-KV (attn_cuda_params::kv_splits): how many CTAs share a query tile's keys, and which
/// query tile and which share this CTA has: the launch's own (cta_grid_tile, for the split
/// workspace) and the tile of the rows (cta_query_tile: p.q_tile0 further).
__device__ __forceinline__ int kv_split_count(const attn_cuda_params& p) { return p.kv_splits > 1 ? p.kv_splits : 1; }
__device__ __forceinline__ int cta_grid_tile(const attn_cuda_params& p) {
  return block_x() / kv_split_count(p);
}
__device__ __forceinline__ int cta_query_tile(const attn_cuda_params& p) {
  return cta_grid_tile(p) + p.q_tile0;
}
__device__ __forceinline__ int cta_kv_split(const attn_cuda_params& p) {
  return block_x() % kv_split_count(p);
}

/// Row j of the keys (or values) of one head whose row 0 is `head`: `stride` elements apart, or
/// with a paged cache (p.page_table) row j % page_size of page page_table[j / page_size].
template <class T>
__device__ __forceinline__ const T* key_row(const attn_cuda_params& p, const T* head, int j, long long stride,
                                            long long page_stride) {
  if (!p.page_table) return head + j * stride;
  return head + p.page_table[j / p.page_size] * page_stride + (j % p.page_size) * stride;
}

/// The query rows a CTA owns: BLOCK_M consecutive queries of head blockIdx.y, or when decoding
/// with grouped heads (p.pack_heads) the query heads of key/value head blockIdx.y, all at query
/// p.q_first. Row i is query q0 + i * q_step of head h0 + i * h_step; rows [row_lo, rows) are
/// present (p.q_first: the rows before a paged sequence's first query are absent). `z`
/// (blockIdx.z) is the batch entry of the launch's tensors and split workspace; `b` the batch
/// index the kernel's mask, score and buffers see: z + p.batch_base (a ragged batch is launched
/// one sequence at a time).
struct CtaRows {
  int z, b, h0, q0, h_step, q_step;
  int row_lo;           ///< the first present row
  int rows;             ///< real rows (the rest of the tile is padding, never stored)
  int plan_tile;        ///< the query tile of the tile plan (query q_first's when packed)
  long long row_stride; ///< elements between the Q rows of consecutive tile rows
  __device__ __forceinline__ CtaRows(const attn_cuda_params& p, int block_m)
      : z(block_z()), b(block_z() + p.batch_base) {
    const int qt = cta_query_tile(p);
    if (ATTN_PACK_HEADS && p.pack_heads) {
      const int groups = p.q_heads / p.kv_heads;
      h0 = block_y() * groups + qt * block_m, q0 = p.q_first, h_step = 1, q_step = 0, row_lo = 0;
      rows = min(block_m, groups - qt * block_m), plan_tile = p.q_first / block_m, row_stride = p.q_stride[1];
    } else {
      h0 = block_y(), q0 = qt * block_m, h_step = 0, q_step = 1, row_lo = max(0, p.q_first - q0);
      rows = min(block_m, p.q_len - q0), plan_tile = qt, row_stride = p.q_stride[2];
    }
#if ATTN_FP8
    read_descales(p);
#endif
  }
  __device__ __forceinline__ int q(int i) const { return q0 + i * q_step; }
  __device__ __forceinline__ int h(int i) const { return h0 + i * h_step; }
  /// Whether row i holds a query whose result is stored.
  __device__ __forceinline__ bool present(int i) const { return i >= row_lo && i < rows; }
  /// The key/value head (grouped-query attention: q_heads / kv_heads query heads share one).
  __device__ __forceinline__ int kv_head(const attn_cuda_params& p) const { return h0 / (p.q_heads / p.kv_heads); }
  /// Tile row 0 of Q (later rows row_stride apart), and row 0 of the key/value head's K and V.
  __device__ __forceinline__ const attn_in* q_tile(const attn_cuda_params& p) const {
    return static_cast<const attn_in*>(p.q) + z * p.q_stride[0] + h0 * p.q_stride[1] + q0 * p.q_stride[2];
  }
  __device__ __forceinline__ const attn_in* k_head(const attn_cuda_params& p) const {
    return static_cast<const attn_in*>(p.k) + z * p.k_stride[0] + kv_head(p) * p.k_stride[1];
  }
  __device__ __forceinline__ const attn_in* v_head(const attn_cuda_params& p) const {
    return static_cast<const attn_in*>(p.v) + z * p.v_stride[0] + kv_head(p) * p.v_stride[1];
  }
#if ATTN_FP8
  /// An FP8 call's descale factors of the rows' (b, key/value head): Q's times K's, which the
  /// scores take, and V's, which the output takes.
  float qk_descale, v_descale;
  __device__ __forceinline__ void read_descales(const attn_cuda_params& p) {
    const int hk = kv_head(p);
    auto factor = [&](int t) {
      return p.descale[t] ? p.descale[t][b * p.descale_stride[t][0] + hk * p.descale_stride[t][1]] : 1.f;
    };
    qk_descale = factor(0) * factor(1), v_descale = factor(2);
  }
#endif
};

/// Q.K of an element of the rows `cr` as the score takes it: with FP8 inputs, times the descale
/// factors of Q and K.
__device__ __forceinline__ float descaled_dot(const CtaRows& cr, float dot) {
#if ATTN_FP8
  return dot * cr.qk_descale;
#else
  (void)cr;
  return dot;
#endif
}

/// What a row's normalized output is multiplied by: V's descale factor with FP8 inputs, else 1.
__device__ __forceinline__ float out_descale(const CtaRows& cr) {
#if ATTN_FP8
  return cr.v_descale;
#else
  (void)cr;
  return 1.f;
#endif
}

/// The key tiles one CTA visits: the plan's runs, minus tiles the mask provably rules out; with
/// split-KV, only those of the CTA's share (an equal run of tile indices).
struct KeyTiles {
  int begin[ATTN_KEY_RANGES], end[ATTN_KEY_RANGES];
  bool full[ATTN_KEY_RANGES];
  int b, h, q_lo, q_hi, kv_tiles;
  int first_tile;   // the share's first tile (0 without split-KV); kv_tiles ends it
  const int* runs;  // the run-time plan's runs of this query tile (or 0)
  int run_lo, run_hi;

  __device__ __forceinline__ KeyTiles(const attn_cuda_params& p, int b_, int h_, int qt, int q_lo_, int q_hi_, int tiles)
      : b(b_), h(h_), q_lo(q_lo_), q_hi(q_hi_), kv_tiles(tiles), first_tile(0), runs(p.tile_runs), run_lo(0), run_hi(0) {
    attn_key_tile_ranges(b, h, qt, kv_tiles, p, begin, end, full);
#pragma unroll
    for (int r = 0; r < ATTN_KEY_RANGES; ++r) end[r] = min(end[r], kv_tiles);
    if (kv_split_count(p) > 1) {
      const int share = (kv_tiles + kv_split_count(p) - 1) / kv_split_count(p);
      first_tile = min(cta_kv_split(p) * share, kv_tiles);
      kv_tiles = min(kv_tiles, first_tile + share);
    }
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
    kt = max(kt, first_tile - 1);
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

/// The key tiles the rows of `cr` visit, `block_n` keys each: the walk of every forward kernel
/// (and what tests/cuda/test_cuda_tile_walks.cpp checks on the host against the mask).
__device__ __forceinline__ KeyTiles cta_key_tiles(const attn_cuda_params& p, const CtaRows& cr, int block_n) {
  return KeyTiles(p, cr.b, cr.h0, cr.plan_tile, cr.q0, cr.q(cr.rows - 1), (p.kv_len + block_n - 1) / block_n);
}

/// Split-KV: the workspace's row of query q (a present one) of head h of batch entry z
/// (CtaRows::z); and this CTA's slot there (dv + 2 floats: O, row max, row sum).
__device__ __forceinline__ long long partial_row(const attn_cuda_params& p, int z, int h, int q) {
  return (static_cast<long long>(z) * p.q_heads + h) * (p.q_len - p.q_first) + (q - p.q_first);
}
__device__ __forceinline__ float* partial_slot(const attn_cuda_params& p, int z, int h, int q, int dv) {
  return p.partial + (partial_row(p, z, h, q) * kv_split_count(p) + cta_kv_split(p)) * (dv + 2);
}

/// The sink logit of row (b, h, q) in natural units (the kernel option `sink`); -inf without one.
__device__ __forceinline__ float sink_logit(const attn_cuda_params& p, int b, int h, int q) {
#if ATTN_SINK
  return attn_sink(b, h, q, p);
#else
  (void)p, (void)b, (void)h, (void)q;
  return -__int_as_float(0x7f800000);
#endif
}

/// Stores the LSE and the largest kept score (return_max) of query q of head h of batch entry z,
/// where the call asks for them.
__device__ __forceinline__ void store_row_stats(const attn_cuda_params& p, int z, int h, int q, float lse,
                                                float max) {
  if (p.lse) p.lse[z * p.lse_stride[0] + h * p.lse_stride[1] + q * p.lse_stride[2]] = lse;
  if (p.max) p.max[z * p.max_stride[0] + h * p.max_stride[1] + q * p.max_stride[2]] = max;
}

/// Split-KV, called by every thread of a CTA after it wrote its partial rows: the last CTA of the
/// query tile to get here merges the shares of its rows into out, lse and max, and resets the tile's
/// counter (p.split_done[(z * grid y + block y) * grid tiles + tile]) for the next launch.
/// Nothing without split-KV.
template <int DV>
__device__ __forceinline__ void finish_split(const attn_cuda_params& p, const CtaRows& cr) {
  const int splits = kv_split_count(p);
  if (splits == 1) return;
  __threadfence();  // this CTA's partial rows are visible device-wide before it counts itself
  __syncthreads();
  const int q_tiles = grid_x() / splits;
  int* done =
      p.split_done + (static_cast<long long>(cr.z) * grid_y() + block_y()) * q_tiles + cta_grid_tile(p);
  const bool last_here = threadIdx.x == 0 && atomicAdd(done, 1) == splits - 1;
  if (!__syncthreads_or(last_here)) return;
  __threadfence();  // and the other CTAs' rows are visible to this one
  const int z = cr.z;
  for (int i = cr.row_lo * DV + threadIdx.x; i < cr.rows * DV; i += blockDim.x) {
    const int q = cr.q(i / DV), h = cr.h(i / DV), c = i % DV;
    const long long row = partial_row(p, z, h, q);
    float lse, max;
    const float v = merge_partial_row(p.partial + row * splits * (DV + 2), splits, DV, c,
                                      sink_logit(p, cr.b, h, q), c == 0 ? &lse : 0, c == 0 ? &max : 0);
    attn_elem* gO =
        static_cast<attn_elem*>(p.out) + z * p.out_stride[0] + h * p.out_stride[1] + q * p.out_stride[2];
    from_f32(v * out_descale(cr), gO + c);
    if (c == 0) store_row_stats(p, z, h, q, lse, max);
  }
  if (threadIdx.x == 0) *done = 0;
}

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

// The forward kernels' parameter: the launch's own block, or with ATTN_VARLEN the call's, from
// which each CTA makes its launch's (attn_dev::enter_launch) before anything else.
#if ATTN_VARLEN
#define ATTN_FWD_PARAMS const __grid_constant__ attn_cuda_params attn_call
#define ATTN_FWD_ENTER const attn_cuda_params& p = attn_dev::enter_launch(attn_call);
#else
#define ATTN_FWD_PARAMS const attn_cuda_params p
#define ATTN_FWD_ENTER
#endif
