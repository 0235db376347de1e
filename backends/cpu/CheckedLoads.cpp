// Clamps buffer indices and guards each load with a Halide `require`, per call where it can.
#include "backends/cpu/CheckedLoads.h"

#include <string>

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;
using namespace Halide::Internal;

namespace {

class CheckLoads : public IRMutator {
 public:
  CheckLoads(Expr inactive, const Expr& num_queries, const Expr& num_keys) : inactive_(std::move(inactive)) {
    domain_.push("q", Interval(0, num_queries - 1));
    domain_.push("kv", Interval(0, num_keys - 1));
    domain_.push("q_len", Interval(num_queries, num_queries));
    domain_.push("kv_len", Interval(num_keys, num_keys));
  }

 private:
  using IRMutator::visit;
  Expr visit(const Call* op) override {
    if (op->call_type != Call::Image || !op->param.defined()) return IRMutator::visit(op);
    const std::string& name = op->param.name();
    std::vector<Expr> clamped;
    enum class Check { PerCall, Scalar, PerPosition };
    Check check = Check::Scalar;
    Expr ok = const_true();
    Expr first_bad_dim, first_bad_index, first_bad_extent;
    for (size_t d = 0; d < op->args.size(); ++d) {
      Expr idx = mutate(op->args[d]);
      std::string dim = std::to_string(d);
      Expr mn = Variable::make(Int(32), name + ".min." + dim, op->param);
      Expr ext = Variable::make(Int(32), name + ".extent." + dim, op->param);
      clamped.push_back(clamp(idx, mn, mn + ext - 1));
      Expr in_range = idx >= mn && idx < mn + ext;
      Expr bad_index = idx;
      bool positional = expr_uses_var(idx, "q") || expr_uses_var(idx, "kv");
      // Interval analysis is exact only for affine indices (doc[q], rel[q - kv + 4]); anything
      // else (t5's log buckets) would be over-approximated into a false error: check per position.
      if (positional && is_affine(idx) && !expr_uses_var(idx, "b") && !expr_uses_var(idx, "h")) {
        Interval range = bounds_of_expr_in_scope(idx, domain_);
        if (range.is_bounded() && !reads_buffer(range.min) && !reads_buffer(range.max)) {
          in_range = range.min >= mn && range.max < mn + ext;
          bad_index = select(range.min < mn, range.min, range.max);
          if (check == Check::Scalar) check = Check::PerCall;
        } else {
          check = Check::PerPosition;
        }
      } else if (positional || reads_buffer(idx)) {
        check = Check::PerPosition;
      }
      ok = ok && in_range;
      // Report the first dimension that is out of range.
      if (!first_bad_dim.defined()) {
        first_bad_dim = select(in_range, -1, (int)d);
        first_bad_index = bad_index;
        first_bad_extent = ext;
      } else {
        Expr none_yet = first_bad_dim < 0;
        first_bad_dim = select(none_yet && !in_range, (int)d, first_bad_dim);
        first_bad_index = select(none_yet && !in_range, bad_index, first_bad_index);
        first_bad_extent = select(none_yet && !in_range, ext, first_bad_extent);
      }
    }
    Expr load = Call::make(op->type, op->name, clamped, Call::Image, op->func, op->value_index,
                           op->image, op->param);
    // Halide prints the value first; the runtime glue starts the message at "buffer '". A vector
    // condition makes Halide check (and load) lane by lane: only PerPosition checks are vectors.
    // Where the load's operand is not evaluated (skipped_) it is not checked either; a scalar check
    // takes that condition only when it stays a scalar.
    Expr cond = ok;
    if (check == Check::PerPosition)
      cond = skipped_.defined() ? (ok || inactive_ || skipped_) : (ok || inactive_);
    else if (check == Check::Scalar && skipped_.defined() && !expr_uses_var(skipped_, "q") &&
             !expr_uses_var(skipped_, "kv"))
      cond = ok || skipped_;
    return require(cond, load, "buffer '" + name + "': index", first_bad_index,
                   "out of range in dimension", first_bad_dim, "of extent", first_bad_extent);
  }
  // `&&`, `||` and `c ? a : b` evaluate only the operand they need (docs/language.md): a load in
  // the other operand counts only where it is evaluated, so that `doc[q] >= 0 && start[doc[q]]`
  // is a guard. The guard itself is the checked (clamped) operand.
  Expr visit(const And* op) override {
    Expr a = mutate(op->a);
    return And::make(a, guarded(op->b, !a));
  }
  Expr visit(const Or* op) override {
    Expr a = mutate(op->a);
    return Or::make(a, guarded(op->b, a));
  }
  Expr visit(const Select* op) override {
    Expr c = mutate(op->condition);
    return Select::make(c, guarded(op->true_value, !c), guarded(op->false_value, c));
  }
  /// `e` checked as evaluated only where `skipped` is false.
  Expr guarded(const Expr& e, const Expr& skipped) {
    Expr outer = skipped_;
    skipped_ = outer.defined() ? (outer || skipped) : skipped;
    Expr r = mutate(e);
    skipped_ = outer;
    return r;
  }
  static bool is_affine(const Expr& e) {
    if (e.as<Variable>() || e.as<IntImm>()) return true;
    if (const Add* a = e.as<Add>()) return is_affine(a->a) && is_affine(a->b);
    if (const Sub* a = e.as<Sub>()) return is_affine(a->a) && is_affine(a->b);
    if (const Mul* a = e.as<Mul>())
      return (is_const(a->a) && is_affine(a->b)) || (is_const(a->b) && is_affine(a->a));
    return false;
  }
  static bool reads_buffer(const Expr& e) {
    struct Finder : IRVisitor {
      using IRVisitor::visit;
      bool found = false;
      void visit(const Call* c) override {
        found = found || c->call_type == Call::Image || c->call_type == Call::Halide;
        IRVisitor::visit(c);
      }
    } f;
    e.accept(&f);
    return f.found;
  }
  Scope<Interval> domain_;
  Expr inactive_;
  Expr skipped_;  ///< where the expression being checked is not evaluated (undefined: nowhere)
};

}  // namespace

Expr check_buffer_loads(const Expr& e, const Expr& inactive, const Expr& num_queries, const Expr& num_keys) {
  return CheckLoads(inactive, num_queries, num_keys).mutate(e);
}

}  // namespace attn::cpu
