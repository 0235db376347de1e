/* The parameter block of the CUDA backward kernels attnc generates (`backward = true`, or
 * `attnc run -t cuda --dout ...`): the forward's block (cuda_abi.h) with out and lse set, plus the
 * gradients. Four entry points share it, launched in this order on one stream:
 *   attn_bwd_pre_<kernel>   grid (ceil(Lq / 4), Hq, B), 128 threads: delta = rowsum(dOut * Out) - dLSE
 *   attn_bwd_dkdv_<kernel>  grid (ceil(Lkv / 64), Hkv, B): dK, dV (GQA: the group's heads in order)
 *   attn_bwd_dq_<kernel>    grid (ceil(Lq / 64), Hq, B): dQ, and the buffer gradients' partial slots
 *   attn_bwd_grad_<kernel>  grid (ceil(grad_numel / 256)), 256 threads: the slots summed in order
 *                           (only when grad_partial is set)
 * Block sizes and dynamic shared memory are the source's ATTN_BWD_* macros. Nothing is summed
 * with float atomics: two launches with the same inputs write the same bits. Plain C. */
#ifndef ATTN_CUDA_BACKWARD_ABI_H
#define ATTN_CUDA_BACKWARD_ABI_H

/** Read sites of f32 buffers in the score whose gradient a kernel can compute. */
#define ATTN_CUDA_MAX_SITES 8

typedef struct attn_cuda_bwd_params {
  attn_cuda_params fwd; /**< the forward's inputs, out and lse (required), kv_splits 0 */
  const void* dout;     /**< [B, Hq, Lq, Dv], kernel dtype */
  const float* dlse;    /**< [B, Hq, Lq] f32, or 0 */
  void* dq;             /**< [B, Hq, Lq, D], kernel dtype, written */
  void* dk;             /**< [B, Hkv, Lkv, D], written */
  void* dv;             /**< [B, Hkv, Lkv, Dv], written */
  long long dout_stride[3], dlse_stride[3], dq_stride[3], dk_stride[3], dv_stride[3];
  /** [B, Hq, Lq] f32 workspace written by attn_bwd_pre: rowsum(dOut * Out) - dLSE; in a row whose
   *  LSE is +Inf (some score is +Inf: nothing flows back through its scores) the share 1 / n of
   *  each of its n keys at +Inf instead, and 0 in a row that reached no key. */
  float* delta;
  /** Buffer gradients, or grad_partial 0 when none is wanted: the requested buffers' gradients
   *  laid end to end (each contiguous, row-major) make grad_numel floats; read site s of the
   *  score adds to the buffer that starts at site_base[s] (-1: not wanted). attn_bwd_dq writes
   *  partial sums to grad_partial[slot * grad_numel ...] (grad_slots slots, zeroed before the
   *  launch), attn_bwd_grad sums them in slot order into grad_out. */
  float* grad_partial;
  float* grad_out;
  long long grad_numel;
  long long site_base[ATTN_CUDA_MAX_SITES];
  int grad_slots;
  int reserved;
  /** Optional run-time tile plan for 64 x 64 tiles (masks that read buffers), which the launcher
   *  sets with fwd.tile_rows and fwd.tile_runs (the same plan, query-major): transposed, the runs
   *  of query tiles that visit key tile kt are tile_col_runs[3 r .. 3 r + 2] = {begin, end, kind
   *  (1 partial, 2 full)} for r in [tile_cols[kt], tile_cols[kt + 1]). 0: attn_bwd_dkdv asks each
   *  query tile's plan whether it visits the key tile. */
  const int* tile_cols;
  const int* tile_col_runs;
} attn_cuda_bwd_params;

#endif /* ATTN_CUDA_BACKWARD_ABI_H */
