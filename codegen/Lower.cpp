// AST -> IR. A kernel's mask and score are evaluated symbolically: every definition they use is
// inlined with its arguments bound, mask and score arguments are passed as closures (evaluated at
// whatever indices they are applied to), and the result is simplified by Halide.
#include "codegen/Lower.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "codegen/KernelIR.h"
#include "codegen/LowerBuiltin.h"
#include "codegen/Reductions.h"
#include "codegen/VerifyKernelIR.h"
#include "frontend/IntFold.h"
#include "frontend/Limits.h"
#include "frontend/Sema.h"

#if defined(__clang__)
#define ATTN_BINARY_INLINE
#else
#define ATTN_BINARY_INLINE [[gnu::always_inline]]
#endif

namespace attn {

namespace {

using Halide::Expr;
namespace HI = Halide::Internal;

struct Env;
struct Closure;

// A value during lowering: a Halide expression, a closure (mask or score modifier), a tensor, or
// the values of an fn that returns several.
struct Value {
  Expr expr;
  std::shared_ptr<const Closure> closure;
  const KernelArg* tensor = nullptr;
  std::vector<Expr> tuple;
};

// True when a reduction's extent depends on where it is evaluated: an index, the score, a load,
// or another reduction's variable. Loops over such a bound are not what the backends generate.
bool varies_per_position(const Expr& e) {
  struct Finder : HI::IRGraphVisitor {
    bool found = false;
    using HI::IRGraphVisitor::visit;
    void visit(const HI::Variable* v) override { found = found || !v->param.defined(); }
    void visit(const HI::Call* c) override {
      found = found || c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide;
      HI::IRGraphVisitor::visit(c);
    }
  } finder;
  e.accept(&finder);
  return finder.found;
}

// The index variables and the score at the point of evaluation, plus named values.
struct Env {
  Expr idx[kNumIndexVars];
  Expr score;
  std::map<const void*, Value> names;  // keyed by Param* or Binding*
};

// A mask or score modifier that is not yet applied: a definition with bound arguments, an inline
// expression with its environment, or a `|>` composition.
struct Closure {
  const Decl* decl = nullptr;
  std::vector<Value> args;  // decl: one per parameter
  const attn::Expr* inline_expr = nullptr;
  std::shared_ptr<const Env> env;          // inline expression or index overrides: where they are evaluated
  std::vector<const Argument*> overrides;  // named index (and score) arguments
  std::shared_ptr<const Closure> first, second;  // a |> b
  const Param* param = nullptr;                  // a call of a mask/score parameter with overrides
};

// True when simplification folded an i32 overflow into `e`.
bool has_overflow(const Expr& e) {
  struct Finder : HI::IRGraphVisitor {
    bool found = false;
    using HI::IRGraphVisitor::visit;
    void visit(const HI::Call* c) override {
      if (c->is_intrinsic(HI::Call::signed_integer_overflow)) found = true;
      HI::IRGraphVisitor::visit(c);
    }
  } finder;
  e.accept(&finder);
  return finder.found;
}

// The number of nodes of `e` written out as a tree: a subexpression shared by a `let` binding, a
// definition's argument, an index override or a `|>` stage counts at each of its uses, as every
// pass after lowering (simplification, printing, code generation) visits it. Computed over the
// graph, so it costs the graph's size, and saturates just past `limit`.
int64_t tree_size(const Expr& e, int64_t limit) {
  struct Counter : HI::IRGraphVisitor {
    explicit Counter(int64_t limit) : cap(limit + 1) {}
    int64_t cap;
    std::map<const HI::IRNode*, int64_t> size;
    std::vector<int64_t> open{0};
    using HI::IRGraphVisitor::include;
    using HI::IRGraphVisitor::visit;
    void include(const Expr& x) override {
      if (!x.defined()) return;
      int64_t n;
      if (auto it = size.find(x.get()); it != size.end()) {
        n = it->second;
      } else {
        open.push_back(1);
        x.accept(this);
        n = open.back();
        open.pop_back();
        size.emplace(x.get(), n);
      }
      open.back() = std::min(cap, open.back() + n);
    }
  } counter(limit);
  counter.include(e);
  return counter.open.back();
}

// Thrown to stop lowering at an error already reported (an overflow, an oversized kernel).
struct LoweringStopped {};

class Lowering {
 public:
  Lowering(const Program& p, DiagnosticEngine& diags) : program_(p), diags_(diags) {}

  std::shared_ptr<KernelIR> lower(const Decl& k) {
    kernel_ = &k;
    auto ir = std::make_shared<KernelIR>();
    ir->name = k.name;
    ir->source_path = program_.sources.path(k.module ? k.module->file : 0);
    ir->range = k.name_range;
    Env env;
    for (int i = 0; i < kNumIndexVars; ++i) env.idx[i] = index_var(static_cast<IndexVar>(i));
    env.score = score_var();
    ir->args.reserve(k.params.size());
    for (const Param& p : k.params) {
      KernelArg a;
      a.name = p.name;
      if (p.type.kind == TypeKind::Tensor) {
        a.kind = KernelArg::Kind::Buffer;
        a.elem = p.type.elem();
        a.dims = p.type.dims();
        a.param = HI::Parameter(halide_elem_type(a.elem), true, static_cast<int>(a.dims.size()), p.name);
      } else {
        a.kind = KernelArg::Kind::Scalar;
        a.elem = p.type.kind == TypeKind::Int     ? ElemType::I32
                 : p.type.kind == TypeKind::Float ? ElemType::F32
                                                  : ElemType::Bool;
        Halide::Type t = p.type.kind == TypeKind::Int     ? Halide::Int(32)
                         : p.type.kind == TypeKind::Float ? Halide::Float(32)
                                                          : Halide::Bool();
        a.param = HI::Parameter(t, false, 0, p.name);
      }
      ir->args.push_back(std::move(a));
    }
    for (size_t i = 0; i < k.params.size(); ++i) {
      Value v;
      if (ir->args[i].kind == KernelArg::Kind::Buffer)
        v.tensor = &ir->args[i];
      else
        v.expr = HI::Variable::make(ir->args[i].param.type(), ir->args[i].name, ir->args[i].param);
      env.names[&k.params[i]] = v;
    }
    auto shared_env = std::make_shared<const Env>(env);

    ir->mask = HI::const_true();
    ir->score = score_var();
    for (const KernelItem& item : k.items) {
      item_ = &item;
      // Sema reported any key outside the table.
      if (const KernelOptionInfo* option = find_kernel_option(item.key))
        lower_option(*ir, option->option, *item.value, *shared_env);
    }
    if (ir->options.value_dim == 0) ir->options.value_dim = ir->options.head_dim;
    ir->mask = HI::simplify(ir->mask);
    ir->score = HI::simplify(ir->score);
    // Constants that only meet after simplification (`q + 2147483647 + 1`) overflow there.
    for (const KernelItem& item : k.items)
      if ((item.key == "mask" && has_overflow(ir->mask)) ||
          (item.key == "score" && has_overflow(ir->score))) {
        diags_.error(item.range, "integer overflow: a constant in the kernel's " + item.key +
                                     " does not fit in 32 bits once simplified");
        throw LoweringStopped{};
      }
    verify_kernel_ir(*ir);
    return ir;
  }

 private:
  // ---- conversions -------------------------------------------------------------------------------

  Expr as_bool(const Value& v, const Env& env) {
    if (v.closure) return apply(*v.closure, env.idx, env.score);
    Expr e = v.expr;
    if (e.type().is_bool()) return e;
    return e != HI::make_zero(e.type());  // bool buffers are UInt(8)
  }

  Expr as_float(const Value& v, const Env& env) {
    if (v.closure) return apply(*v.closure, env.idx, env.score);
    return to_float(v.expr);
  }

  static Expr to_float(const Expr& e) { return e.type().is_float() ? e : Halide::cast(Halide::Float(32), e); }

  Expr force(const Value& v, const Env& env) {
    if (v.closure) return apply(*v.closure, env.idx, env.score);
    return v.expr;
  }

  // ---- closures ----------------------------------------------------------------------------------

  // Evaluates a mask or score modifier at the given indices and incoming score.
  Expr apply(const Closure& c, const Expr (&idx)[kNumIndexVars], const Expr& score) {
    if (c.first) {
      Expr s1 = apply(*c.first, idx, score);
      return apply(*c.second, idx, s1);
    }
    Expr at[kNumIndexVars];
    std::copy(std::begin(idx), std::end(idx), at);
    Expr s = score;
    if (!c.overrides.empty()) {
      // Named arguments are evaluated where the closure is applied: `q` in `causal(q = q + 1)`
      // is the index the closure is asked about.
      Env where = *c.env;
      for (int i = 0; i < kNumIndexVars; ++i) where.idx[i] = idx[i];
      where.score = score;
      for (const Argument* a : c.overrides) {
        Expr v = force(eval(*a->value, where), where);
        if (a->name == "score") s = to_float(v);
        for (int i = 0; i < kNumIndexVars; ++i)
          if (a->name == kIndexNames[i]) at[i] = v;
      }
    }
    if (c.param) {
      // A mask/score parameter applied with overrides: look the parameter's closure up.
      const Value& inner = c.env->names.at(c.param);
      return apply(*inner.closure, at, s);
    }
    Env env;
    for (int i = 0; i < kNumIndexVars; ++i) env.idx[i] = at[i];
    env.score = s;
    if (c.inline_expr) {
      env.names = c.env->names;
      Value v = eval(*c.inline_expr, env);
      return c.decl == nullptr && c.inline_expr->type.kind != TypeKind::Score &&
                     c.inline_expr->type.kind != TypeKind::Float && c.inline_expr->type.kind != TypeKind::Int
                 ? as_bool(v, env)
                 : as_float(v, env);
    }
    for (size_t i = 0; i < c.decl->params.size(); ++i) env.names[&c.decl->params[i]] = c.args[i];
    Value v = eval(*c.decl->body, env);
    if (c.decl->kind == DeclKind::Mask) return as_bool(v, env);
    return as_float(v, env);
  }

  // The closure a mask/score-typed expression denotes (for arguments and for `|>`).
  std::shared_ptr<const Closure> closure_of(const attn::Expr& e, const Env& env) {
    const attn::Expr* x = &e;
    while (x->kind == ExprKind::Paren) x = x->operands()[0].get();
    if (x->kind == ExprKind::Name || x->kind == ExprKind::Call || x->kind == ExprKind::Pipe) {
      Value v = eval(*x, env);
      if (v.closure) return v.closure;
    }
    // An inline boolean or float expression passed as a mask or score argument.
    auto c = std::make_shared<Closure>();
    c->inline_expr = x;
    c->env = std::make_shared<const Env>(env);
    return c;
  }

  // ---- expressions -------------------------------------------------------------------------------

  Value eval(const attn::Expr& e, const Env& env) {
    if (++evaluated_ > kMaxInlinedNodes) too_large(e);
    return eval_impl(e, env);
  }

  // Out of line: eval is on the stack once per nesting level of an inlined kernel, and the
  // diagnostic's strings would otherwise widen its frame (the limits tests lower ~1000 levels in
  // a 1 MB stack).
  [[noreturn, gnu::noinline, gnu::cold]] void too_large(const attn::Expr& e) {
    const KernelItem& item = *item_;
    Diagnostic& d = diags_.error(
        item.range, "kernel '" + kernel_->name +
                        "' is too large once its definitions are inlined (more than " +
                        std::to_string(kMaxInlinedNodes) + " expression nodes for its " + item.key + ")");
    add_note(d, e.range, "still inlining here");
    throw LoweringStopped{};
  }

  // Lowering keeps shared values shared (27 chained `let x = y * y` are a few dozen nodes), but
  // what follows expands them: 2^27 nodes exhaust memory. Stops at the node budget instead.
  void check_expanded_size(const Expr& e) {
    const int64_t n = tree_size(e, kMaxInlinedNodes);
    if (n <= kMaxInlinedNodes) return;
    const KernelItem& item = *item_;
    Diagnostic& d = diags_.error(
        item.range, "kernel '" + kernel_->name +
                        "' is too large once its definitions are inlined (more than " +
                        std::to_string(kMaxInlinedNodes) + " expression nodes for its " + item.key + ")");
    add_note(d, item.value->range, "a value bound by 'let' or passed as an argument counts once per use");
    throw LoweringStopped{};
  }

  static Value val(Expr e) {
    Value v;
    v.expr = std::move(e);
    return v;
  }

  Value eval_impl(const attn::Expr& e, const Env& env) {
    switch (e.kind) {
      case ExprKind::IntLit: return val(Halide::Expr(static_cast<int32_t>(e.int_value)));
      case ExprKind::FloatLit: return val(Halide::Expr(static_cast<float>(e.float_value)));
      case ExprKind::InfLit: return val(HI::FloatImm::make(Halide::Float(32), INFINITY));
      case ExprKind::BoolLit: return val(e.bool_value ? HI::const_true() : HI::const_false());
      case ExprKind::Paren: return eval(*e.operands()[0], env);
      case ExprKind::Name: return eval_name(e, env);
      case ExprKind::Unary: {
        if (e.text() == "!") return val(!as_bool(eval(*e.operands()[0], env), env));
        Expr x = value_expr(*e.operands()[0], env);
        if (e.text() == "~") {
          if (const int64_t* v = HI::as_const_int(x)) return val(Expr(static_cast<int32_t>(~*v)));
          return val(~x);
        }
        if (auto folded = fold(e, "", Expr(0), x)) return val(*folded);
        return val(HI::make_zero(x.type()) - x);
      }
      case ExprKind::Binary: return val(binary(e, env));
      case ExprKind::Pipe: {
        auto c = std::make_shared<Closure>();
        c->first = closure_of(*e.operands()[0], env);
        c->second = closure_of(*e.operands()[1], env);
        Value v;
        v.closure = c;
        return v;
      }
      case ExprKind::Cond: {
        Expr cond = as_bool(eval(*e.operands()[0], env), env);
        Expr a = value_expr(*e.operands()[1], env), b = value_expr(*e.operands()[2], env);
        unify(a, b);
        return val(Halide::select(cond, a, b));
      }
      case ExprKind::Index: {
        const Value& t = env.names.at(e.operands()[0]->ref.param);
        std::vector<Expr> args;
        for (size_t i = 1; i < e.operands().size(); ++i) args.push_back(value_expr(*e.operands()[i], env));
        Expr load = HI::Call::make(t.tensor->param, args);
        return val(t.tensor->elem == ElemType::Bool ? load != HI::make_zero(load.type()) : load);
      }
      case ExprKind::Call: return eval_call(e, env);
      case ExprKind::Let: {
        Env inner = env;
        for (const Binding& b : e.bindings) {
          Value v = eval(*b.value, inner);
          for (size_t i = 0; i < b.elements.size(); ++i) inner.names[&b.elements[i]] = val(v.tuple[i]);
          if (b.elements.empty()) inner.names[&b] = v;
        }
        return eval(*e.operands()[0], inner);
      }
      case ExprKind::Reduce: return val(reduce(e, env));
      case ExprKind::Tuple: {
        Value v;
        for (const auto& x : e.operands()) v.tuple.push_back(value_expr(*x, env));
        return v;
      }
      case ExprKind::List: break;
    }
    return val(HI::const_false());
  }

  // `op(j < n: body)`: a reduction node over a fresh variable (KernelIRNodes.h).
  Expr reduce(const attn::Expr& e, const Env& env) {
    const Binding& var = e.bindings[0];
    Expr extent = value_expr(*var.value, env);
    if (varies_per_position(extent)) {
      diags_.error(var.value->range,
                   "the bound of a reduction must be the same at every position: a constant, a scalar "
                   "argument or a buffer's dimension, not a value of the indices, the score or a buffer");
      throw LoweringStopped{};
    }
    std::string name = "attn_r" + std::to_string(reductions_++);
    Env inner = env;
    inner.names[&var] = val(HI::Variable::make(Halide::Int(32), name));
    Value body = eval(*e.operands()[0], inner);
    Reduction op = Reduction::Sum;
    for (int i = 0; i < 5; ++i)
      if (e.text() == kReductionNames[i]) op = static_cast<Reduction>(i);
    Expr b = op == Reduction::Any || op == Reduction::All ? as_bool(body, inner) : force(body, inner);
    if (b.type().is_float()) b = to_float(b);
    return make_reduction(op, name, extent, b);
  }

  // The plain value of an expression: closures are applied here (masks -> bool, scores -> float).
  Expr value_expr(const attn::Expr& e, const Env& env) {
    Value v = eval(e, env);
    if (!v.closure) return v.expr;
    if (e.type.kind == TypeKind::Mask) return as_bool(v, env);
    return as_float(v, env);
  }

  static void unify(Expr& a, Expr& b) {
    if (a.type() == b.type()) return;
    if (a.type().is_float() || b.type().is_float()) {
      a = to_float(a);
      b = to_float(b);
    } else if (a.type().is_bool() != b.type().is_bool()) {
      if (!a.type().is_bool()) a = a != HI::make_zero(a.type());
      if (!b.type().is_bool()) b = b != HI::make_zero(b.type());
    }
  }

  Value eval_name(const attn::Expr& e, const Env& env) {
    switch (e.ref.kind) {
      case SymbolRef::Index: return val(env.idx[static_cast<int>(e.ref.index)]);
      case SymbolRef::Score: return val(env.score);
      case SymbolRef::Param: return env.names.at(e.ref.param);
      case SymbolRef::Local: return env.names.at(e.ref.local);
      case SymbolRef::Extent: {
        // Halide's own name for a buffer's extent (what CheckedLoads and the printers read).
        const KernelArg& t = *env.names.at(e.ref.param).tensor;
        return val(
            HI::Variable::make(Halide::Int(32), t.name + ".extent." + std::to_string(e.ref.dim), t.param));
      }
      case SymbolRef::Decl: {
        auto c = std::make_shared<Closure>();
        c->decl = e.ref.decl;
        Value v;
        v.closure = c;
        return v;
      }
      default: return val(HI::const_false());
    }
  }

  // A chain of definitions recurses through it once per level, and the stack a level takes is what
  // bounds the chain (tests/frontend/test_limits.cpp). GCC: inlined into eval_impl, its arithmetic
  // helpers kept out (split out, it costs ~400 bytes more a level). Clang keeps it small without
  // that, and inlined under AddressSanitizer every level pays for its locals' redzones.
  ATTN_BINARY_INLINE Expr binary(const attn::Expr& e, const Env& env) {
    std::string_view op = e.text();
    if (op == "&&" || op == "||") {
      Expr a = as_bool(eval(*e.operands()[0], env), env), b = as_bool(eval(*e.operands()[1], env), env);
      return op == "&&" ? (a && b) : (a || b);
    }
    Expr a = value_expr(*e.operands()[0], env), b = value_expr(*e.operands()[1], env);
    if (op == "/") return to_float(a) / to_float(b);
    unify(a, b);
    if (op == "<<" || op == ">>") b = shift_count(*e.operands()[1], b);
    if (auto folded = fold(e, op, a, b)) return *folded;
    if (op == "&") return a & b;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "<<") return a << b;
    if (op == ">>") return a >> b;
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    if (op == ">=") return a >= b;
    if (op == "//") return floor_div(a, b);
    if (op == "%") return python_mod(a, b);
    return a;
  }

  // A shift count: a constant must be 0..31 (Sema checks literal ones; this catches one bound
  // through a parameter); a run-time one is taken modulo 32, the rule every target follows.
  Expr shift_count(const attn::Expr& at, const Expr& count) {
    if (const int64_t* c = HI::as_const_int(count)) {
      if (*c < 0 || *c > 31) {
        diags_.error(at.range, "shift count " + std::to_string(*c) + " is out of range 0..31");
        throw LoweringStopped{};
      }
      return count;
    }
    return count & Expr(31);
  }

  // `a op b` (or `-b` for an empty op) when both are i32 constants, e.g. a scalar parameter bound
  // at the kernel: an overflow is reported at `e` instead of failing in the generated code.
  std::optional<Expr> fold(const attn::Expr& e, std::string_view op, const Expr& a, const Expr& b) {
    const int64_t *x = HI::as_const_int(a), *y = HI::as_const_int(b);
    if (!x || !y || a.type() != Halide::Int(32) || b.type() != Halide::Int(32)) return std::nullopt;
    std::optional<int64_t> r = fold_int(op.empty() ? "-" : op, op.empty() ? 0 : *x, *y);
    if (!r) return std::nullopt;
    if (!fits_i32(*r)) {
      diags_.error(e.range, int_overflow_message(op, op.empty() ? 0 : *x, *y, *r));
      throw LoweringStopped{};
    }
    return Expr(static_cast<int32_t>(*r));
  }

  // Python's floor division. Halide's integer division is Euclidean (equal to floor for a
  // positive divisor) and gives 0 for a zero divisor. Not inlined: see binary.
  [[gnu::noinline]] static Expr floor_div(const Expr& a, const Expr& b) {
    if (a.type().is_float()) return Halide::floor(a / b);
    if (HI::is_positive_const(b)) return a / b;
    Expr zero = HI::make_zero(a.type());
    return Halide::select(b < zero, (zero - a) / (zero - b), a / b);
  }

  // Python's modulo: the result has the sign of the divisor. Not inlined: see binary.
  [[gnu::noinline]] static Expr python_mod(const Expr& a, const Expr& b) {
    if (a.type().is_float()) return a - b * Halide::floor(a / b);
    if (HI::is_positive_const(b)) return a % b;
    Expr zero = HI::make_zero(a.type());
    return Halide::select(b < zero, zero - ((zero - a) % (zero - b)), a % b);
  }

  // Not inlined: a chain of definitions recurses through eval once per level, and inlined, a call's
  // locals widen that frame (clang then also keeps eval_impl out of eval: see binary).
  [[gnu::noinline]] Value eval_call(const attn::Expr& e, const Env& env) {
    const attn::Expr& callee = *e.operands()[0];
    if (callee.ref.kind == SymbolRef::Builtin) return val(builtin(callee.text(), e, env));
    if (callee.ref.kind == SymbolRef::Param) {
      auto c = std::make_shared<Closure>();
      c->param = callee.ref.param;
      c->env = std::make_shared<const Env>(env);
      for (const Argument& a : e.args) c->overrides.push_back(&a);
      Value v;
      v.closure = c;
      return v;
    }
    const Decl& d = *callee.ref.decl;
    auto c = std::make_shared<Closure>();
    c->decl = &d;
    c->args.resize(d.params.size());
    c->env = std::make_shared<const Env>(env);
    size_t positional = 0;
    for (const Argument& a : e.args) {
      const Param* p = nullptr;
      if (a.name.empty()) {
        p = &d.params[positional++];
      } else {
        for (const Param& q : d.params)
          if (q.name == a.name) p = &q;
      }
      if (!p) {
        c->overrides.push_back(&a);
        continue;
      }
      size_t i = static_cast<size_t>(p - d.params.data());
      if (p->type.kind == TypeKind::Mask || p->type.kind == TypeKind::Score) {
        c->args[i].closure = closure_of(*a.value, env);
      } else if (p->type.kind == TypeKind::Tensor) {
        c->args[i] = eval(*a.value, env);
      } else {
        Expr x = value_expr(*a.value, env);
        if (p->type.kind == TypeKind::Float) x = to_float(x);
        if (p->type.kind == TypeKind::Bool && !x.type().is_bool()) x = x != HI::make_zero(x.type());
        c->args[i] = val(x);
      }
    }
    if (d.kind == DeclKind::Fn && d.result.kind == TypeKind::Tuple) return apply_tuple_fn(*c, env);
    if (d.kind == DeclKind::Fn) return val(apply_fn(*c, env));
    Value v;
    v.closure = c;
    return v;
  }

  // An fn that returns several values: its tuple, each value converted to its declared type.
  Value apply_tuple_fn(const Closure& c, const Env& env) {
    Env inner = fn_env(c, env);
    Value v = eval(*c.decl->body, inner);
    for (size_t i = 0; i < v.tuple.size(); ++i) {
      if (c.decl->result.elements()[i] == TypeKind::Float) v.tuple[i] = to_float(v.tuple[i]);
      if (c.decl->result.elements()[i] == TypeKind::Bool && !v.tuple[i].type().is_bool())
        v.tuple[i] = v.tuple[i] != HI::make_zero(v.tuple[i].type());
    }
    return v;
  }

  Expr apply_fn(const Closure& c, const Env& env) {
    Env inner = fn_env(c, env);
    Expr r = value_expr(*c.decl->body, inner);
    switch (c.decl->result.kind) {
      case TypeKind::Float: return to_float(r);
      case TypeKind::Bool: return r.type().is_bool() ? r : r != HI::make_zero(r.type());
      default: return r;
    }
  }

  // Where an fn's body is evaluated: its arguments bound, the indices overridden by name.
  Env fn_env(const Closure& c, const Env& env) {
    Env inner;
    for (int i = 0; i < kNumIndexVars; ++i) inner.idx[i] = env.idx[i];
    inner.score = env.score;
    for (const Argument* a : c.overrides) {
      Expr v = force(eval(*a->value, env), env);
      for (int i = 0; i < kNumIndexVars; ++i)
        if (a->name == kIndexNames[i]) inner.idx[i] = v;
    }
    for (size_t i = 0; i < c.decl->params.size(); ++i) inner.names[&c.decl->params[i]] = c.args[i];
    return inner;
  }

  // Kernel option `option`'s value `v` into `ir`.
  void lower_option(KernelIR& ir, KernelOption option, const attn::Expr& v, const Env& env) {
    switch (option) {
      case KernelOption::Mask:
        ir.mask = as_bool(eval(v, env), env);
        check_expanded_size(ir.mask);
        return;
      case KernelOption::Score:
      case KernelOption::Sink: {
        // One call site for both, and the `kv` test in another file: either here grew the frames of
        // the recursive evaluation (tests/frontend/test_limits.cpp: the deepest chain in 1 MiB).
        Expr& e = option == KernelOption::Score ? ir.score : ir.sink;
        e = as_float(eval(v, env), env);
        check_expanded_size(e);
        if (option == KernelOption::Sink && reads_key_index(e)) {
          diags_.error(v.range, "the sink is per row: it cannot read `kv`");
          throw LoweringStopped{};
        }
        return;
      }
      case KernelOption::DType:
        ir.options.dtype = dtype_named(std::string(v.text())).value_or(DType::F32);  // Sema checked the name
        return;
      case KernelOption::HeadDim: ir.options.head_dim = static_cast<int>(*constant_value(v)); return;
      case KernelOption::ValueDim: ir.options.value_dim = static_cast<int>(*constant_value(v)); return;
      case KernelOption::Scale: ir.options.scale = *constant_value(v); return;
      case KernelOption::Lse: ir.options.lse = v.bool_value; return;
      case KernelOption::ReturnMax: ir.options.return_max = v.bool_value; return;
      case KernelOption::Backward: ir.options.backward = v.bool_value; return;
      case KernelOption::Block:
        if (v.kind == ExprKind::List) {
          ir.options.block_q = static_cast<int>(*constant_value(*v.operands()[0]));
          ir.options.block_kv =
              static_cast<int>(*constant_value(*v.operands()[v.operands().size() > 1 ? 1 : 0]));
        } else {
          ir.options.block_q = ir.options.block_kv = static_cast<int>(*constant_value(v));
        }
        return;
    }
  }

  // A builtin call: its arguments lowered, then the builtin's lowering (codegen/LowerBuiltin).
  Expr builtin(std::string_view name, const attn::Expr& e, const Env& env) {
    std::vector<Expr> args;
    for (const Argument& arg : e.args) args.push_back(value_expr(*arg.value, env));
    return lower_builtin(find_builtin(name)->fn, std::move(args));
  }

  const Program& program_;
  DiagnosticEngine& diags_;
  const Decl* kernel_ = nullptr;
  const KernelItem* item_ = nullptr;  // the option being lowered
  int64_t evaluated_ = 0;             // expression nodes evaluated so far
  int reductions_ = 0;                // reduction variables named so far: attn_r0, attn_r1, ...
};

}  // namespace

std::shared_ptr<const KernelIR> lower_kernel(const Program& program, const Decl& kernel,
                                             DiagnosticEngine& diags) {
  if (program.diags.has_errors() || kernel.kind != DeclKind::Kernel) return nullptr;
  try {
    return Lowering(program, diags).lower(kernel);
  } catch (const LoweringStopped&) {
    return nullptr;
  }
}

}  // namespace attn
