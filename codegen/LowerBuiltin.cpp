// lower_builtin: one case per builtin of the language, in a switch without a default, so that a
// builtin added to frontend/Builtins.h is a compile error here until it has a lowering.
#include "codegen/LowerBuiltin.h"

#include <cmath>

#pragma GCC diagnostic error "-Wswitch"

namespace attn {

namespace {

using Halide::Expr;
namespace HI = Halide::Internal;

Expr to_float(const Expr& e) { return e.type().is_float() ? e : Halide::cast(Halide::Float(32), e); }

// Two numbers in one type: both float when either is (Sema lets only numbers through).
void unify(Expr& a, Expr& b) {
  if (a.type() == b.type()) return;
  if (a.type().is_float() || b.type().is_float()) {
    a = to_float(a);
    b = to_float(b);
  }
}

}  // namespace

Expr lower_builtin(BuiltinFn fn, std::vector<Expr> a) {
  auto f = [&](size_t i) { return to_float(a[i]); };
  switch (fn) {
    case BuiltinFn::Abs:
      return a[0].type().is_float() ? Halide::abs(a[0]) : Halide::cast(a[0].type(), Halide::abs(a[0]));
    case BuiltinFn::Min: unify(a[0], a[1]); return Halide::min(a[0], a[1]);
    case BuiltinFn::Max: unify(a[0], a[1]); return Halide::max(a[0], a[1]);
    case BuiltinFn::Clamp:
      unify(a[0], a[1]);
      unify(a[0], a[2]);
      unify(a[1], a[2]);
      return Halide::min(Halide::max(a[0], a[1]), a[2]);
    case BuiltinFn::Exp: return Halide::exp(f(0));
    case BuiltinFn::Exp2: return Halide::pow(Expr(2.0f), f(0));
    case BuiltinFn::Log: return Halide::log(f(0));
    case BuiltinFn::Log2: return Halide::log(f(0)) * Expr(static_cast<float>(1.0 / std::log(2.0)));
    case BuiltinFn::Sqrt: return Halide::sqrt(f(0));
    case BuiltinFn::Rsqrt: return Expr(1.0f) / Halide::sqrt(f(0));
    case BuiltinFn::Tanh: return Halide::tanh(f(0));
    case BuiltinFn::Sigmoid: return Expr(1.0f) / (Expr(1.0f) + Halide::exp(Expr(0.0f) - f(0)));
    // Halide's own erf is an inline polynomial; erf_f32 is an extern each target spells.
    case BuiltinFn::Erf: return HI::Call::make(Halide::Float(32), "erf_f32", {f(0)}, HI::Call::PureExtern);
    case BuiltinFn::Pow: return Halide::pow(f(0), f(1));
    case BuiltinFn::Sin: return Halide::sin(f(0));
    case BuiltinFn::Cos: return Halide::cos(f(0));
    case BuiltinFn::Atan: return Halide::atan(f(0));
    case BuiltinFn::Sign: {
      Expr zero = HI::make_zero(a[0].type()), one = HI::make_one(a[0].type());
      // A float's zero and NaN are returned as they are (-0.0 stays -0.0, NaN stays NaN).
      Expr other = a[0].type().is_float() ? a[0] : zero;
      return Halide::select(a[0] > zero, one, Halide::select(a[0] < zero, zero - one, other));
    }
    case BuiltinFn::Floor: return Halide::floor(f(0));
    case BuiltinFn::Ceil: return Halide::ceil(f(0));
    case BuiltinFn::Round: return Halide::round(f(0));
    case BuiltinFn::Trunc: return Halide::trunc(f(0));
    case BuiltinFn::Float: return a[0].type().is_bool() ? Halide::select(a[0], Expr(1.0f), Expr(0.0f)) : f(0);
    case BuiltinFn::Int: return a[0].type().is_int() ? a[0] : Halide::cast(Halide::Int(32), a[0]);
  }
  return a[0];
}

}  // namespace attn
