// The one list of what a kernel's IR may hold: the Halide expression node kinds and the builtin
// calls. verify_kernel_ir checks lowered kernels against it; the expression walkers (CExprPrinter,
// SpirvExpr, EvalExpr, TileProgramBuilder, ScoreGradient) switch over Builtin, so a new builtin is a
// compile error until every walker handles it, and tests/plan/test_kernel_ir.cpp runs each walker on
// every node kind.
#pragma once

#include <cstdint>
#include <optional>

#include "codegen/Reductions.h"

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

/// The calls a kernel's IR may make besides buffer loads: Halide's float math functions (erf is
/// an extern `erf_f32` each target spells: Halide's own erf is an inline polynomial), its abs
/// intrinsic and its integer bit intrinsics. Shift counts are in 0..31 (Lower masks a run-time
/// count with 31). Every walker handles each in a switch without a default.
enum class Builtin : uint8_t {
  Exp,
  Log,
  Tanh,
  Sqrt,
  Sin,
  Cos,
  Pow,
  Floor,
  Ceil,
  Round,
  Trunc,
  Abs,
  Erf,
  Atan,
  BitAnd,
  BitOr,
  BitXor,
  BitNot,
  ShiftLeft,
  ShiftRight,
};

/// A builtin call of the IR: its name (Halide's math functions add `_f32`) and argument count. Not
/// the language's builtins (frontend/Builtins.h), which codegen/LowerBuiltin lowers into these.
struct IrBuiltinInfo {
  Builtin builtin;
  const char* name;
  int arity;
};

inline constexpr IrBuiltinInfo kBuiltins[] = {
    {Builtin::Exp, "exp", 1},
    {Builtin::Log, "log", 1},
    {Builtin::Tanh, "tanh", 1},
    {Builtin::Sqrt, "sqrt", 1},
    {Builtin::Sin, "sin", 1},
    {Builtin::Cos, "cos", 1},
    {Builtin::Pow, "pow", 2},
    {Builtin::Floor, "floor", 1},
    {Builtin::Ceil, "ceil", 1},
    {Builtin::Round, "round", 1},
    {Builtin::Trunc, "trunc", 1},
    {Builtin::Abs, "abs", 1},
    {Builtin::Erf, "erf", 1},
    {Builtin::Atan, "atan", 1},
    {Builtin::BitAnd, "bitwise_and", 2},
    {Builtin::BitOr, "bitwise_or", 2},
    {Builtin::BitXor, "bitwise_xor", 2},
    {Builtin::BitNot, "bitwise_not", 1},
    {Builtin::ShiftLeft, "shift_left", 2},
    {Builtin::ShiftRight, "shift_right", 2},
};

constexpr bool builtins_in_enum_order() {
  for (int i = 0; i < static_cast<int>(sizeof(kBuiltins) / sizeof(kBuiltins[0])); ++i)
    if (static_cast<int>(kBuiltins[i].builtin) != i) return false;
  return static_cast<int>(sizeof(kBuiltins) / sizeof(kBuiltins[0])) ==
         static_cast<int>(Builtin::ShiftRight) + 1;
}
static_assert(builtins_in_enum_order(), "kBuiltins lists every Builtin once, in enum order");

/// The name of `b` as kBuiltins spells it ("exp", ..., "abs", Halide's intrinsic names).
inline const char* builtin_name(Builtin b) { return kBuiltins[static_cast<int>(b)].name; }

/// The builtin `call` is: a math function by name (with or without Halide's `_f32`/`_f64`
/// suffix) and argument count, or the abs or a bit intrinsic; nullopt for a buffer load or
/// anything else.
std::optional<Builtin> builtin_of(const Halide::Internal::Call& call);

}  // namespace attn
