// Transcendentals as plain Halide arithmetic, so that the emitted C++ stays vectorized (Halide's C
// backend calls libm once per lane for exp, tanh, ...).
#pragma once

#include <Halide.h>

namespace attn::cpu {

/// 2^x for x <= 0: clamped at -127, where it is exactly 0 (so -inf, a masked score, gives 0).
Halide::Expr exp2_nonpositive(Halide::Expr x);

/// 2^x on the whole line: 0 below -127, +inf above 128.
Halide::Expr fast_exp2(Halide::Expr x);

/// Rewrites the libm calls Halide's C backend would scalarize (exp, tanh) into vector arithmetic.
Halide::Expr vectorize_transcendentals(const Halide::Expr& e);

}  // namespace attn::cpu
