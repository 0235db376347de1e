// Buffer loads that never read outside the buffer and report an index out of range.
#pragma once

#include <Halide.h>

namespace attn::cpu {

/// Rewrites every buffer load `buf[i, ...]` of `e` to read at the clamped index, and to fail the
/// kernel with "buffer 'buf': index i out of range in dimension d of extent n" when an index is
/// out of range, unless `inactive` holds (the position is tile padding, not a real query/key pair).
/// `inactive` is written without a Not: Halide 14's C output of a vector Not does not compile.
Halide::Expr check_buffer_loads(const Halide::Expr& e, const Halide::Expr& inactive);

}  // namespace attn::cpu
