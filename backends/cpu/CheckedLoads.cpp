// Clamps buffer indices and guards each load with a Halide `require`.
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
  explicit CheckLoads(Expr inactive) : inactive_(std::move(inactive)) {}

 private:
  using IRMutator::visit;
  Expr visit(const Call* op) override {
    if (op->call_type != Call::Image || !op->param.defined()) return IRMutator::visit(op);
    const std::string& name = op->param.name();
    std::vector<Expr> args, clamped;
    Expr ok = const_true();
    Expr first_bad_dim, first_bad_index, first_bad_extent;
    for (size_t d = 0; d < op->args.size(); ++d) {
      Expr idx = mutate(op->args[d]);
      std::string dim = std::to_string(d);
      Expr mn = Variable::make(Int(32), name + ".min." + dim, op->param);
      Expr ext = Variable::make(Int(32), name + ".extent." + dim, op->param);
      clamped.push_back(clamp(idx, mn, mn + ext - 1));
      Expr in_range = idx >= mn && idx < mn + ext;
      ok = ok && in_range;
      args.push_back(idx);
      // Report the first dimension that is out of range.
      if (!first_bad_dim.defined()) {
        first_bad_dim = select(in_range, -1, (int)d);
        first_bad_index = idx;
        first_bad_extent = ext;
      } else {
        Expr none_yet = first_bad_dim < 0;
        first_bad_dim = select(none_yet && !in_range, (int)d, first_bad_dim);
        first_bad_index = select(none_yet && !in_range, idx, first_bad_index);
        first_bad_extent = select(none_yet && !in_range, ext, first_bad_extent);
      }
    }
    Expr load = Call::make(op->type, op->name, clamped, Call::Image, op->func, op->value_index,
                           op->image, op->param);
    // Halide prints the value first; the runtime glue starts the message at "buffer '".
    return require(ok || inactive_, load, "buffer '" + name + "': index", first_bad_index,
                   "out of range in dimension", first_bad_dim, "of extent", first_bad_extent);
  }
  Expr inactive_;
};

}  // namespace

Expr check_buffer_loads(const Expr& e, const Expr& inactive) { return CheckLoads(inactive).mutate(e); }

}  // namespace attn::cpu
