// emit_expr: one case per Halide node kind of the kernel IR (codegen/KernelIRNodes.h).
#include "backends/spirv/SpirvExpr.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "codegen/KernelIR.h"
#include "codegen/KernelIRNodes.h"

namespace attn::spirv {

namespace HI = Halide::Internal;
using spv::Op;

namespace {

// Does `e` read a buffer? Such operands must not be evaluated speculatively.
class FindLoad : public HI::IRVisitor {
 public:
  bool found = false;

 private:
  using HI::IRVisitor::visit;
  void visit(const HI::Call* c) override {
    if (c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide) found = true;
    HI::IRVisitor::visit(c);
  }
};

bool reads_buffer(const Halide::Expr& e) {
  FindLoad f;
  e.accept(&f);
  return f.found;
}

class Emitter {
 public:
  Emitter(ModuleBuilder& m, const ExprEnv& env) : m_(m), env_(env) {}

  Id type_of(const Halide::Type& t) {
    if (t.is_bool()) return m_.type_bool();
    if (t.is_float()) return m_.type_float(32);
    return m_.type_int(32, true);
  }

  Id glsl(GLSLstd450 fn, Id type, std::vector<Id> args) {
    std::vector<uint32_t> ops{env_.glsl, static_cast<uint32_t>(fn)};
    ops.insert(ops.end(), args.begin(), args.end());
    return m_.op(Op::OpExtInst, type, ops);
  }

  Id select(Id type, Id c, Id a, Id b) { return m_.op(Op::OpSelect, type, {c, a, b}); }

  // Evaluates `a`, and `b` or `c` only on the branch that needs them; merges with OpPhi.
  Id branch(Id type, Id cond, const std::function<Id()>& when_true, const std::function<Id()>& when_false) {
    Id t = m_.id(), f = m_.id(), merge = m_.id();
    m_.op_void(Op::OpSelectionMerge, {merge, static_cast<uint32_t>(spv::SelectionControlMask::MaskNone)});
    m_.op_void(Op::OpBranchConditional, {cond, t, f});
    m_.begin_block(t);
    Id vt = when_true();
    Id t_end = m_.current_block();
    m_.op_void(Op::OpBranch, {merge});
    m_.begin_block(f);
    Id vf = when_false();
    Id f_end = m_.current_block();
    m_.op_void(Op::OpBranch, {merge});
    m_.begin_block(merge);
    return m_.op(Op::OpPhi, type, {vt, t_end, vf, f_end});
  }

  Id emit(const Halide::Expr& e) {
    const Halide::Type t = e.type();
    const Id ty = type_of(t);
    const bool is_f = t.is_float();
    if (const auto* i = e.as<HI::IntImm>()) return m_.const_int(static_cast<int32_t>(i->value));
    if (const auto* u = e.as<HI::UIntImm>())
      return t.is_bool() ? m_.const_bool(u->value != 0) : m_.const_int(static_cast<int32_t>(u->value));
    if (const auto* f = e.as<HI::FloatImm>()) return m_.const_float(static_cast<float>(f->value));
    if (const auto* v = e.as<HI::Variable>()) return variable(v->name);
    if (const auto* x = e.as<HI::Add>())
      return m_.op(is_f ? Op::OpFAdd : Op::OpIAdd, ty, {emit(x->a), emit(x->b)});
    if (const auto* x = e.as<HI::Sub>())
      return m_.op(is_f ? Op::OpFSub : Op::OpISub, ty, {emit(x->a), emit(x->b)});
    if (const auto* x = e.as<HI::Mul>())
      return m_.op(is_f ? Op::OpFMul : Op::OpIMul, ty, {emit(x->a), emit(x->b)});
    if (const auto* x = e.as<HI::Div>())
      return is_f ? m_.op(Op::OpFDiv, ty, {emit(x->a), emit(x->b)}) : int_div(emit(x->a), emit(x->b), false);
    if (const auto* x = e.as<HI::Mod>()) {
      Id a = emit(x->a), b = emit(x->b);
      if (!is_f) return int_div(a, b, true);
      Id fl = glsl(GLSLstd450Floor, ty, {m_.op(Op::OpFDiv, ty, {a, b})});
      return m_.op(Op::OpFSub, ty, {a, m_.op(Op::OpFMul, ty, {b, fl})});
    }
    if (const auto* x = e.as<HI::Min>())
      return glsl(is_f ? GLSLstd450FMin : GLSLstd450SMin, ty, {emit(x->a), emit(x->b)});
    if (const auto* x = e.as<HI::Max>())
      return glsl(is_f ? GLSLstd450FMax : GLSLstd450SMax, ty, {emit(x->a), emit(x->b)});
    if (const auto* x = e.as<HI::EQ>())
      return compare(x->a, x->b, Op::OpFOrdEqual, Op::OpIEqual, Op::OpLogicalEqual);
    if (const auto* x = e.as<HI::NE>())
      return compare(x->a, x->b, Op::OpFUnordNotEqual, Op::OpINotEqual, Op::OpLogicalNotEqual);
    if (const auto* x = e.as<HI::LT>())
      return compare(x->a, x->b, Op::OpFOrdLessThan, Op::OpSLessThan, Op::OpNop);
    if (const auto* x = e.as<HI::LE>())
      return compare(x->a, x->b, Op::OpFOrdLessThanEqual, Op::OpSLessThanEqual, Op::OpNop);
    if (const auto* x = e.as<HI::GT>())
      return compare(x->a, x->b, Op::OpFOrdGreaterThan, Op::OpSGreaterThan, Op::OpNop);
    if (const auto* x = e.as<HI::GE>())
      return compare(x->a, x->b, Op::OpFOrdGreaterThanEqual, Op::OpSGreaterThanEqual, Op::OpNop);
    if (const auto* x = e.as<HI::And>()) {
      Id a = emit(x->a);
      if (!reads_buffer(x->b)) return m_.op(Op::OpLogicalAnd, ty, {a, emit(x->b)});
      return branch(
          ty, a, [&] { return emit(x->b); }, [&] { return m_.const_bool(false); });
    }
    if (const auto* x = e.as<HI::Or>()) {
      Id a = emit(x->a);
      if (!reads_buffer(x->b)) return m_.op(Op::OpLogicalOr, ty, {a, emit(x->b)});
      return branch(
          ty, a, [&] { return m_.const_bool(true); }, [&] { return emit(x->b); });
    }
    if (const auto* x = e.as<HI::Not>()) return m_.op(Op::OpLogicalNot, ty, {emit(x->a)});
    if (const auto* x = e.as<HI::Select>()) {
      Id c = emit(x->condition);
      if (!reads_buffer(x->true_value) && !reads_buffer(x->false_value))
        return select(ty, c, emit(x->true_value), emit(x->false_value));
      return branch(
          ty, c, [&] { return emit(x->true_value); }, [&] { return emit(x->false_value); });
    }
    if (const auto* x = e.as<HI::Cast>()) return cast(t, x->value);
    if (const auto* c = e.as<HI::Call>()) return call(c, ty);
    std::ostringstream s;
    s << e;
    throw std::logic_error("internal error: the SPIR-V backend cannot print IR node " + s.str());
  }

 private:
  Id variable(const std::string& name) {
    if (auto it = reduce_vars_.find(name); it != reduce_vars_.end()) return it->second;
    if (std::optional<BufferExtent> x = buffer_extent_of(name)) {
      if (!env_.extent) throw std::logic_error("internal error: a buffer extent where none is available");
      return env_.extent(x->buffer, x->dim);
    }
    if (name == "b") return env_.b;
    if (name == "h") return env_.h;
    if (name == "q") return env_.q;
    if (name == "kv") return env_.kv;
    if (name == "q_len" || name == "kv_len") {
      Id len = name == "q_len" ? env_.q_len : env_.kv_len;
      if (!len) throw std::logic_error("internal error: '" + name + "' where the lengths are not available");
      return len;
    }
    if (name == "score") {
      if (!env_.score) throw std::logic_error("internal error: 'score' outside a score expression");
      return env_.score;
    }
    auto it = env_.scalars.find(name);
    if (it == env_.scalars.end())
      throw std::logic_error("internal error: IR refers to unknown argument '" + name + "'");
    return it->second;
  }

  Id compare(const Halide::Expr& a, const Halide::Expr& b, Op f, Op i, Op l) {
    Id x = emit(a), y = emit(b);
    Op o = a.type().is_float() ? f : a.type().is_bool() ? l : i;
    if (o == Op::OpNop) {  // ordering bools: compare them as 0/1 integers
      Id it = m_.type_int(32, true);
      x = select(it, x, m_.const_int(1), m_.const_int(0));
      y = select(it, y, m_.const_int(1), m_.const_int(0));
      o = i;
    }
    return m_.op(o, m_.type_bool(), {x, y});
  }

  // Halide's integer division and modulo: Euclidean, and 0 for a zero divisor.
  Id int_div(Id a, Id b, bool mod) {
    Id it = m_.type_int(32, true), bt = m_.type_bool(), zero = m_.const_int(0), one = m_.const_int(1);
    Id bz = m_.op(Op::OpIEqual, bt, {b, zero});
    Id bs = select(it, bz, one, b);
    Id rem = m_.op(Op::OpSRem, it, {a, bs});
    Id neg = m_.op(Op::OpSLessThan, bt, {rem, zero});
    Id r;
    if (mod) {
      Id abs_b = glsl(GLSLstd450SAbs, it, {bs});
      r = select(it, neg, m_.op(Op::OpIAdd, it, {rem, abs_b}), rem);
    } else {
      Id quo = m_.op(Op::OpSDiv, it, {a, bs});
      Id bpos = m_.op(Op::OpSGreaterThan, bt, {bs, zero});
      Id adj = select(it, bpos, m_.op(Op::OpISub, it, {quo, one}), m_.op(Op::OpIAdd, it, {quo, one}));
      r = select(it, neg, adj, quo);
    }
    return select(it, bz, zero, r);
  }

  Id cast(const Halide::Type& to, const Halide::Expr& value) {
    const Halide::Type from = value.type();
    Id v = emit(value);
    Id ty = type_of(to), bt = m_.type_bool();
    if (from.is_bool()) {
      if (to.is_bool()) return v;
      return to.is_float() ? select(ty, v, m_.const_float(1), m_.const_float(0))
                           : select(ty, v, m_.const_int(1), m_.const_int(0));
    }
    if (from.is_float()) {
      if (to.is_float()) return v;
      if (to.is_bool()) return m_.op(Op::OpFUnordNotEqual, bt, {v, m_.const_float(0)});
      // NaN converts to 0, as in the reference; SPIR-V leaves it undefined.
      Id conv = m_.op(Op::OpConvertFToS, ty, {v});
      return select(ty, m_.op(Op::OpIsNan, bt, {v}), m_.const_int(0), conv);
    }
    if (to.is_float()) return m_.op(Op::OpConvertSToF, ty, {v});
    if (to.is_bool()) return m_.op(Op::OpINotEqual, bt, {v, m_.const_int(0)});
    if (to.bits() < 32) {
      uint32_t mask = (1u << to.bits()) - 1;
      return m_.op(Op::OpBitwiseAnd, ty, {v, m_.const_int(static_cast<int32_t>(mask))});
    }
    return v;
  }

  // for (j = 0; j < extent; ++j) acc = step(acc, body): the loop of codegen/Reductions.h.
  Id reduction(const HI::Call* c, Id ty) {
    const Reduction op = *reduction_of(*c);
    Id it = m_.type_int(32, true), bt = m_.type_bool();
    Id extent = emit(c->args[1]);
    Id init = emit(reduction_identity(op, c->args[2]));
    Id index = m_.local_variable(m_.type_pointer(spv::StorageClass::Function, it));
    Id acc = m_.local_variable(m_.type_pointer(spv::StorageClass::Function, ty));
    m_.op_void(Op::OpStore, {index, m_.const_int(0)});
    m_.op_void(Op::OpStore, {acc, init});
    Id header = m_.id(), inner = m_.id(), cont = m_.id(), merge = m_.id();
    m_.op_void(Op::OpBranch, {header});
    m_.begin_block(header);
    Id j = m_.op(Op::OpLoad, it, {index});
    Id more = m_.op(Op::OpSLessThan, bt, {j, extent});
    m_.op_void(Op::OpLoopMerge, {merge, cont, static_cast<uint32_t>(spv::LoopControlMask::MaskNone)});
    m_.op_void(Op::OpBranchConditional, {more, inner, merge});
    m_.begin_block(inner);
    const std::string& var = c->args[0].as<HI::Variable>()->name;
    reduce_vars_[var] = j;
    Id x = emit(c->args[2]);
    reduce_vars_.erase(var);
    Id a = m_.op(Op::OpLoad, ty, {acc});
    const bool is_f = c->type.is_float();
    Id next = 0;
    switch (op) {
      case Reduction::Sum: next = m_.op(is_f ? Op::OpFAdd : Op::OpIAdd, ty, {a, x}); break;
      case Reduction::Any: next = m_.op(Op::OpLogicalOr, ty, {a, x}); break;
      case Reduction::All: next = m_.op(Op::OpLogicalAnd, ty, {a, x}); break;
      case Reduction::Max: next = glsl(is_f ? GLSLstd450FMax : GLSLstd450SMax, ty, {a, x}); break;
      case Reduction::Min: next = glsl(is_f ? GLSLstd450FMin : GLSLstd450SMin, ty, {a, x}); break;
    }
    m_.op_void(Op::OpStore, {acc, next});
    m_.op_void(Op::OpBranch, {cont});
    m_.begin_block(cont);
    m_.op_void(Op::OpStore,
               {index, m_.op(Op::OpIAdd, it, {m_.op(Op::OpLoad, it, {index}), m_.const_int(1)})});
    m_.op_void(Op::OpBranch, {header});
    m_.begin_block(merge);
    return m_.op(Op::OpLoad, ty, {acc});
  }

  Id call(const HI::Call* c, Id ty) {
    if (reduction_of(*c)) return reduction(c, ty);
    if (c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide) {
      std::vector<Id> idx;
      for (const Halide::Expr& a : c->args) idx.push_back(emit(a));
      return env_.load(c->name, idx);
    }
    const std::optional<Builtin> builtin = builtin_of(*c);
    if (!builtin)
      throw std::logic_error("internal error: the SPIR-V backend cannot print call '" + c->name + "'");
    std::vector<Id> a;
    for (const Halide::Expr& x : c->args) a.push_back(emit(x));
    switch (*builtin) {
      case Builtin::Abs:
        return glsl(c->args[0].type().is_float() ? GLSLstd450FAbs : GLSLstd450SAbs, ty, {a[0]});
      case Builtin::Tanh: return tanh(a[0]);
      case Builtin::Exp: return glsl(GLSLstd450Exp, ty, a);
      case Builtin::Log: return glsl(GLSLstd450Log, ty, a);
      case Builtin::Sqrt: return glsl(GLSLstd450Sqrt, ty, a);
      case Builtin::Sin: return glsl(GLSLstd450Sin, ty, a);
      case Builtin::Cos: return glsl(GLSLstd450Cos, ty, a);
      case Builtin::Pow: return glsl(GLSLstd450Pow, ty, a);
      case Builtin::Floor: return glsl(GLSLstd450Floor, ty, a);
      case Builtin::Ceil: return glsl(GLSLstd450Ceil, ty, a);
      case Builtin::Round: return glsl(GLSLstd450RoundEven, ty, a);
      case Builtin::Trunc: return glsl(GLSLstd450Trunc, ty, a);
      case Builtin::Erf: return erf(a[0]);
      case Builtin::Atan: return glsl(GLSLstd450Atan, ty, a);
      case Builtin::BitAnd: return m_.op(Op::OpBitwiseAnd, ty, a);
      case Builtin::BitOr: return m_.op(Op::OpBitwiseOr, ty, a);
      case Builtin::BitXor: return m_.op(Op::OpBitwiseXor, ty, a);
      case Builtin::BitNot: return m_.op(Op::OpNot, ty, a);
      case Builtin::ShiftLeft: return m_.op(Op::OpShiftLeftLogical, ty, a);
      case Builtin::ShiftRight: return m_.op(Op::OpShiftRightArithmetic, ty, a);
    }
    throw std::logic_error("internal error: the SPIR-V backend cannot print call '" + c->name + "'");
  }

  // tanh from exp(-2|x|): finite for every input (GLSL's Tanh may overflow to NaN for large |x|).
  Id tanh(Id x) {
    Id ft = m_.type_float(32);
    Id ax = glsl(GLSLstd450FAbs, ft, {x});
    Id t = glsl(GLSLstd450Exp, ft, {m_.op(Op::OpFMul, ft, {ax, m_.const_float(-2.0f)})});
    Id one = m_.const_float(1.0f);
    Id r = m_.op(Op::OpFDiv, ft, {m_.op(Op::OpFSub, ft, {one, t}), m_.op(Op::OpFAdd, ft, {one, t})});
    return m_.op(Op::OpFMul, ft, {glsl(GLSLstd450FSign, ft, {x}), r});
  }

  // GLSL.std.450 has no erf. |x| < 1: x * P(x^2), the Taylor series to x^19 (remainder below
  // 2e-8 relative); else sign(x) * (1 - exp(-x^2) * T(|x|)), Abramowitz and Stegun 7.1.26
  // (absolute error 1.5e-7, and erf >= 0.84 there). Both are computed and selected: no control
  // flow, and NaN propagates.
  Id erf(Id x) {
    Id ft = m_.type_float(32);
    auto mul = [&](Id a, Id b) { return m_.op(Op::OpFMul, ft, {a, b}); };
    auto add = [&](Id a, Id b) { return m_.op(Op::OpFAdd, ft, {a, b}); };
    auto k = [&](double v) { return m_.const_float(static_cast<float>(v)); };
    Id x2 = mul(x, x);
    // Taylor series of erf(x) / x in x^2: 2/sqrt(pi) * sum (-1)^n x^(2n) / (n! (2n+1)).
    double coef[10];
    double fact = 1;
    for (int n = 0; n < 10; ++n) {
      if (n > 0) fact *= n;
      coef[n] = (n % 2 ? -1.0 : 1.0) * 1.1283791670955126 / (fact * (2 * n + 1));
    }
    Id p = k(coef[9]);
    for (int n = 8; n >= 0; --n) p = add(mul(p, x2), k(coef[n]));
    Id small = mul(x, p);
    Id ax = glsl(GLSLstd450FAbs, ft, {x});
    Id large =
        m_.op(Op::OpFSub, ft, {k(1.0), mul(erfc_tail(ax), glsl(GLSLstd450Exp, ft, {mul(x2, k(-1.0))}))});
    large = mul(glsl(GLSLstd450FSign, ft, {x}), large);
    Id is_small = m_.op(Op::OpFOrdLessThan, m_.type_bool(), {ax, k(1.0)});
    return select(ft, is_small, small, large);
  }

  // A&S 7.1.26's polynomial in t = 1 / (1 + 0.3275911 |x|).
  Id erfc_tail(Id ax) {
    Id ft = m_.type_float(32);
    auto k = [&](float v) { return m_.const_float(v); };
    Id t = m_.op(Op::OpFDiv, ft,
                 {k(1.0f), m_.op(Op::OpFAdd, ft, {k(1.0f), m_.op(Op::OpFMul, ft, {ax, k(0.3275911f)})})});
    static const float a[] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f, 1.061405429f};
    Id p = k(a[4]);
    for (int i = 3; i >= 0; --i) p = m_.op(Op::OpFAdd, ft, {m_.op(Op::OpFMul, ft, {p, t}), k(a[i])});
    return m_.op(Op::OpFMul, ft, {p, t});
  }

  ModuleBuilder& m_;
  const ExprEnv& env_;
  std::map<std::string, Id> reduce_vars_;  // the reductions' variables in scope: their loop index
};

}  // namespace

Id emit_expr(ModuleBuilder& m, const ExprEnv& env, const Halide::Expr& e) { return Emitter(m, env).emit(e); }

void emit_if(ModuleBuilder& m, Id cond, const std::function<void()>& then) {
  Id t = m.id(), merge = m.id();
  m.op_void(Op::OpSelectionMerge, {merge, static_cast<uint32_t>(spv::SelectionControlMask::MaskNone)});
  m.op_void(Op::OpBranchConditional, {cond, t, merge});
  m.begin_block(t);
  then();
  m.op_void(Op::OpBranch, {merge});
  m.begin_block(merge);
}

}  // namespace attn::spirv
