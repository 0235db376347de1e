// The lowering column of the builtin table (frontend/Builtins.h): each builtin as Halide IR.
#pragma once

#include <Halide.h>

#include <vector>

#include "frontend/Builtins.h"

namespace attn {

/// Builtin `fn` applied to `args`, the lowered arguments (as many as Sema let through, of the
/// types it checked: numbers, and a bool for float()).
Halide::Expr lower_builtin(BuiltinFn fn, std::vector<Halide::Expr> args);

}  // namespace attn
