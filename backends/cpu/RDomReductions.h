// The IR's bounded reductions as Halide inline reductions (an RDom each): loops in the pipeline.
#pragma once

#include <Halide.h>

#include <string>

namespace attn::cpu {

/// Rewrites every reduction node of `e` (codegen/Reductions.h), inner ones first, into a Halide
/// inline reduction over RDom(0, max(extent, 0)): an anonymous Func whose pure arguments are the
/// free variables of its body (the pipeline's, and those of enclosing reductions). `e` is bound
/// to the pipeline's coordinates already. `prefix` starts every Func and RDom name (see
/// fresh_name_prefix).
Halide::Expr lower_reductions_to_rdoms(const Halide::Expr& e, const std::string& prefix);

}  // namespace attn::cpu
