// Solves the mask for the interval of kv that can be true, then bounds it over the query tile.
#include "backends/cpu/KeyRange.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;
using namespace Halide::Internal;

namespace {

// Bounds are only usable when they are closed forms of indices and scalars (no buffer loads).
class FindLoads : public IRVisitor {
  using IRVisitor::visit;
  void visit(const Call* op) override {
    if (op->call_type == Call::Image || op->call_type == Call::Halide) found = true;
    IRVisitor::visit(op);
  }
 public:
  bool found = false;
};

bool reads_memory(const Expr& e) {
  FindLoads f;
  e.accept(&f);
  return f.found;
}

}  // namespace

KeyRange key_range_for_query_tile(const Expr& mask, const Expr& q0, int rows, const Expr& num_keys) {
  KeyRange r{0, num_keys};
  if (!mask.defined() || is_const_one(mask)) return r;
  Interval kv = solve_for_outer_interval(mask, "kv");
  if (kv.is_empty()) {
    r.hi = 0;
    r.hi_bounded = true;
    return r;
  }
  Scope<Interval> scope;
  scope.push("q", Interval(Variable::make(Int(32), "attn_q0"), Variable::make(Int(32), "attn_q0") + (rows - 1)));
  auto over_tile = [&](const Expr& e, bool want_min) -> Expr {
    Interval b = bounds_of_expr_in_scope(e, scope);
    Expr v = want_min ? b.min : b.max;
    if (!v.defined() || (want_min && !b.has_lower_bound()) || (!want_min && !b.has_upper_bound()))
      return Expr();
    if (reads_memory(v) || expr_uses_var(v, "kv")) return Expr();
    return simplify(substitute("attn_q0", q0, v));
  };
  if (kv.has_lower_bound()) {
    Expr lo = over_tile(kv.min, true);
    if (lo.defined()) {
      r.lo = max(lo, 0);
      r.lo_bounded = true;
    }
  }
  if (kv.has_upper_bound()) {
    Expr hi = over_tile(kv.max, false);
    if (hi.defined()) {
      r.hi = min(hi + 1, num_keys);
      r.hi_bounded = true;
    }
  }
  return r;
}

}  // namespace attn::cpu
