/* The C ABI of the backward entry point `<kernel>_backward` that attnc generates for the CPU beside
 * the forward's (kernel_abi.h): with loss = sum(dout * out) (+ sum(dlse * lse)), it writes dq, dk,
 * dv and the gradients of the f32 buffers the caller asks for. Plain C, DLPack tensors. Kept apart
 * from kernel_abi.h so that forward-only kernels carry the same text as before. */
#ifndef ATTN_KERNEL_BACKWARD_ABI_H
#define ATTN_KERNEL_BACKWARD_ABI_H

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this struct. Versions only append fields: a kernel accepts every version up to
 *  its own and reads only the fields the caller's version has. */
#define ATTN_BACKWARD_ABI_VERSION 2

typedef struct attn_backward_args {
  int abi_version;      /**< ATTN_BACKWARD_ABI_VERSION */
  const DLTensor* q;    /**< [B, Hq, Lq, D], the forward's inputs */
  const DLTensor* k;    /**< [B, Hkv, Lkv, D] */
  const DLTensor* v;    /**< [B, Hkv, Lkv, Dv] */
  const DLTensor* out;  /**< [B, Hq, Lq, Dv], the forward's output */
  const DLTensor* lse;  /**< [B, Hq, Lq] f32, the forward's log-sum-exp (-inf: no key reached the row) */
  const DLTensor* dout; /**< [B, Hq, Lq, Dv], d loss / d out, the I/O type */
  const DLTensor* dlse; /**< [B, Hq, Lq] f32 d loss / d lse, or NULL (zero) */
  DLTensor* dq;         /**< [B, Hq, Lq, D], written, the I/O type */
  DLTensor* dk;         /**< [B, Hkv, Lkv, D], written (GQA: summed over the group) */
  DLTensor* dv;         /**< [B, Hkv, Lkv, Dv], written */
  const DLTensor* const* buffers; /**< the kernel's tensor parameters, in declaration order */
  /** NULL, or num_buffers entries: NULL (gradient not wanted) or an f32 tensor of the buffer's
   *  shape that receives the sum of the loss's partial derivatives over every read of it. Only f32
   *  buffers have gradients; a gradient of a buffer the score does not read is zero. */
  DLTensor* const* buffer_grads;
  int num_buffers;
  const double* scalars; /**< the kernel's scalar parameters, in declaration order */
  int num_scalars;
  int num_threads; /**< 0: as many as the machine has; the result does not depend on it */
  char* error;     /**< receives a message when the kernel returns non-zero */
  size_t error_size;
  /** NULL, or as attn_kernel_args::kv_ranges (version 2): keys [lo, hi) outside which the mask is
   *  false for every row of each block of kv_ranges_block_q query rows. A kernel whose mask reads
   *  buffers then skips the keys outside; others ignore it. */
  const int64_t* kv_ranges;
  int64_t kv_ranges_block_q;
  /* Version 2. */
  /** A ragged batch, as attn_kernel_args' (version 5): both NULL for a dense batch; otherwise i32
   *  (or i64) [N + 1] boundaries in CPU memory, non-decreasing from 0 to the packed row counts, and
   *  q, out, dout, dq are packed [Tq, Hq, D|Dv], lse and dlse [Tq, Hq], k, v, dk, dv [Tk, Hkv, D|Dv].
   *  Sequence b is query rows [cu_seqlens_q[b], cu_seqlens_q[b + 1]) and key rows
   *  [cu_seqlens_k[b], cu_seqlens_k[b + 1]), `b` inside the kernel; each buffer gradient is the sum
   *  over the sequences, in order. kv_ranges is not read (each sequence plans its own). */
  const DLTensor* cu_seqlens_q;
  const DLTensor* cu_seqlens_k;
} attn_backward_args;

/** Returns 0 on success; otherwise writes a message to args->error. Deterministic: two calls with
 *  the same inputs write the same bits, whatever num_threads is. */
typedef int (*attn_backward_fn)(const attn_backward_args* args);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_KERNEL_BACKWARD_ABI_H */
