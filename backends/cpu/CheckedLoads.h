// Buffer loads that never read outside the buffer and report an index out of range.
#pragma once

#include <Halide.h>

namespace attn::cpu {

/// Rewrites every buffer load `buf[i, ...]` of `e` (an IR expression over q, kv, b, h, q_len, kv_len)
/// to read at the clamped index and to fail the kernel with "buffer 'buf': index i out of range in dimension
/// d of extent n" when an index is out of range:
/// - an affine index of q and kv (doc[q], rel[q - kv]) is checked once per call, over its exact
///   interval for q in [0, num_queries) and kv in [0, num_keys), q_len = num_queries and kv_len =
///   num_keys (a scalar check, not per lane);
/// - an index of neither (slopes[h]) is checked as a scalar where it is loaded;
/// - any other (start[doc[q]], t5 buckets) is checked per position, except where `inactive` holds (tile
///   padding; for a score, also where the mask drops the key) and where the read is not evaluated:
///   the operand of `&&`, `||` or `select` that the other operand rules out (a scalar check takes
///   that rule too when the guard is a scalar).
Halide::Expr check_buffer_loads(const Halide::Expr& e, const Halide::Expr& inactive,
                                const Halide::Expr& num_queries, const Halide::Expr& num_keys);

}  // namespace attn::cpu
