// Lowers a mask or score expression of the IR (Halide) to SPIR-V instructions in the current block.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backends/spirv/ModuleBuilder.h"

namespace Halide {
struct Expr;
}

namespace attn::spirv {

/// What an expression may refer to, already available as SPIR-V values in the current function.
struct ExprEnv {
  Id b = 0, h = 0, q = 0, kv = 0;     ///< Int(32) index values
  Id q_len = 0, kv_len = 0;           ///< Int(32): the call's lengths, `q_len` and `kv_len`
  Id score = 0;                       ///< f32, in score expressions
  std::map<std::string, Id> scalars;  ///< scalar arguments by name (i32, f32 or bool values)
  /// Emits a bounds-checked load of buffer `name` at `indices` (i32 values); returns an f32 value
  /// for f32 buffers and an i32 value otherwise.
  std::function<Id(const std::string& name, const std::vector<Id>& indices)> load;
  /// The run-time extent of dimension `dim` of buffer `name` (a reduction bound), an i32 value.
  std::function<Id(const std::string& name, int dim)> extent;
  Id glsl = 0;  ///< the GLSL.std.450 import
};

/// Emits `e` at the builder's current block and returns its value. Bool -> OpTypeBool, floats ->
/// f32, every integer type -> 32-bit signed int. `&&`, `||` and `?:` whose later operands read
/// buffers branch, so a load runs only where the reference evaluates it. Integer `/` and `%` are
/// Halide's (Euclidean, 0 for a zero divisor). A reduction is a structured loop over Function
/// variables (its index and accumulator).
Id emit_expr(ModuleBuilder& m, const ExprEnv& env, const Halide::Expr& e);

/// Structured control flow around the current block: `then` runs when `cond` holds.
void emit_if(ModuleBuilder& m, Id cond, const std::function<void()>& then);

}  // namespace attn::spirv
