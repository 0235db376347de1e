// differentiate_score: forward-mode differentiation of the score over KernelIRNodes.h's node kinds,
// once for `score` and once per f32 read site, each result simplified.
#include "codegen/ScoreGradient.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "codegen/KernelIRNodes.h"

namespace attn {

namespace HI = Halide::Internal;
using HExpr = Halide::Expr;  // attn::Expr is the AST's

namespace {

bool is_f32_load(const HI::Call* c, const KernelIR& ir) {
  if (c->call_type != HI::Call::Image && c->call_type != HI::Call::Halide) return false;
  const KernelArg* a = ir.arg(c->name);
  return a && a->kind == KernelArg::Kind::Buffer && a->elem == ElemType::F32;
}

bool same_index(const std::vector<HExpr>& a, const std::vector<HExpr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!HI::equal(a[i], b[i])) return false;
  return true;
}

// The f32 loads of the score, first reads first, equal (buffer, index) pairs once.
class ReadSites : public HI::IRGraphVisitor {
 public:
  explicit ReadSites(const KernelIR& ir) : ir_(ir) {}
  std::vector<BufferGradient> sites;
  std::vector<std::string> reduced;  // buffers read per term of a reduction

 private:
  using HI::IRGraphVisitor::visit;
  void visit(const HI::Call* c) override {
    if (std::optional<Reduction> r = reduction_of(*c)) {
      active_.push_back(c->args[0].as<HI::Variable>()->name);
      HI::IRGraphVisitor::visit(c);
      active_.pop_back();
      return;
    }
    if (is_f32_load(c, ir_) && reads_per_term(*c)) {
      if (std::find(reduced.begin(), reduced.end(), c->name) == reduced.end()) reduced.push_back(c->name);
    } else if (is_f32_load(c, ir_)) {
      bool seen = false;
      for (const BufferGradient& s : sites)
        seen = seen || (s.buffer == c->name && same_index(s.index, c->args));
      if (!seen) sites.push_back({c->name, c->args, HExpr()});
    }
    HI::IRGraphVisitor::visit(c);
  }
  // Does the load's index depend on an enclosing reduction's variable (one element per term)?
  bool reads_per_term(const HI::Call& c) const {
    for (const HExpr& a : c.args)
      for (const std::string& v : active_)
        if (HI::expr_uses_var(a, v)) return true;
    return false;
  }
  const KernelIR& ir_;
  std::vector<std::string> active_;  // the variables of the reductions being visited
};

// d e / d x for one variable x (`score`, or one buffer element), where `is_x` recognizes x's leaves.
// An undefined HExpr stands for a zero derivative: integer and bool subexpressions, constants and
// other leaves have one, and most of the score does not depend on a given buffer element.
class Differentiate {
 public:
  explicit Differentiate(std::function<bool(const HExpr&)> is_x) : is_x_(std::move(is_x)) {}

  HExpr operator()(const HExpr& e) {
    if (!e.type().is_float()) return HExpr();
    auto it = memo_.find(e.get());
    if (it != memo_.end()) return it->second;
    HExpr d = derive(e);
    memo_.emplace(e.get(), d);
    return d;
  }

 private:
  static HExpr add(const HExpr& a, const HExpr& b) { return !a.defined() ? b : !b.defined() ? a : a + b; }
  static HExpr sub(const HExpr& a, const HExpr& b) { return !b.defined() ? a : !a.defined() ? -b : a - b; }
  static HExpr mul(const HExpr& d, const HExpr& f) { return d.defined() ? d * f : HExpr(); }
  static HExpr or_zero(const HExpr& d, const Halide::Type& t) { return d.defined() ? d : HI::make_zero(t); }
  // `d` where `c` holds, else zero.
  static HExpr when(const HExpr& c, const HExpr& d) {
    return d.defined() ? HI::Select::make(c, d, HI::make_zero(d.type())) : HExpr();
  }

  // The even split of min/max at a tie (torch.minimum/maximum): `da` where `a` is taken, `db` where
  // `b` is, their mean where a == b.
  static HExpr pick(const HExpr& a_taken, const HExpr& tie, const HExpr& da, const HExpr& db,
                    const Halide::Type& t) {
    if (!da.defined() && !db.defined()) return HExpr();
    HExpr za = or_zero(da, t), zb = or_zero(db, t);
    return HI::Select::make(a_taken, za, HI::Select::make(tie, (za + zb) * HI::make_const(t, 0.5), zb));
  }

  HExpr derive(const HExpr& e) {
    const Halide::Type t = e.type();
    if (is_x_(e)) return HI::make_one(t);
    switch (e->node_type) {
      case HI::IRNodeType::Add: {
        const auto* x = e.as<HI::Add>();
        return add((*this)(x->a), (*this)(x->b));
      }
      case HI::IRNodeType::Sub: {
        const auto* x = e.as<HI::Sub>();
        return sub((*this)(x->a), (*this)(x->b));
      }
      case HI::IRNodeType::Mul: {
        const auto* x = e.as<HI::Mul>();
        return add(mul((*this)(x->a), x->b), mul((*this)(x->b), x->a));
      }
      case HI::IRNodeType::Div: {
        const auto* x = e.as<HI::Div>();
        HExpr db = (*this)(x->b);
        return sub(mul((*this)(x->a), 1.0f / x->b), db.defined() ? db * e / x->b : HExpr());
      }
      case HI::IRNodeType::Mod: {
        // a - b * floor(a / b), floor's derivative being 0.
        const auto* x = e.as<HI::Mod>();
        return sub((*this)(x->a), mul((*this)(x->b), Halide::floor(x->a / x->b)));
      }
      case HI::IRNodeType::Min: {
        const auto* x = e.as<HI::Min>();
        if (const auto* inner = x->a.as<HI::Max>()) return clamp(inner->a, inner->b, x->b);
        return pick(x->a < x->b, x->a == x->b, (*this)(x->a), (*this)(x->b), t);
      }
      case HI::IRNodeType::Max: {
        const auto* x = e.as<HI::Max>();
        if (const auto* inner = x->a.as<HI::Min>()) return clamp_low_last(inner->a, x->b, inner->b);
        return pick(x->a > x->b, x->a == x->b, (*this)(x->a), (*this)(x->b), t);
      }
      case HI::IRNodeType::Select: {
        const auto* x = e.as<HI::Select>();
        HExpr dt = (*this)(x->true_value), df = (*this)(x->false_value);
        if (!dt.defined() && !df.defined()) return HExpr();
        return HI::Select::make(x->condition, or_zero(dt, t), or_zero(df, t));
      }
      case HI::IRNodeType::Cast: {
        // A float of an int (a bucket, an index) is piecewise constant.
        const auto* x = e.as<HI::Cast>();
        HExpr d = x->value.type().is_float() ? (*this)(x->value) : HExpr();
        return d.defined() ? Halide::cast(t, d) : HExpr();
      }
      case HI::IRNodeType::Call: return call(e, *e.as<HI::Call>());
      default:
        // Constants, indices, scalar arguments and the comparisons and logic that only conditions
        // hold: their derivative is zero (verify_kernel_ir has rejected every other node kind).
        return HExpr();
    }
  }

  // The simplifier writes clamp(x, lo, hi) as max(min(x, hi), lo), which is lo when the bounds
  // cross: the mirror image, lo taking the gradient when x < lo or hi < lo.
  HExpr clamp_low_last(const HExpr& x, const HExpr& lo, const HExpr& hi) {
    return add(add(when(lo <= x && x <= hi, (*this)(x)), when(x < lo || hi < lo, (*this)(lo))),
               when(hi < x && lo < hi, (*this)(hi)));
  }

  // torch.clamp(x, lo, hi) = min(max(x, lo), hi): x gets the gradient when lo <= x <= hi, lo when
  // x < lo < hi, hi when x > hi or hi < lo.
  HExpr clamp(const HExpr& x, const HExpr& lo, const HExpr& hi) {
    return add(add(when(lo <= x && x <= hi, (*this)(x)), when(x < lo && lo < hi, (*this)(lo))),
               when(hi < x || hi < lo, (*this)(hi)));
  }

  // sum(j < n: body)' = sum(j < n: body'). max and min pass the gradient to the terms equal to
  // the result, split evenly among ties (torch.amax/amin); an empty one has none. The new
  // reduction's variable is fresh: the result `e` inside it keeps its own.
  HExpr reduction(const HExpr& e, const HI::Call& c, Reduction r) {
    const std::string& var = c.args[0].as<HI::Variable>()->name;
    const HExpr& n = c.args[1];
    const HExpr d = (*this)(c.args[2]);
    if (!d.defined()) return HExpr();
    const std::string fresh = var + "_d";
    const HExpr j = HI::Variable::make(Halide::Int(32), fresh);
    const HExpr body = HI::substitute(var, j, c.args[2]), dj = HI::substitute(var, j, d);
    const Halide::Type t = e.type();
    switch (r) {
      case Reduction::Sum: return make_reduction(Reduction::Sum, fresh, n, dj);
      case Reduction::Max:
      case Reduction::Min: {
        const HExpr hit = body == e, zero = HI::make_zero(t), one = HI::make_one(t);
        const HExpr total = make_reduction(Reduction::Sum, fresh, n, HI::Select::make(hit, dj, zero));
        const HExpr ties = make_reduction(Reduction::Sum, fresh, n, HI::Select::make(hit, one, zero));
        return total / Halide::max(ties, one);
      }
      case Reduction::Any:
      case Reduction::All: return HExpr();  // bool: never reached through a float expression
    }
    return HExpr();
  }

  HExpr call(const HExpr& e, const HI::Call& c) {
    if (std::optional<Reduction> r = reduction_of(c)) return reduction(e, c, *r);
    std::optional<Builtin> b = builtin_of(c);
    if (!b) return HExpr();  // a load that is not x: another element, or an int or bool buffer
    const HExpr& u = c.args[0];
    const HExpr du = (*this)(u);
    const Halide::Type t = e.type();
    switch (*b) {
      case Builtin::Exp: return mul(du, e);
      case Builtin::Log: return mul(du, 1.0f / u);
      case Builtin::Tanh: return mul(du, HI::make_one(t) - e * e);
      case Builtin::Sqrt: return mul(du, 0.5f / e);
      case Builtin::Sin: return mul(du, Halide::cos(u));
      case Builtin::Cos: return mul(du, -Halide::sin(u));
      case Builtin::Pow: {
        // PyTorch's pow_backward: 0 for the base where the exponent is 0, 0 for the exponent where
        // the base is 0 and the exponent non-negative.
        const HExpr& p = c.args[1];
        const HExpr zero = HI::make_zero(t);
        HExpr dbase = mul(du, HI::Select::make(p == zero, zero, p * Halide::pow(u, p - 1.0f)));
        HExpr dexp = mul((*this)(p), HI::Select::make(u == zero && p >= zero, zero, e * Halide::log(u)));
        return add(dbase, dexp);
      }
      case Builtin::Erf:
        // 2/sqrt(pi) * exp(-u^2)
        return mul(du, HI::make_const(t, 1.1283791670955126) * Halide::exp(-(u * u)));
      case Builtin::Atan: return mul(du, HI::make_one(t) / (HI::make_one(t) + u * u));
      case Builtin::Floor:
      case Builtin::Ceil:
      case Builtin::Round:
      case Builtin::Trunc: return HExpr();
      // Integer-only: never reached through a float expression.
      case Builtin::BitAnd:
      case Builtin::BitOr:
      case Builtin::BitXor:
      case Builtin::BitNot:
      case Builtin::ShiftLeft:
      case Builtin::ShiftRight: return HExpr();
      case Builtin::Abs: {
        // sign(u), with sign(0) = 0 as torch.abs.
        const HExpr zero = HI::make_zero(t);
        return mul(du, HI::Select::make(u > zero, HI::make_one(t),
                                        HI::Select::make(u < zero, HI::make_const(t, -1), zero)));
      }
    }
    return HExpr();
  }

  std::function<bool(const HExpr&)> is_x_;
  std::map<const HI::IRNode*, HExpr> memo_;
};

HExpr simplified(const HExpr& d) { return HI::simplify(d.defined() ? d : HExpr(0.0f)); }

}  // namespace

namespace {

// `e`'s f32 buffer read sites, each with e's partial derivative there, into g.
void differentiate_reads(const KernelIR& ir, const HExpr& e, ScoreGradient& g) {
  ReadSites sites(ir);
  e.accept(&sites);
  g.reads = std::move(sites.sites);
  g.reduced_reads = std::move(sites.reduced);
  for (BufferGradient& r : g.reads)
    r.partial = simplified(Differentiate([&](const HExpr& x) {
      const auto* c = x.as<HI::Call>();
      return c && is_f32_load(c, ir) && c->name == r.buffer && same_index(r.index, c->args);
    })(e));
}

}  // namespace

ScoreGradient differentiate_score(const KernelIR& ir) {
  ScoreGradient g;
  g.dscore = simplified(Differentiate([&](const HExpr& e) {
    const auto* v = e.as<HI::Variable>();
    return v && v->name == "score" && !v->param.defined();
  })(ir.score));
  differentiate_reads(ir, ir.score, g);
  return g;
}

ScoreGradient differentiate_sink(const KernelIR& ir) {
  ScoreGradient g;
  if (ir.sink.defined()) differentiate_reads(ir, ir.sink, g);
  return g;
}

}  // namespace attn
