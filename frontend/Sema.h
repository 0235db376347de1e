// Semantic analysis: name resolution, types, arity and argument checks, recursion.
#pragma once

#include <optional>

#include "frontend/Builtins.h"
#include "frontend/Program.h"

namespace attn {

/// Resolves every name of every module in `program`, fills `Expr::ref` and `Expr::type`, and
/// reports errors (each independent error once) to `program.diags`.
void check_program(Program& program);

}  // namespace attn

namespace attn {

/// The value of a constant expression of literals (+ - * / // % and parentheses, unary minus),
/// or nothing when `e` is not constant. Used for kernel options.
std::optional<double> constant_value(const Expr& e);

/// True for `b`, `h`, `q`, `kv` (names that cannot be redefined).
bool is_index_name(const std::string& name);

}  // namespace attn
