// Sema: expressions: names and scopes, operators, indexing, let bindings, reductions, folding.
#include "frontend/SemaChecker.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "frontend/InlineDepth.h"
#include "frontend/IntFold.h"
#include "frontend/StdlibNames.h"

namespace attn::sema {

Type Checker::check(Expr& e, Context& c) {
  e.type = check_impl(e, c);
  if (e.type.kind == TypeKind::Int) fold(e);
  return e.type;
}

// Folds an int expression of constants (literals, and `let` names bound to them), so that an
// overflow is an error here rather than at run time.
void Checker::fold(Expr& e) {
  auto value = [&](const Expr& x) -> std::optional<int64_t> {
    if (x.type.kind != TypeKind::Int) return std::nullopt;
    return folded(x);
  };
  folded_.erase(&e);
  std::optional<int64_t> a, b;
  std::string_view op;
  switch (e.kind) {
    case ExprKind::IntLit: folded_[&e] = static_cast<int32_t>(e.int_value); return;
    case ExprKind::Paren:
      if (auto x = value(*e.operands()[0])) folded_[&e] = static_cast<int32_t>(*x);
      return;
    case ExprKind::Name:
      if (e.ref.kind == SymbolRef::Local && e.ref.local->value && !e.ref.local->is_reduction_var)
        if (auto x = value(*e.ref.local->value)) folded_[&e] = static_cast<int32_t>(*x);
      return;
    case ExprKind::Unary:
      if (e.text() == "~") {
        if (auto x = value(*e.operands()[0])) folded_[&e] = static_cast<int32_t>(~*x);
        return;
      }
      if (e.text() != "-" || !(b = value(*e.operands()[0]))) return;
      a = 0;
      break;
    case ExprKind::Binary:
      a = value(*e.operands()[0]);
      b = value(*e.operands()[1]);
      if (!a || !b) return;
      op = e.text();
      break;
    default: return;
  }
  std::optional<int64_t> r = fold_int(op.empty() ? "-" : op, *a, *b);
  if (!r) return;
  if (!fits_i32(*r)) {
    diags_.error(e.range, int_overflow_message(op, *a, *b, *r));
    return;
  }
  folded_[&e] = static_cast<int32_t>(*r);
}

std::optional<int32_t> Checker::folded(const Expr& e) const {
  auto it = folded_.find(&e);
  return it == folded_.end() ? std::nullopt : std::optional<int32_t>(it->second);
}

Type Checker::error_at(SourceRange r, std::string msg) {
  diags_.error(r, std::move(msg));
  return Type::error();
}

Type Checker::check_impl(Expr& e, Context& c) {
  switch (e.kind) {
    case ExprKind::IntLit: return Type::of(TypeKind::Int);
    case ExprKind::FloatLit:
    case ExprKind::InfLit: return Type::of(TypeKind::Float);
    case ExprKind::BoolLit: return Type::of(TypeKind::Bool);
    case ExprKind::Paren: return check(*e.operands()[0], c);
    case ExprKind::Name: return check_name(e, c, /*as_callee=*/false);
    case ExprKind::Unary: {
      Type t = check(*e.operands()[0], c);
      if (t.is_error()) return t;
      if (e.text() == "!") {
        if (!boolish(t))
          return error_at(e.operands()[0]->range,
                          "operator '!' expects a boolean, found " + describe(*e.operands()[0], t));
        return Type::of(TypeKind::Bool);
      }
      if (e.text() == "~") {
        if (t.kind != TypeKind::Int)
          return error_at(e.operands()[0]->range,
                          "operator '~' expects an int, found " + describe(*e.operands()[0], t));
        return t;
      }
      if (!t.is_numeric())
        return error_at(e.operands()[0]->range,
                        "operator '-' expects a number, found " + describe(*e.operands()[0], t));
      return t;
    }
    case ExprKind::Binary: return check_binary(e, c);
    case ExprKind::Pipe: {
      Type a = check(*e.operands()[0], c), b = check(*e.operands()[1], c);
      if (a.is_error() || b.is_error()) return Type::error();
      for (int i = 0; i < 2; ++i) {
        const Type& t = i == 0 ? a : b;
        if (t.kind != TypeKind::Score)
          return error_at(e.operands()[i]->range,
                          "'|>' composes score modifiers; found " + describe(*e.operands()[i], t));
      }
      return Type::of(TypeKind::Score);
    }
    case ExprKind::Cond: {
      Type cond = check(*e.operands()[0], c);
      Type a = check(*e.operands()[1], c), b = check(*e.operands()[2], c);
      if (!cond.is_error() && !boolish(cond))
        error_at(e.operands()[0]->range,
                 "condition must be a boolean, found " + describe(*e.operands()[0], cond));
      if (a.is_error() || b.is_error() || cond.is_error()) return Type::error();
      a = as_value(a, c);
      b = as_value(b, c);
      if (a.is_numeric() && b.is_numeric()) return numeric_join(a, b);
      if (boolish(a) && boolish(b)) return Type::of(TypeKind::Bool);
      return error_at(e.range, "the branches of '?:' have different types: " + describe(*e.operands()[1], a) +
                                   " and " + describe(*e.operands()[2], b));
    }
    case ExprKind::Index: return check_index(e, c);
    case ExprKind::Call: return check_call(e, c);
    case ExprKind::Let: {
      size_t mark = c.locals.size();
      check_let_bindings(e, c);
      Type t = check(*e.operands()[0], c);
      c.locals.resize(mark);
      return t;
    }
    case ExprKind::List: return error_at(e.range, "a list is only allowed as a kernel option value");
    case ExprKind::Reduce: return check_reduce(e, c);
    case ExprKind::Tuple:
      for (auto& x : e.operands()) check(*x, c);
      return error_at(e.range,
                      "a tuple of values is only allowed as the body of an fn that returns several "
                      "values, e.g. fn xy(p: int) -> (int, int) = (p % w, p // w);");
  }
  return Type::error();
}

// The bindings of a `let`, each in scope for the next; the caller pops them.
void Checker::check_let_bindings(Expr& e, Context& c) {
  for (Binding& b : e.bindings) {
    b.type = check(*b.value, c);
    if (!b.elements.empty()) {
      check_tuple_binding(b, c);
      continue;
    }
    if (is_index_name(b.name) || b.name == "score")
      diags_.error(b.name_range, "'" + b.name + "' cannot be rebound with let");
    if (b.type.kind == TypeKind::Tensor)
      diags_.error(b.value->range, "let cannot bind a tensor; index it instead");
    if (b.type.kind == TypeKind::Tuple) {
      diags_.error(b.value->range, "this is " + count(b.type.elements().size(), "value") + " of type " +
                                       type_name(b.type) + "; bind them with let (" + b.name +
                                       ", ...) = ...");
      b.type = Type::error();
    }
    c.locals.push_back({b.name, &b});
  }
}

// `(x, y) = e`: e returns as many values as there are names; each name gets its value's type.
void Checker::check_tuple_binding(Binding& b, Context& c) {
  for (Binding& x : b.elements) {
    if (is_index_name(x.name) || x.name == "score")
      diags_.error(x.name_range, "'" + x.name + "' cannot be rebound with let");
    x.type = Type::error();
  }
  if (!b.type.is_error()) {
    if (b.type.kind != TypeKind::Tuple) {
      diags_.error(b.value->range, "let binds " + count(b.elements.size(), "name") + " but this is " +
                                       describe(*b.value, b.type) + ", a single value");
    } else if (b.type.elements().size() != b.elements.size()) {
      diags_.error(b.name_range, "let binds " + count(b.elements.size(), "name") + " but its value gives " +
                                     count(b.type.elements().size(), "value") + ", of types " +
                                     type_name(b.type));
    } else {
      for (size_t i = 0; i < b.elements.size(); ++i) b.elements[i].type = Type::of(b.type.elements()[i]);
    }
  }
  for (Binding& x : b.elements) c.locals.push_back({x.name, &x});
}

// `op(j < n: body)`: n an int that the parameters, constants and buffer extents give; j an int
// in scope in the body.
Type Checker::check_reduce(Expr& e, Context& c) {
  Binding& var = e.bindings[0];
  bool was_in_bound = c.in_bound;
  c.in_bound = true;
  Type bound = check(*var.value, c);
  c.in_bound = was_in_bound;
  if (!bound.is_error() && bound.kind != TypeKind::Int)
    error_at(var.value->range,
             "the bound of a reduction must be an int, found " + describe(*var.value, bound));
  if (is_index_name(var.name) || var.name == "score")
    diags_.error(var.name_range, "'" + var.name + "' cannot be a reduction's variable");
  var.type = Type::of(TypeKind::Int);
  c.locals.push_back({var.name, &var});
  Type body = as_value(check(*e.operands()[0], c), c);
  c.locals.pop_back();
  if (body.is_error() || bound.is_error()) return Type::error();
  const Expr& b = *e.operands()[0];
  if (e.text() == "any" || e.text() == "all") {
    if (!boolish(body))
      return error_at(b.range,
                      "'" + std::string(e.text()) + "' reduces booleans, found " + describe(b, body));
    return Type::of(TypeKind::Bool);
  }
  if (!body.is_numeric())
    return error_at(b.range, "'" + std::string(e.text()) + "' reduces numbers, found " + describe(b, body));
  return body;
}

// A score modifier used where a value is expected applies to the current score.
Type Checker::as_value(const Type& t, const Context& c) {
  if (t.kind == TypeKind::Score && c.score_in_scope) return Type::of(TypeKind::Float);
  return t;
}

Type Checker::check_name(Expr& e, Context& c, bool as_callee) {
  const std::string n(e.text());
  for (auto it = c.locals.rbegin(); it != c.locals.rend(); ++it)
    if (it->name == n) {
      e.ref.kind = SymbolRef::Local;
      e.ref.local = it->binding;
      return it->binding->type;
    }
  if (c.decl)
    for (const Param& p : c.decl->params)
      if (p.name == n) {
        e.ref.kind = SymbolRef::Param;
        e.ref.param = &p;
        return p.type;
      }
  for (int i = 0; i < kNumIndexVars; ++i)
    if (n == kIndexNames[i]) {
      e.ref.kind = SymbolRef::Index;
      e.ref.index = static_cast<IndexVar>(i);
      return Type::of(TypeKind::Int);
    }
  if (c.in_bound && c.decl)
    for (const Param& p : c.decl->params)
      if (p.type.kind == TypeKind::Tensor)
        for (size_t i = 0; i < p.type.dims().size(); ++i)
          if (p.type.dims()[i] == n) {
            e.ref.kind = SymbolRef::Extent;
            e.ref.param = &p;
            e.ref.dim = static_cast<int>(i);
            return Type::of(TypeKind::Int);
          }
  if (n == "score") {
    if (!c.score_in_scope) return error_at(e.range, "'score' is only in scope in score modifiers");
    e.ref.kind = SymbolRef::Score;
    return Type::of(TypeKind::Float);
  }
  if (const Decl* d = lookup_decl(n, e.range, true)) {
    e.ref.kind = SymbolRef::Decl;
    e.ref.decl = d;
    if (current_) {
      auto& used = uses_[current_];
      if (std::find(used.begin(), used.end(), d) == used.end()) used.push_back(d);
    }
    uses_at_[{current_, d}] = e.range;
    if (as_callee) return Type::of(TypeKind::Error);  // the call computes the type
    switch (d->kind) {
      case DeclKind::Mask:
      case DeclKind::Score: {
        if (!d->params.empty())
          return error_at(e.range, std::string(d->kind == DeclKind::Mask ? "mask '" : "score modifier '") +
                                       n + "' takes " + count(d->params.size(), "argument") +
                                       "; call it as " + n + "(...)");
        return Type::of(d->kind == DeclKind::Mask ? TypeKind::Mask : TypeKind::Score);
      }
      case DeclKind::Fn: return error_at(e.range, "fn '" + n + "' must be called");
      case DeclKind::Kernel:
        return error_at(e.range, "'" + n + "' is a kernel and cannot be used in an expression");
    }
  }
  if (find_builtin(n)) {
    e.ref.kind = SymbolRef::Builtin;
    if (as_callee) return Type::of(TypeKind::Error);
    return error_at(e.range, "builtin '" + n + "' must be called");
  }
  if (kernel_names_[module_].count(n))
    return error_at(e.range, "'" + n + "' is a kernel and cannot be used in an expression");
  if (c.in_bound) {
    // A bound names a constant, an int parameter or a dimension of a tensor parameter.
    std::vector<std::string> dims;
    if (c.decl)
      for (const Param& p : c.decl->params)
        if (p.type.kind == TypeKind::Tensor)
          for (const std::string& dim : p.type.dims()) dims.push_back(dim);
    Diagnostic& d = diags_.error(e.range, "unknown name '" + n +
                                              "' in a reduction bound: a bound is a constant, an int "
                                              "parameter or the name of a tensor parameter's dimension");
    for (const std::string& v : visible_names(c)) dims.push_back(v);
    suggest(d, e.range, n, dims);
    return Type::error();
  }
  Diagnostic& d = diags_.error(e.range, "unknown name '" + n + "'");
  if (std::string module = stdlib_module_defining(n); !module.empty())
    suggest_import(d, module);
  else if (const char* index = index_alias(n))
    offer(d, e.range, index);
  else
    suggest(d, e.range, n, visible_names(c));
  return Type::error();
}

Type Checker::check_binary(Expr& e, Context& c) {
  Type a = as_value(check(*e.operands()[0], c), c), b = as_value(check(*e.operands()[1], c), c);
  if (a.is_error() || b.is_error()) return Type::error();
  std::string_view op = e.text();
  auto bad = [&](const char* expected) {
    const Expr& culprit =
        *e.operands()[(op == "&&" || op == "||") ? (boolish(a) ? 1 : 0) : (a.is_numeric() ? 1 : 0)];
    const Type& t = &culprit == e.operands()[0].get() ? a : b;
    return error_at(culprit.range, "operator '" + std::string(op) + "' expects " + expected + ", found " +
                                       describe(culprit, t));
  };
  if (is_bit_operator(op)) return check_bit_operator(e, a, b);
  if (op == "&&" || op == "||") {
    if (!boolish(a) || !boolish(b)) return bad("booleans");
    return Type::of(TypeKind::Bool);
  }
  if (op == "==" || op == "!=") {
    if (a.is_numeric() && b.is_numeric()) return Type::of(TypeKind::Bool);
    if (boolish(a) && boolish(b)) return Type::of(TypeKind::Bool);
    if (const Expr* bit = loose_bit_operator(e)) return misplaced_bit_operator(*bit);
    return error_at(e.range, "cannot compare " + describe(*e.operands()[0], a) + " with " +
                                 describe(*e.operands()[1], b));
  }
  if (!a.is_numeric() || !b.is_numeric()) {
    if (const Expr* bit = is_comparison(op) ? loose_bit_operator(e) : nullptr)
      return misplaced_bit_operator(*bit);
    return bad("numbers");
  }
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return Type::of(TypeKind::Bool);
  if (op == "/") return Type::of(TypeKind::Float);
  return numeric_join(a, b);
}

bool Checker::is_bit_operator(std::string_view op) {
  return op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
}

// Bit operators take ints. `&` and `|` between booleans are a slip for `&&` and `||`: the error
// offers that fix. A constant shift count must be 0..31 (a run-time one is taken modulo 32).
Type Checker::check_bit_operator(Expr& e, const Type& a, const Type& b) {
  std::string_view op = e.text();
  if ((op == "&" || op == "|") && boolish(a) && boolish(b)) {
    std::string logical(op);
    logical += op;
    SourceRange at = operator_range(e);
    Diagnostic& d = diags_.error(
        at, "operator '" + std::string(op) + "' is for ints; did you mean '" + logical + "' (booleans)?");
    d.fixes.push_back({at, logical});
    return Type::error();
  }
  for (int i = 0; i < 2; ++i) {
    const Type& t = i == 0 ? a : b;
    if (t.kind != TypeKind::Int)
      return error_at(e.operands()[i]->range, "operator '" + std::string(op) + "' expects ints, found " +
                                                  describe(*e.operands()[i], t));
  }
  std::optional<int32_t> count = folded(*e.operands()[1]);
  if ((op == "<<" || op == ">>") && count && (*count < 0 || *count > 31))
    return error_at(e.operands()[1]->range,
                    "shift count " + std::to_string(*count) + " is out of range 0..31");
  return Type::of(TypeKind::Int);
}

bool Checker::is_comparison(std::string_view op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
}

// An unparenthesized `&` or `|` directly under a chain of comparisons: `q >= kv & kv > 0` is
// `q >= (kv & kv) > 0`, as in Python, and was surely meant as `&&`.
const Expr* Checker::loose_bit_operator(const Expr& cmp) {
  for (const auto& o : cmp.operands()) {
    if (o->kind != ExprKind::Binary) continue;
    if (o->text() == "&" || o->text() == "|") return o.get();
    if (is_comparison(o->text()))
      if (const Expr* inner = loose_bit_operator(*o)) return inner;
  }
  return nullptr;
}

Type Checker::misplaced_bit_operator(const Expr& bit) {
  std::string logical(bit.text());
  logical += bit.text();
  SourceRange at = operator_range(bit);
  Diagnostic& d = diags_.error(at, "'" + std::string(bit.text()) +
                                       "' binds tighter than comparisons; did you mean '" + logical + "'?");
  d.fixes.push_back({at, logical});
  return Type::error();
}

// Where a binary operator's token is: the first occurrence of its spelling between the operands.
SourceRange Checker::operator_range(const Expr& e) const {
  const std::string& text = program_.sources.text(e.range.file);
  uint32_t from = e.operands()[0]->range.end, to = e.operands()[1]->range.begin;
  size_t at = text.find(e.text(), from);
  if (at == std::string::npos || at >= to) return e.range;
  return {e.range.file, static_cast<uint32_t>(at), static_cast<uint32_t>(at + e.text().size())};
}

Type Checker::check_index(Expr& e, Context& c) {
  Expr& base = *e.operands()[0];
  Type bt = base.kind == ExprKind::Name ? check(base, c) : Type::error();
  if (base.kind != ExprKind::Name) return error_at(base.range, "only a tensor parameter can be indexed");
  bool ok = true;
  for (size_t i = 1; i < e.operands().size(); ++i) {
    Type it = check(*e.operands()[i], c);
    if (!it.is_error() && it.kind != TypeKind::Int) {
      error_at(e.operands()[i]->range,
               "tensor index must be an int, found " + describe(*e.operands()[i], it));
      ok = false;
    }
  }
  if (bt.is_error()) return bt;
  if (bt.kind != TypeKind::Tensor)
    return error_at(base.range,
                    "'" + std::string(base.text()) + "' is not a tensor; it is " + describe(base, bt));
  size_t n = e.operands().size() - 1;
  if (n != bt.dims().size())
    return error_at(e.range, "tensor '" + std::string(base.text()) + "' has " +
                                 count(bt.dims().size(), "dimension") + " but is indexed with " +
                                 std::to_string(n));
  if (!ok) return Type::error();
  switch (bt.elem()) {
    case ElemType::I32: return Type::of(TypeKind::Int);
    case ElemType::F32: return Type::of(TypeKind::Float);
    case ElemType::Bool: return Type::of(TypeKind::Bool);
  }
  return Type::error();
}

}  // namespace attn::sema
