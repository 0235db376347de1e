/* The C ABI of every kernel attnc generates for the CPU: what the loader calls through dlsym
 * and what a project that checks in generated sources calls directly. Plain C, DLPack tensors. */
#ifndef ATTN_KERNEL_ABI_H
#define ATTN_KERNEL_ABI_H

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this struct. Versions only append fields: a kernel accepts every version up to
 *  its own and reads only the fields the caller's version has (version 1 ends at error_size). */
#define ATTN_KERNEL_ABI_VERSION 7

/** DLPack's codes of the FP8 element types (DLPack 1.1's kDLFloat8_e4m3fn and kDLFloat8_e5m2, as
 *  PyTorch's float8_e4m3fn and float8_e5m2 export them; 8 bits, 1 lane). Named here because older
 *  dlpack.h headers (before 1.1) lack them. */
#define ATTN_DL_FLOAT8_E4M3FN 10
#define ATTN_DL_FLOAT8_E5M2 12

typedef struct attn_kernel_args {
  int abi_version;                /**< ATTN_KERNEL_ABI_VERSION */
  const DLTensor* q;              /**< [B, Hq, Lq, D] */
  const DLTensor* k;              /**< [B, Hkv, Lkv, D] */
  const DLTensor* v;              /**< [B, Hkv, Lkv, Dv] */
  DLTensor* out;                  /**< [B, Hq, Lq, Dv] */
  DLTensor* lse;                  /**< [B, Hq, Lq] f32, or NULL */
  const DLTensor* const* buffers; /**< the kernel's tensor parameters, in declaration order */
  int num_buffers;
  const double* scalars; /**< the kernel's scalar parameters, in declaration order */
  int num_scalars;
  int num_threads; /**< 0: as many as the machine has */
  char* error;     /**< receives a message when the kernel returns non-zero */
  size_t error_size;
  /* Version 2. */
  /** NULL, or 2 entries per block of kv_ranges_block_q query rows (ceil(Lq / kv_ranges_block_q)
   *  blocks): keys [lo, hi) outside which the mask is false for every row of the block, in every
   *  batch and head. A kernel whose mask reads buffers then skips the keys outside; others ignore
   *  it. attn::run_cpu_kernel fills it from the run-time tile planner. */
  const int64_t* kv_ranges;
  int64_t kv_ranges_block_q;
  /* Version 3. */
  /** NULL, or the keys of each block of kv_ranges_block_q query rows as sorted, disjoint runs
   *  [lo, hi): block i's runs are pairs kv_run_starts[i] .. kv_run_starts[i + 1] - 1 of kv_runs
   *  (kv_run_starts has a block count + 1 entries, non-decreasing, from 0). The mask is false
   *  outside them for every row of the block; kv_ranges must hold their hull. A kernel whose mask
   *  reads buffers then skips the gaps between runs too. attn::run_cpu_kernel fills both. */
  const int64_t* kv_run_starts;
  const int64_t* kv_runs;
  /* Version 4. */
  /** [B, Hq, Lq] f32, or NULL: each row's maximum kept score (a kernel that sets return_max requires
   *  it; -inf for a fully masked row). */
  DLTensor* max;
  /* Version 5. */
  /** Both NULL (a dense batch, the shapes above), or a ragged batch of N sequences: i32 [N + 1],
   *  0 first, non-decreasing, ending at Tq and Tk. Sequence b holds query rows
   *  [cu_seqlens_q[b], cu_seqlens_q[b + 1]) and key rows [cu_seqlens_k[b], cu_seqlens_k[b + 1]);
   *  q is then [Tq, Hq, D], k [Tk, Hkv, D], v [Tk, Hkv, Dv], out [Tq, Hq, Dv], lse and max
   *  [Tq, Hq] (any strides, last dimension contiguous). Inside the kernel `b` is the sequence's
   *  index and `q`, `kv` are positions within it. kv_ranges and the runs above are ignored. */
  const DLTensor* cu_seqlens_q;
  const DLTensor* cu_seqlens_k;
  /* Version 6. */
  /** Both NULL, or a paged KV cache: k [P, page_size, Hkv, D] and v [P, page_size, Hkv, Dv] hold
   *  P pages of any size; page_table is i32 [N, max_pages] and kv_lens i32 [N]. Sequence b's key j
   *  is row j % page_size of page page_table[b][j / page_size], for j < kv_lens[b]. The queries
   *  come packed as a ragged batch's (cu_seqlens_q; cu_seqlens_k is NULL) and are the sequence's
   *  last tokens: query i of sequence b has position kv_lens[b] - q_len + i, which is what `q`
   *  means inside the kernel (chunked prefill and decoding alike), so q_len <= kv_lens[b]. */
  const DLTensor* page_table;
  const DLTensor* kv_lens;
  /* Version 7. */
  /** Each NULL (1), or an FP8 kernel's descale factor of q, k or v (dtype e4m3 or e5m2; a kernel
   *  of another dtype takes none): f32 [1] for the whole tensor, or f32 [B, Hkv] per batch entry
   *  (a ragged batch's or paged cache's sequence) and key/value head, any strides; query head h
   *  takes entry h / (Hq / Hkv). The kernel computes on each element's FP8 value times its factor,
   *  and writes out as bf16. */
  const DLTensor* q_descale;
  const DLTensor* k_descale;
  const DLTensor* v_descale;
} attn_kernel_args;

/** Returns 0 on success; otherwise writes a message to args->error. */
typedef int (*attn_kernel_fn)(const attn_kernel_args* args);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_KERNEL_ABI_H */
