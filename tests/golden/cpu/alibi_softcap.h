/* attnc: C interface of the CPU kernel 'alibi_softcap'. Generated; do not edit. */
#ifndef ATTN_GENERATED_alibi_softcap_H
#define ATTN_GENERATED_alibi_softcap_H

// [fixed text: runtime/include/attn/kernel_abi.h, 93 lines]

#ifdef __cplusplus
extern "C" {
#endif

/** Runs kernel 'alibi_softcap' (I/O bf16). Run-time arguments, in order: slopes (buffer).
 *  Returns 0, or non-zero with a message in args->error. */
int attn_alibi_softcap(const attn_kernel_args* args);

/** The vector path this process runs ("amx", "avx512bf16", "avx512", "avx2", "portable", or "neon":
 *  the portable path on AArch64), chosen at the first call; "none" when the CPU runs none that the source carries. */
const char* attn_alibi_softcap_path(void);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* ATTN_GENERATED_alibi_softcap_H */
