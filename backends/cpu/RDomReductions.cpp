// Reduction nodes -> Halide's sum/maximum/minimum over an RDom.
#include "backends/cpu/RDomReductions.h"

#include "codegen/Reductions.h"

namespace attn::cpu {

using namespace Halide;
using namespace Halide::Internal;
// attn:: has its own Expr (the AST's); this name means Halide's here.
using Halide::Expr;

namespace {

class ToRDoms : public IRMutator {
 public:
  explicit ToRDoms(std::string prefix) : prefix_(std::move(prefix)) {}

 private:
  using IRMutator::visit;

  Expr visit(const Call* op) override {
    std::optional<Reduction> r = reduction_of(*op);
    if (!r) return IRMutator::visit(op);
    // Inner reductions first, while this one's variable is still a plain Variable: their Funcs
    // take it as a pure argument, which the substitution below turns into this RDom's RVar.
    Expr body = mutate(op->args[2]);
    Expr extent = mutate(op->args[1]);
    int id = next_++;
    RDom rd(0, max(extent, 0), prefix_ + "red_rdom" + std::to_string(id));
    body = substitute(op->args[0].as<Variable>()->name, rd.x, body);
    std::string name = prefix_ + "red" + std::to_string(id);
    // any/all: the max/min of 0/1 bytes; an empty domain gives 0 (any: false) and 255 (all: true).
    auto bits = [&](const Expr& b) { return select(b, make_const(UInt(8), 1), make_const(UInt(8), 0)); };
    switch (*r) {
      case Reduction::Sum: return sum(rd, body, name);
      case Reduction::Max: return maximum(rd, body, name);
      case Reduction::Min: return minimum(rd, body, name);
      case Reduction::Any: return maximum(rd, bits(body), name) != make_zero(UInt(8));
      case Reduction::All: return minimum(rd, bits(body), name) != make_zero(UInt(8));
    }
    return op;
  }

  std::string prefix_;
  int next_ = 0;
};

}  // namespace

Expr lower_reductions_to_rdoms(const Expr& e, const std::string& prefix) { return ToRDoms(prefix).mutate(e); }

}  // namespace attn::cpu
