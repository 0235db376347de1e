// Buffer loads that never read outside the buffer and report an index out of range.
#pragma once

#include <Halide.h>

namespace attn::cpu {

/// Rewrites every buffer load `buf[i, ...]` of `e` to read at the clamped index, and to fail the
/// kernel with "buffer 'buf' index i out of range [0, n) in dimension d" when `active` (the
/// position is a real query/key pair, not tile padding) holds and an index is out of range.
Halide::Expr check_buffer_loads(const Halide::Expr& e, const Halide::Expr& active);

}  // namespace attn::cpu
