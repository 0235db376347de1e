// Transcendentals as plain Halide arithmetic, so that the emitted C++ stays vectorized (Halide's C
// backend calls libm once per lane for exp, tanh, ...).
#pragma once

#include <Halide.h>

namespace attn::cpu {

/// 2^x for x <= 0: clamped at -127, where it is exactly 0 (so -inf, a masked score, gives 0);
/// NaN stays NaN.
Halide::Expr exp2_nonpositive(Halide::Expr x);

/// 2^x on the whole line: 0 below -127, +inf above 128; NaN stays NaN.
Halide::Expr fast_exp2(Halide::Expr x);

/// `score` where `allowed`, else -inf, whatever `score` is (NaN, +Inf), as bit operations.
Halide::Expr mask_to_neg_inf(const Halide::Expr& allowed, const Halide::Expr& score);

/// `value` where `allowed`, else +0 (whatever `value` is: NaN, Inf), as a bit mask: Halide's C++
/// select on a byte mask left the whole expression feeding it a scalar loop under clang.
Halide::Expr mask_to_zero(const Halide::Expr& allowed, const Halide::Expr& value);

/// Rewrites the libm calls Halide's C backend would scalarize (exp, tanh) into vector arithmetic,
/// and erf (see expand_erf).
Halide::Expr vectorize_transcendentals(const Halide::Expr& e);

/// Replaces the IR's `erf_f32` calls, which Halide's C backend has no function for, by Halide's
/// erf: a polynomial that vectorizes, accurate to the last three bits of the mantissa.
Halide::Expr expand_erf(const Halide::Expr& e);

}  // namespace attn::cpu
