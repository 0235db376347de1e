// Polynomial exp2 with exponent bit tricks; exp and tanh on top of it; erf as Halide's.
#include "backends/cpu/VectorMath.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;

namespace {

constexpr float kLog2e = 1.44269504088896341f;

// 2^f for f in [-0.5, 0.5]: least-squares fit of the relative error (max 1e-7 in f32).
Expr exp2_reduced(const Expr& f) {
  static const float c[] = {1.0f,          0.69314718f,   0.24022646f,  0.055503290f,
                            0.0096185198f, 0.0013399860f, 0.00015337577f};
  Expr p = c[6];
  for (int k = 5; k >= 0; --k) p = p * f + c[k];
  return p;
}

// x in [-127, 128]: n = round(x) via truncation of a positive number (no floor call, and no
// `t + 1.5*2^23 - 1.5*2^23`, which the simplifier folds away).
Expr exp2_clamped(const Expr& x) {
  Expr n = cast<int>(x + 127.5f) - 127;
  Expr f = x - cast<float>(n);
  Expr scale = reinterpret<float>((n + 127) << 23);  // n = -127 gives +0.0 exactly
  return exp2_reduced(f) * scale;
}

Expr u32(uint32_t v) { return Internal::make_const(UInt(32), v); }
Expr i32(int32_t v) { return Internal::make_const(Int(32), v); }

// The clamps below turn NaN into a bound; NaN must stay NaN (docs/language.md, "Non-finite values").
// Integer arithmetic, because Halide's simplifier assumes floats are never NaN (it folds `x != x`),
// and no select: a per-lane choice costs mask conversions in the hottest loop (a select here made
// full attention 1.5x slower, AVX-512). |x|'s bits exceed 0x7f800000 only for NaN, so
// (0x7f800000 - |x|) >> 31 is all ones exactly there.
Expr keep_nan(const Expr& x, const Expr& result) {
  Expr magnitude = reinterpret<int32_t>(x) & i32(0x7fffffff);
  Expr all_ones_if_nan = (i32(0x7f800000) - magnitude) >> 31;
  return reinterpret<float>(reinterpret<int32_t>(result) | (all_ones_if_nan & i32(0x7fc00000)));
}

class TranscendentalRewriter : public Internal::IRMutator {
  using IRMutator::visit;
  Expr visit(const Internal::Call* op) override {
    if (op->call_type == Internal::Call::PureExtern && op->type == Float(32) && op->args.size() == 1) {
      Expr a = mutate(op->args[0]);
      if (op->name == "exp_f32") return fast_exp2(a * kLog2e);
      if (op->name == "tanh_f32") return 1.0f - 2.0f / (fast_exp2(a * (2.0f * kLog2e)) + 1.0f);
      if (op->name == "erf_f32") return Halide::erf(a);
    }
    // exp2(x) arrives as pow(2, x).
    if (op->call_type == Internal::Call::PureExtern && op->name == "pow_f32" && op->args.size() == 2) {
      const double* base = Internal::as_const_float(op->args[0]);
      if (base && *base == 2.0) return fast_exp2(mutate(op->args[1]));
    }
    return IRMutator::visit(op);
  }
};

class ErfExpander : public Internal::IRMutator {
  using IRMutator::visit;
  Expr visit(const Internal::Call* op) override {
    if (op->call_type == Internal::Call::PureExtern && op->name == "erf_f32" && op->args.size() == 1)
      return Halide::erf(mutate(op->args[0]));
    return IRMutator::visit(op);
  }
};

}  // namespace

Expr exp2_nonpositive(Expr x) { return keep_nan(x, exp2_clamped(clamp(x, -127.0f, 0.0f))); }

Expr fast_exp2(Expr x) { return keep_nan(x, exp2_clamped(clamp(x, -127.0f, 128.0f))); }

Expr mask_to_neg_inf(const Expr& allowed, const Expr& score) {
  Expr keep = select(allowed, u32(0xffffffffu), u32(0));
  return reinterpret<float>((reinterpret<uint32_t>(score) & keep) | (u32(0xff800000u) & ~keep));
}

Expr mask_to_zero(const Expr& allowed, const Expr& value) {
  return reinterpret<float>(reinterpret<uint32_t>(value) & select(allowed, u32(0xffffffffu), u32(0)));
}

Expr vectorize_transcendentals(const Expr& e) { return TranscendentalRewriter().mutate(e); }

Expr expand_erf(const Expr& e) { return ErfExpander().mutate(e); }

}  // namespace attn::cpu
