// The tile plan of a library kernel for one call's lengths, scalars and buffers, as counts: what a
// caller that runs many calls of one kernel (attnc.torch's context parallel ring) needs to skip
// the calls whose tiles are all empty without launching them. Free of Python.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "python/src/KernelCall.h"

namespace attn::python {

/// (query tile, key tile) pairs of one call's plan: `tiles` in all, of which `full` and `partial`
/// are visited (the rest are proven empty). Planned in the kernel's `block` tiles (else 64 x 64).
struct PlanCounts {
  int64_t tiles = 0, full = 0, partial = 0;
};

/// The plan of `kernel`'s mask for lengths `q_len` x `kv_len` with these scalar arguments and
/// host buffers (by name; those the mask reads are required). Throws InputError for a missing or
/// device buffer, a non-positive length or a buffer type the planner does not read.
PlanCounts plan_counts(const LibraryKernel& kernel, int64_t q_len, int64_t kv_len,
                       const std::map<std::string, double>& scalars,
                       const std::map<std::string, TensorView>& buffers);

}  // namespace attn::python
