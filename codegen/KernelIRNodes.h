// The one list of what a kernel's IR may hold: the Halide expression node kinds and the builtin
// calls. verify_kernel_ir checks lowered kernels against it; the expression walkers (CExprPrinter,
// SpirvExpr, EvalExpr, TileProgramBuilder, ScoreGradient) switch over Builtin, so a new builtin is a
// compile error until every walker handles it, and tests/plan/test_kernel_ir.cpp runs each walker on
// every node kind.
#pragma once

#include <cstdint>
#include <optional>

// Every file that walks the IR includes this one: there a switch over Builtin that misses one is
// an error, whatever the build's warning flags.
#pragma GCC diagnostic error "-Wswitch"

namespace Halide::Internal {
struct Call;
}

namespace attn {

/// X(Node) for every Halide expression node kind a kernel's mask and score may hold.
#define ATTN_KERNEL_IR_NODES(X) \
  X(IntImm)                     \
  X(UIntImm)                    \
  X(FloatImm)                   \
  X(Variable)                   \
  X(Add)                        \
  X(Sub)                        \
  X(Mul)                        \
  X(Div)                        \
  X(Mod)                        \
  X(Min)                        \
  X(Max)                        \
  X(EQ)                         \
  X(NE)                         \
  X(LT)                         \
  X(LE)                         \
  X(GT)                         \
  X(GE)                         \
  X(And)                        \
  X(Or)                         \
  X(Not)                        \
  X(Select)                     \
  X(Cast)                       \
  X(Call)

/// The calls a kernel's IR may make besides buffer loads: Halide's float math functions and its
/// abs intrinsic. Every walker handles each in a switch without a default.
enum class Builtin : uint8_t { Exp, Log, Tanh, Sqrt, Sin, Cos, Pow, Floor, Ceil, Round, Trunc, Abs };

/// A builtin's name (Halide's math functions add `_f32`) and argument count.
struct BuiltinInfo {
  Builtin builtin;
  const char* name;
  int arity;
};

inline constexpr BuiltinInfo kBuiltins[] = {
    {Builtin::Exp, "exp", 1},     {Builtin::Log, "log", 1},     {Builtin::Tanh, "tanh", 1},
    {Builtin::Sqrt, "sqrt", 1},   {Builtin::Sin, "sin", 1},     {Builtin::Cos, "cos", 1},
    {Builtin::Pow, "pow", 2},     {Builtin::Floor, "floor", 1}, {Builtin::Ceil, "ceil", 1},
    {Builtin::Round, "round", 1}, {Builtin::Trunc, "trunc", 1}, {Builtin::Abs, "abs", 1},
};

constexpr bool builtins_in_enum_order() {
  for (int i = 0; i < static_cast<int>(sizeof(kBuiltins) / sizeof(kBuiltins[0])); ++i)
    if (static_cast<int>(kBuiltins[i].builtin) != i) return false;
  return static_cast<int>(sizeof(kBuiltins) / sizeof(kBuiltins[0])) == static_cast<int>(Builtin::Abs) + 1;
}
static_assert(builtins_in_enum_order(), "kBuiltins lists every Builtin once, in enum order");

/// The name of `b` as kBuiltins spells it ("exp", ..., "abs").
inline const char* builtin_name(Builtin b) { return kBuiltins[static_cast<int>(b)].name; }

/// The builtin `call` is: a math function by name (with or without Halide's `_f32`/`_f64`
/// suffix) and argument count, or the abs intrinsic; nullopt for a buffer load or anything else.
std::optional<Builtin> builtin_of(const Halide::Internal::Call& call);

}  // namespace attn
