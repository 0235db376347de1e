/* The run-time loader's C API: compile-once, disk-cached kernels callable over DLPack tensors. */
#ifndef ATTN_LOADER_H
#define ATTN_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "attn/kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loader (attn::Loader). */
typedef struct attn_loader attn_loader;
/** A loaded kernel; keeps its code alive until released. */
typedef struct attn_kernel attn_kernel;

/** Loader settings; zero-initialise, then set what differs from the defaults. */
typedef struct attn_loader_options {
  int no_dedup;          /**< non-zero: compile on every request (benchmarks) */
  int no_disk_cache;     /**< non-zero: memory-only */
  const char* cache_dir; /**< NULL: ATTNC_CACHE_DIR, $XDG_CACHE_HOME/attnc, ~/.cache/attnc */
} attn_loader_options;

/** One kernel to load: a generated translation unit and its entry symbol. */
typedef struct attn_kernel_request {
  const char* target;       /**< "cpu" (NULL means "cpu") */
  const char* source;       /**< the generated source text */
  size_t source_size;       /**< its length in bytes */
  const char* entry;        /**< the exported attn_kernel_fn symbol */
  const char* const* flags; /**< extra compiler flags, e.g. "-fopenmp" */
  int num_flags;
} attn_kernel_request;

/** The loader's counters (see attn::LoaderStats). */
typedef struct attn_loader_stats {
  uint64_t compiles, memory_hits, disk_hits, disk_misses, rejects, disk_writes, errors;
} attn_loader_stats;

/** Creates a loader (options may be NULL); never NULL unless out of memory. */
attn_loader* attn_loader_create(const attn_loader_options* options);
/** Destroys a loader; kernels obtained from it stay valid until released. */
void attn_loader_destroy(attn_loader* loader);
/** Loads a kernel into *out. Returns 0, or non-zero with a message (compiler output included)
 *  written to error (truncated to error_size). */
int attn_loader_get(attn_loader* loader, const attn_kernel_request* request, attn_kernel** out, char* error,
                    size_t error_size);
/** Fills *out with the loader's counters. */
void attn_loader_stats_get(const attn_loader* loader, attn_loader_stats* out);
/** Copies the flight recorder's JSON (NUL-terminated, truncated) into buf; returns the full
 *  length without the NUL, so a caller can size a second call. */
size_t attn_loader_trace_json(const attn_loader* loader, char* buf, size_t size);

/** The disk cache's contents (see attn::CacheStats). */
typedef struct attn_cache_stats {
  uint64_t entries, bytes, max_bytes;
} attn_cache_stats;

/** Counts the entries of the cache directory `dir` (NULL: the default one). */
void attn_cache_stats_get(const char* dir, attn_cache_stats* out);
/** Removes every entry of `dir` (NULL: the default one); returns how many went. */
uint64_t attn_cache_clear(const char* dir);

/** Runs a kernel (recording the launch); returns 0 or writes args->error. */
int attn_kernel_call(const attn_kernel* kernel, const attn_kernel_args* args);
/** The kernel's raw entry point (cpu), to call without recording. */
attn_kernel_fn attn_kernel_entry(const attn_kernel* kernel);
/** Releases a kernel. */
void attn_kernel_release(attn_kernel* kernel);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_LOADER_H */
