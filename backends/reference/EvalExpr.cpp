// CompiledExpr: flattening Halide IR into nodes and evaluating them at a point.
#include "backends/reference/EvalExpr.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "codegen/KernelIRNodes.h"

namespace attn {

namespace HI = Halide::Internal;

namespace {

enum class Op {
  Imm,
  Index,
  Score,
  Scalar,
  Load,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Min,
  Max,
  EQ,
  NE,
  LT,
  LE,
  GT,
  GE,
  And,
  Or,
  Not,
  Select,
  Cast,
  Builtin,    // Node::builtin
  Extent,     // ref: argument position; imm: the dimension
  ReduceVar,  // ref: its slot
  Reduce,     // Node::reduction over slot `ref`, kids: extent, body
};

// An int operand's 32 bits.
int32_t bits(double v) { return static_cast<int32_t>(static_cast<int64_t>(v)); }

// Builtin `b` of the operands `k(0)`, `k(1)`.
template <class Operand>
double eval_builtin(Builtin b, const Operand& k) {
  switch (b) {
    case Builtin::Exp: return std::exp(k(0));
    case Builtin::Log: return std::log(k(0));
    case Builtin::Tanh: return std::tanh(k(0));
    case Builtin::Sqrt: return std::sqrt(k(0));
    case Builtin::Sin: return std::sin(k(0));
    case Builtin::Cos: return std::cos(k(0));
    case Builtin::Pow: return std::pow(k(0), k(1));
    case Builtin::Floor: return std::floor(k(0));
    case Builtin::Ceil: return std::ceil(k(0));
    case Builtin::Round: return std::nearbyint(k(0));
    case Builtin::Trunc: return std::trunc(k(0));
    case Builtin::Abs: return std::fabs(k(0));
    case Builtin::Erf: return std::erf(k(0));
    case Builtin::Atan: return std::atan(k(0));
    case Builtin::BitAnd: return bits(k(0)) & bits(k(1));
    case Builtin::BitOr: return bits(k(0)) | bits(k(1));
    case Builtin::BitXor: return bits(k(0)) ^ bits(k(1));
    case Builtin::BitNot: return ~bits(k(0));
    // Counts are 0..31 in the IR; the mask only keeps a malformed one from being undefined here.
    case Builtin::ShiftLeft:
      return static_cast<int32_t>(static_cast<uint32_t>(bits(k(0))) << (bits(k(1)) & 31));
    case Builtin::ShiftRight: return bits(k(0)) >> (bits(k(1)) & 31);
  }
  return 0;
}

}  // namespace

struct CompiledExpr::Node {
  Op op;
  Halide::Type type;
  double imm = 0;
  int ref = 0;  // Index: which index; Scalar/Load: argument position
  Builtin builtin = Builtin::Exp;
  Reduction reduction = Reduction::Sum;
  std::vector<int> kids;
};

CompiledExpr::CompiledExpr(const Halide::Expr& e, const KernelIR& ir, bool round_f32)
    : round_f32_(round_f32) {
  for (const KernelArg& a : ir.args) arg_names_.push_back(a.name);
  root_ = add(e, ir);
}
CompiledExpr::~CompiledExpr() = default;
CompiledExpr::CompiledExpr(CompiledExpr&&) noexcept = default;

int CompiledExpr::add(const Halide::Expr& e, const KernelIR& ir) {
  Node n{Op::Imm, e.type(), 0, 0, Builtin::Exp, Reduction::Sum, {}};
  auto kids = [&](std::initializer_list<Halide::Expr> es) {
    for (const Halide::Expr& k : es) n.kids.push_back(add(k, ir));
  };
  // Every binary node has operands `a` and `b`.
  auto binary = [&](const auto* x, Op op) {
    if (!x) return false;
    n.op = op;
    kids({x->a, x->b});
    return true;
  };
  auto arg_index = [&](const std::string& name) {
    for (size_t i = 0; i < ir.args.size(); ++i)
      if (ir.args[i].name == name) return static_cast<int>(i);
    throw std::logic_error("internal error: IR refers to unknown argument '" + name + "'");
  };
  if (const auto* i = e.as<HI::IntImm>())
    n.imm = static_cast<double>(i->value);
  else if (const auto* u = e.as<HI::UIntImm>())
    n.imm = static_cast<double>(u->value);
  else if (const auto* f = e.as<HI::FloatImm>())
    n.imm = f->value;
  else if (const auto* v = e.as<HI::Variable>()) {
    if (v->name == "score")
      n.op = Op::Score;
    else if (const char* const* i = std::find(std::begin(kIndexNames), std::end(kIndexNames), v->name);
             i != std::end(kIndexNames) && !v->param.defined()) {
      n.op = Op::Index;
      n.ref = static_cast<int>(i - std::begin(kIndexNames));
    } else if (reduce_slots_.count(v->name)) {
      n.op = Op::ReduceVar;
      n.ref = reduce_slots_.at(v->name);
    } else if (std::optional<BufferExtent> x = buffer_extent_of(v->name); x && v->param.defined()) {
      n.op = Op::Extent;
      n.ref = arg_index(x->buffer);
      n.imm = x->dim;
    } else {
      n.op = Op::Scalar;
      n.ref = arg_index(v->name);
    }
  } else if (binary(e.as<HI::Add>(), Op::Add) || binary(e.as<HI::Sub>(), Op::Sub) ||
             binary(e.as<HI::Mul>(), Op::Mul) || binary(e.as<HI::Div>(), Op::Div) ||
             binary(e.as<HI::Mod>(), Op::Mod) || binary(e.as<HI::Min>(), Op::Min) ||
             binary(e.as<HI::Max>(), Op::Max) || binary(e.as<HI::EQ>(), Op::EQ) ||
             binary(e.as<HI::NE>(), Op::NE) || binary(e.as<HI::LT>(), Op::LT) ||
             binary(e.as<HI::LE>(), Op::LE) || binary(e.as<HI::GT>(), Op::GT) ||
             binary(e.as<HI::GE>(), Op::GE) || binary(e.as<HI::And>(), Op::And) ||
             binary(e.as<HI::Or>(), Op::Or)) {
    // n.op and the two operands are set.
  } else if (const auto* x = e.as<HI::Not>()) {
    n.op = Op::Not;
    kids({x->a});
  } else if (const auto* x = e.as<HI::Select>()) {
    n.op = Op::Select;
    kids({x->condition, x->true_value, x->false_value});
  } else if (const auto* x = e.as<HI::Cast>()) {
    n.op = Op::Cast;
    kids({x->value});
  } else if (const auto* c = e.as<HI::Call>(); c && reduction_of(*c)) {
    // One slot per reduction variable in scope; nested reductions take the next one.
    n.op = Op::Reduce;
    n.reduction = *reduction_of(*c);
    n.kids.push_back(add(c->args[1], ir));
    n.ref = static_cast<int>(reduce_slots_.size());
    num_slots_ = std::max(num_slots_, n.ref + 1);
    const std::string& var = c->args[0].as<HI::Variable>()->name;
    reduce_slots_[var] = n.ref;
    n.kids.push_back(add(c->args[2], ir));
    reduce_slots_.erase(var);
  } else if (const auto* c = e.as<HI::Call>()) {
    if (c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide) {
      n.op = Op::Load;
      n.ref = arg_index(c->name);
    } else if (std::optional<Builtin> b = builtin_of(*c)) {
      n.op = Op::Builtin;
      n.builtin = *b;
    } else {
      throw std::logic_error("internal error: the reference cannot evaluate call '" + c->name + "'");
    }
    for (const Halide::Expr& a : c->args) n.kids.push_back(add(a, ir));
  } else {
    std::ostringstream s;
    s << e;
    throw std::logic_error("internal error: the reference cannot evaluate IR node " + s.str());
  }
  nodes_.push_back(std::move(n));
  return static_cast<int>(nodes_.size() - 1);
}

double CompiledExpr::eval(const EvalPoint& p, const ArgValues& args) const {
  // Each evaluation has its own reduction variables: one CompiledExpr serves many threads.
  std::vector<double> slots(static_cast<size_t>(num_slots_));
  EvalPoint at = p;
  at.reduce_vars = slots.data();
  return eval_node(root_, at, args);
}

double CompiledExpr::eval_node(int i, const EvalPoint& p, const ArgValues& args) const {
  double v = eval_value(i, p, args);
  // Float(32) results are rounded to f32, as every target computes them: a float truncated to an
  // int (T5's buckets) must land on the same side of a boundary everywhere.
  return round_f32_ && nodes_[i].type.is_float() && nodes_[i].type.bits() == 32
             ? static_cast<double>(static_cast<float>(v))
             : v;
}

double CompiledExpr::eval_value(int i, const EvalPoint& p, const ArgValues& args) const {
  const Node& n = nodes_[i];
  auto k = [&](int j) { return eval_node(n.kids[j], p, args); };
  bool is_int = !n.type.is_float();
  switch (n.op) {
    case Op::Imm: return n.imm;
    case Op::Index: return p.idx[n.ref];
    case Op::Score: return p.score;
    case Op::Scalar: return args.scalars[n.ref];
    case Op::Load: {
      const HostTensor& t = *args.buffers[n.ref];
      int64_t flat = 0;
      for (size_t d = 0; d < n.kids.size(); ++d) {
        int64_t x = static_cast<int64_t>(k(static_cast<int>(d)));
        if (d >= t.shape.size() || x < 0 || x >= t.shape[d]) {
          std::string where = "b=" + std::to_string(p.idx[0]) + " h=" + std::to_string(p.idx[1]) +
                              " q=" + std::to_string(p.idx[2]) + " kv=" + std::to_string(p.idx[3]);
          throw EvalError("buffer '" + arg_names_[n.ref] + "' index " + std::to_string(x) +
                          " is out of range [0, " + std::to_string(d < t.shape.size() ? t.shape[d] : 0) +
                          ") in dimension " + std::to_string(d) + " (at " + where + ")");
        }
        flat = flat * t.shape[d] + x;
      }
      return t.get(flat);
    }
    case Op::Add: return k(0) + k(1);
    case Op::Sub: return k(0) - k(1);
    case Op::Mul: return k(0) * k(1);
    case Op::Div: {
      double a = k(0), b = k(1);
      if (!is_int) return a / b;
      // Halide integer division: Euclidean, and 0 for a zero divisor.
      int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
      if (y == 0) return 0;
      int64_t q = x / y, r = x % y;
      if (r < 0) q += y > 0 ? -1 : 1;
      return static_cast<double>(q);
    }
    case Op::Mod: {
      double a = k(0), b = k(1);
      if (!is_int) return a - b * std::floor(a / b);
      int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
      if (y == 0) return 0;
      int64_t r = x % y;
      if (r < 0) r += y > 0 ? y : -y;
      return static_cast<double>(r);
    }
    case Op::Min: return std::min(k(0), k(1));
    case Op::Max: return std::max(k(0), k(1));
    case Op::EQ: return k(0) == k(1);
    case Op::NE: return k(0) != k(1);
    case Op::LT: return k(0) < k(1);
    case Op::LE: return k(0) <= k(1);
    case Op::GT: return k(0) > k(1);
    case Op::GE: return k(0) >= k(1);
    case Op::And: return k(0) != 0 && k(1) != 0;
    case Op::Or: return k(0) != 0 || k(1) != 0;
    case Op::Not: return k(0) == 0;
    case Op::Select: return k(0) != 0 ? k(1) : k(2);
    case Op::Cast: {
      double v = k(0);
      if (n.type.is_float()) return v;
      if (n.type.is_bool()) return v != 0;
      if (std::isnan(v)) return 0;
      return std::trunc(v);
    }
    case Op::Builtin: return eval_builtin(n.builtin, [&](int j) { return k(j); });
    case Op::Extent: return static_cast<double>(args.buffers[n.ref]->shape[static_cast<size_t>(n.imm)]);
    case Op::ReduceVar: return p.reduce_vars[n.ref];
    case Op::Reduce: {
      // The bound is evaluated once; the body at j = 0, 1, ..., n - 1, left to right, so that a
      // load out of range is reported at the first j that makes it.
      int64_t extent = static_cast<int64_t>(k(0));
      double acc = 0;
      switch (n.reduction) {
        case Reduction::Sum: acc = 0; break;
        case Reduction::Any: acc = 0; break;
        case Reduction::All: acc = 1; break;
        case Reduction::Max: acc = is_int ? INT32_MIN : -INFINITY; break;
        case Reduction::Min: acc = is_int ? INT32_MAX : INFINITY; break;
      }
      for (int64_t j = 0; j < extent; ++j) {
        p.reduce_vars[n.ref] = static_cast<double>(j);
        double x = k(1);
        switch (n.reduction) {
          case Reduction::Sum: acc = acc + x; break;
          case Reduction::Any: acc = acc != 0 || x != 0; break;
          case Reduction::All: acc = acc != 0 && x != 0; break;
          case Reduction::Max: acc = std::max(acc, x); break;
          case Reduction::Min: acc = std::min(acc, x); break;
        }
        // Each float step rounds to f32, as the targets' accumulators do (unless this expression
        // is evaluated exactly: finite differences in tests/grad).
        if (round_f32_ && n.type.is_float()) acc = static_cast<double>(static_cast<float>(acc));
      }
      return acc;
    }
  }
  return 0;
}

int64_t checked_element(const HostTensor& t, const std::string& name, const std::vector<CompiledExpr>& index,
                        const EvalPoint& p, const ArgValues& args) {
  int64_t flat = 0;
  for (size_t d = 0; d < index.size(); ++d) {
    const int64_t x = static_cast<int64_t>(index[d].eval(p, args));
    if (x < 0 || x >= t.shape[d])
      throw EvalError("buffer '" + name + "' index " + std::to_string(x) + " is out of range [0, " +
                      std::to_string(t.shape[d]) + ") in dimension " + std::to_string(d));
    flat = flat * t.shape[d] + x;
  }
  return flat;
}

}  // namespace attn
