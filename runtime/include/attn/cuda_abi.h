/* The parameter block of every CUDA kernel attnc generates: filled by the launcher (runtime/) or
 * by a project's own host code, passed by value as the kernel's only argument. Plain C; the
 * generated .cu embeds this text verbatim (same include guard), so it compiles on its own. */
#ifndef ATTN_CUDA_ABI_H
#define ATTN_CUDA_ABI_H

/** Limits of the parameter block (a kernel with more run-time arguments is rejected). */
#define ATTN_CUDA_MAX_BUFFERS 8
#define ATTN_CUDA_MAX_SCALARS 8
#define ATTN_CUDA_MAX_RANK 4

/** A tensor argument of the kernel: device pointer, shape and strides in elements. */
typedef struct attn_cuda_buffer {
  const void* data;
  long long shape[ATTN_CUDA_MAX_RANK];
  long long stride[ATTN_CUDA_MAX_RANK];
  int rank;
  int reserved;
} attn_cuda_buffer;

/** The device error word: the first out-of-range buffer access of a launch (flag != 0). */
typedef struct attn_cuda_error {
  int flag;
  int buffer; /**< position of the buffer among the kernel's tensor arguments */
  int dim;    /**< the dimension whose index was out of range */
  int reserved;
  long long index;
} attn_cuda_error;

/** One launch of a planned call run as one grid (attn_cuda_params::launches): what its parameter
 *  block changes in the call's. Rows and offsets count elements of the call's tensors. */
typedef struct attn_cuda_launch {
  long long q_row;      /**< Q, Out and LSE start this many rows on (the sequence's row 0) */
  long long k_row;      /**< K and V start this many rows on (0 for a paged cache) */
  long long partial_at; /**< floats into the call's partial (with kv_splits > 1) */
  long long done_at;    /**< ints into the call's split_done (with kv_splits > 1) */
  int sequence;         /**< batch_base, the sequence's index; -1: a dense call, rows and lengths its own */
  int q_len, kv_len, q_first, q_tile0, pack_heads, kv_splits;
  int table_row;                  /**< ints into the call's page_table (a paged cache) */
  int tile_rows_at, tile_runs_at; /**< ints into the call's tile_rows and tile_runs; -1: none */
  int grid_x, grid_y;             /**< the launch's grid (its z is 1, or the dense call's batch) */
  int reserved;
} attn_cuda_launch;

/** Everything a launch needs. Strides are in elements: [0] batch, [1] head, [2] row. */
typedef struct attn_cuda_params {
  const void* q; /**< [B, Hq, Lq, D], kernel dtype */
  const void* k; /**< [B, Hkv, Lkv, D] */
  const void* v; /**< [B, Hkv, Lkv, Dv] */
  void* out;     /**< [B, Hq, Lq, Dv] */
  float* lse;    /**< [B, Hq, Lq] f32, or 0 */
  long long q_stride[3], k_stride[3], v_stride[3], out_stride[3], lse_stride[3];
  int batch, q_heads, kv_heads, q_len, kv_len;
  /** 1: decoding with grouped heads (q_len 1; only kernels whose source defines ATTN_PACK_HEADS 1,
   *  i.e. whose mask and score ignore the head): the grid is (ceil(groups / BLOCK_M) ..., Hkv, B)
   *  and the rows of a query tile are the query heads sharing key/value head blockIdx.y, so its
   *  K/V are read once for all of them. 0: a tile is BLOCK_M queries of head blockIdx.y. */
  int pack_heads;
  float scale;      /**< softmax scale (natural units) */
  float scale_log2; /**< scale * log2(e) */
  attn_cuda_buffer buffers[ATTN_CUDA_MAX_BUFFERS];
  double scalars[ATTN_CUDA_MAX_SCALARS];
  attn_cuda_error* error; /**< zeroed device memory, or 0 (accesses are still clamped) */
  /** Optional run-time tile plan (masks that read buffers): the key-tile runs of query tile qt
   *  are tile_runs[3 r .. 3 r + 2] = {begin, end, kind (1 partial, 2 full)} for r in
   *  [tile_rows[qt], tile_rows[qt + 1]). 0: the source's closed-form runs. */
  const int* tile_rows;
  const int* tile_runs;
  /** Split-KV ("flash decoding"), for launches with too few query tiles to fill the GPU: with
   *  kv_splits > 1 the grid is (ceil(Lq / BLOCK_M) * kv_splits, Hq, B), blockIdx.x = query tile *
   *  kv_splits + split, and each CTA attends to its share of the key tiles, writing its rows
   *  unnormalized to `partial`; the last CTA of a query tile to finish (counted in split_done,
   *  which it resets to 0) merges them into out and lse. 0 or 1: one CTA per query tile, the two
   *  pointers unused. */
  int kv_splits;
  /** The `b` that the mask, the score and the buffers see at blockIdx.z = 0; the tensors and the
   *  split workspace are addressed by blockIdx.z alone. 0 for a dense batch; a ragged batch is
   *  launched one sequence at a time on views of its packed tensors, with batch_base = the
   *  sequence's index (runtime/CudaRagged.h). */
  int batch_base;
  float* partial;  /**< [B, Hq, Lq - q_first, kv_splits, Dv + 2] f32: O, then the row max (log2
                       units) and sum of each present row */
  int* split_done; /**< [B, Hq, query tiles of the grid], zeroed device memory */
  /** A paged KV cache, launched one sequence at a time (runtime/CudaRagged.h): page_table is the
   *  sequence's row of the table (device i32), k and v point at row 0 of page 0 with k_stride[1] and
   *  v_stride[1] between heads, k_stride[2] and v_stride[2] between the rows of a page and
   *  k_page_stride and v_page_stride between pages; key j is row j % page_size of page
   *  page_table[j / page_size]. 0: key j is row j, k_stride[2] apart. */
  const int* page_table;
  long long k_page_stride, v_page_stride;
  int page_size;
  /** The queries are the launch's last rows: rows [0, q_first) of its query tiles are absent (never
   *  read nor written), and its grid starts at query tile q_tile0 (q_first / BLOCK_M; 0 when
   *  heads are packed). A paged sequence's queries are its last tokens: q_len is its key count
   *  and q_first its key count less its query count, so that a row's index is its position `q`,
   *  and Q, Out and the LSE point at the row before its first query by q_first rows. 0 and 0 for
   *  a dense or ragged launch. */
  int q_first;
  int q_tile0;
  /** One grid over a planned call's launches (kernels built with ATTN_VARLEN 1, for ragged batches
   *  and paged caches; runtime/CudaLaunchPlan.h): CTA blockIdx.x is work item
   *  work[4 x .. 4 x + 3] = {launch, block x, y, z}, and its parameter block is this one with
   *  launches[launch] applied (views at its rows, its lengths, grid and shares; page_table,
   *  tile_rows, tile_runs, partial and split_done are the plan's bases). 0 and 0 otherwise. */
  const attn_cuda_launch* launches;
  const int* work;
  /** [B, Hq, Lq] f32, or 0: each row's largest kept score in natural units (after `score`; -inf
   *  for a row that kept no key, NaN for a NaN score), for kernels whose source defines
   *  ATTN_RETURN_MAX 1 (the kernel option return_max). Strides as lse's. */
  float* max;
  long long max_stride[3];
  /** FP8 kernels (ATTN_FP8 1: Q, K and V one FP8 byte each, Out bf16): the descale factors of Q,
   *  K and V (f32, device memory), or 0 for 1. The factor of the mask's batch index b and
   *  key/value head hk is descale[t][b * descale_stride[t][0] + hk * descale_stride[t][1]]: strides
   *  {0, 0} for one factor per tensor, the tensor's own for [B, Hkv] (a ragged batch's B is its
   *  sequences). Query head h takes its key/value head's. */
  const float* descale[3];
  long long descale_stride[3][2];
} attn_cuda_params;

#endif /* ATTN_CUDA_ABI_H */
