/* attnc: C interface of the CPU kernel 'causal64'. Generated; do not edit. */
#ifndef ATTN_GENERATED_causal64_H
#define ATTN_GENERATED_causal64_H

// [fixed text: runtime/include/attn/kernel_abi.h, 93 lines]

#ifdef __cplusplus
extern "C" {
#endif

/** Runs kernel 'causal64' (I/O f32). Run-time arguments, in order: none.
 *  Returns 0, or non-zero with a message in args->error. */
int attn_causal64(const attn_kernel_args* args);

/** The vector path this process runs ("amx", "avx512bf16", "avx512", "avx2", "portable", or "neon":
 *  the portable path on AArch64), chosen at the first call; "none" when the CPU runs none that the source carries. */
const char* attn_causal64_path(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* ATTN_GENERATED_causal64_H */
