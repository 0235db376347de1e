// Sema: declarations (parameters, bodies, tuple returns) and kernel options.
#include "frontend/SemaChecker.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "frontend/InlineDepth.h"
#include "frontend/IntFold.h"
#include "frontend/StdlibNames.h"

namespace attn::sema {

void Checker::check_params(const Decl& d) {
  std::map<std::string, const Param*> seen;
  for (const Param& p : d.params) {
    if (is_index_name(p.name) || p.name == "score")
      diags_.error(p.name_range, "'" + p.name + "' is " +
                                     (p.name == "score" ? "the score variable" : "an index variable") +
                                     " and cannot be a parameter name");
    auto [it, inserted] = seen.emplace(p.name, &p);
    if (!inserted) {
      Diagnostic& diag = diags_.error(p.name_range, "duplicate parameter '" + p.name + "'");
      add_note(diag, it->second->name_range, "previous parameter is here");
    }
    if (d.kind == DeclKind::Kernel && (p.type.kind == TypeKind::Mask || p.type.kind == TypeKind::Score))
      diags_.error(p.range, "kernel parameters are run-time arguments; '" + p.name + "' cannot be of type " +
                                type_name(p.type));
    if (d.kind == DeclKind::Fn && (p.type.kind == TypeKind::Mask || p.type.kind == TypeKind::Score))
      diags_.error(p.range, "fn parameters are values; '" + p.name + "' cannot be of type " +
                                type_name(p.type) + " (use a mask or score definition)");
  }
}

void Checker::check_decl(Decl& d) {
  current_ = &d;
  check_params(d);
  Context c;
  c.decl = &d;
  switch (d.kind) {
    case DeclKind::Mask: {
      Type t = check(*d.body, c);
      if (!t.is_error() && !boolish(t))
        diags_.error(d.body->range,
                     "mask '" + d.name + "' must be a boolean expression, found " + describe(*d.body, t));
      break;
    }
    case DeclKind::Score: {
      c.score_in_scope = true;
      Type t = check(*d.body, c);
      if (!t.is_error() && !t.is_numeric() && t.kind != TypeKind::Score)
        diags_.error(d.body->range, "score modifier '" + d.name + "' must be a float expression, found " +
                                        describe(*d.body, t));
      break;
    }
    case DeclKind::Fn: {
      if (d.result.kind == TypeKind::Tuple) {
        check_tuple_body(*d.body, c, d);
        break;
      }
      if (!d.result.is_scalar()) {
        diags_.error(d.range, "fn '" + d.name + "' must return bool, int or float");
        break;
      }
      Type t = check(*d.body, c);
      if (!t.is_error() && !assignable(t, d.result))
        diags_.error(d.body->range, "fn '" + d.name + "' returns " + type_name(d.result) +
                                        " but its body is " + describe(*d.body, t));
      break;
    }
    case DeclKind::Kernel: check_kernel(d); break;
  }
  current_ = nullptr;
}

// The body of an fn returning several values: a tuple of that arity, possibly under lets.
void Checker::check_tuple_body(Expr& body, Context& c, const Decl& d) {
  for (TypeKind k : d.result.elements())
    if (k != TypeKind::Int && k != TypeKind::Float && k != TypeKind::Bool) {
      diags_.error(d.range, "fn '" + d.name + "' must return bool, int or float values");
      return;
    }
  if (body.kind == ExprKind::Paren && body.operands()[0]->kind == ExprKind::Tuple) {
    check_tuple_body(*body.operands()[0], c, d);
    body.type = body.operands()[0]->type;
    return;
  }
  if (body.kind == ExprKind::Let) {
    size_t mark = c.locals.size();
    check_let_bindings(body, c);
    check_tuple_body(*body.operands()[0], c, d);
    c.locals.resize(mark);
    body.type = body.operands()[0]->type;
    return;
  }
  if (body.kind != ExprKind::Tuple) {
    Type t = check(body, c);
    if (!t.is_error())
      diags_.error(body.range, "fn '" + d.name + "' returns " + type_name(d.result) + " but its body is " +
                                   describe(body, t) + "; write the values as (a, b)");
    return;
  }
  bool ok = true;
  for (auto& x : body.operands()) {
    Type t = check(*x, c);
    ok = ok && !t.is_error();
  }
  if (!ok) return;
  if (body.operands().size() != d.result.elements().size()) {
    diags_.error(body.range, "fn '" + d.name + "' returns " + count(d.result.elements().size(), "value") +
                                 " but its body has " + std::to_string(body.operands().size()));
    return;
  }
  for (size_t i = 0; i < body.operands().size(); ++i) {
    const Expr& x = *body.operands()[i];
    if (!assignable(as_value(x.type, c), Type::of(d.result.elements()[i])))
      diags_.error(x.range, "value " + std::to_string(i + 1) + " of fn '" + d.name + "' is declared " +
                                type_name(Type::of(d.result.elements()[i])) + " but is " +
                                describe(x, x.type));
  }
  body.type = d.result;
}

bool Checker::assignable(const Type& from, const Type& to) {
  switch (to.kind) {
    case TypeKind::Int: return from.kind == TypeKind::Int;
    case TypeKind::Float: return from.is_numeric();
    case TypeKind::Bool: return boolish(from);
    case TypeKind::Mask: return boolish(from);
    case TypeKind::Score: return from.kind == TypeKind::Score || from.is_numeric();
    case TypeKind::Tensor:
      return from.kind == TypeKind::Tensor && from.elem() == to.elem() &&
             from.dims().size() == to.dims().size();
    case TypeKind::Tuple: return false;
    case TypeKind::Error: return true;
  }
  return false;
}

void Checker::check_kernel(Decl& k) {
  std::map<std::string, const KernelItem*> seen;
  for (KernelItem& item : k.items) {
    auto [it, inserted] = seen.emplace(item.key, &item);
    if (!inserted) {
      Diagnostic& d = diags_.error(item.key_range, "kernel option '" + item.key + "' is set twice");
      add_note(d, it->second->key_range, "first set here");
      continue;
    }
    const std::string& key = item.key;
    const KernelOptionInfo* option = find_kernel_option(key);
    Expr& v = *item.value;
    if (v.kind == ExprKind::List && (!option || option->option != KernelOption::Block)) {
      diags_.error(v.range, "kernel option '" + key + "' does not take a list");
      continue;
    }
    if (!option) {
      std::vector<std::string> keys;
      for (const KernelOptionInfo& o : kernel_options()) keys.push_back(o.key);
      Diagnostic& d = diags_.error(item.key_range, "unknown kernel option '" + key + "'");
      suggest(d, item.key_range, key, keys);
      continue;
    }
    check_kernel_option(k, option->option, key, v);
  }
  // FP8 kernels have no backward (as FlashAttention 3's): training takes bf16 inputs.
  auto dtype = seen.find("dtype"), backward = seen.find("backward");
  if (dtype != seen.end() && backward != seen.end() && backward->second->value->kind == ExprKind::BoolLit &&
      backward->second->value->bool_value && dtype->second->value->kind == ExprKind::Name &&
      (dtype->second->value->text() == "e4m3" || dtype->second->value->text() == "e5m2")) {
    Diagnostic& d = diags_.error(backward->second->value->range,
                                 "an fp8 kernel (dtype = " + std::string(dtype->second->value->text()) +
                                     ") has no backward pass: compile a bf16 copy of it for training");
    add_note(d, dtype->second->key_range, "dtype set here");
  }
}

// The value `v` of kernel option `option` (spelt `key`) of kernel `k`.
void Checker::check_kernel_option(Decl& k, KernelOption option, const std::string& key, Expr& v) {
  Context c;
  c.decl = &k;
  switch (option) {
    case KernelOption::Mask: {
      Type t = check(v, c);
      if (!t.is_error() && !boolish(t))
        diags_.error(v.range, "kernel option 'mask' expects a mask, found " + describe(v, t));
      return;
    }
    case KernelOption::Score: {
      c.score_in_scope = true;
      Type t = check(v, c);
      if (!t.is_error() && t.kind != TypeKind::Score && !t.is_numeric())
        diags_.error(v.range, "kernel option 'score' expects a score modifier, found " + describe(v, t));
      return;
    }
    case KernelOption::DType:
      if (v.kind != ExprKind::Name || (v.text() != "f32" && v.text() != "f16" && v.text() != "bf16" &&
                                       v.text() != "e4m3" && v.text() != "e5m2"))
        diags_.error(v.range, "dtype must be f32, f16, bf16, e4m3 or e5m2");
      return;
    case KernelOption::HeadDim:
    case KernelOption::ValueDim: {
      auto value = constant_value(v);
      if (!value || *value != std::floor(*value) || *value < 1 || *value > 1024)
        diags_.error(v.range, key + " must be an integer constant between 1 and 1024");
      return;
    }
    case KernelOption::Scale: {
      auto value = constant_value(v);
      if (!value || !std::isfinite(*value)) diags_.error(v.range, "scale must be a finite constant");
      return;
    }
    case KernelOption::Sink: {
      Type t = check(v, c);
      if (!t.is_error() && !t.is_numeric())
        diags_.error(v.range,
                     "kernel option 'sink' expects an f32 expression of b, h, q, q_len and kv_len, found " +
                         describe(v, t));
      return;
    }
    case KernelOption::Lse:
    case KernelOption::ReturnMax:
    case KernelOption::Backward:
      if (v.kind != ExprKind::BoolLit) diags_.error(v.range, key + " must be true or false");
      return;
    case KernelOption::Block: {
      std::vector<const Expr*> parts;
      if (v.kind == ExprKind::List)
        for (auto& o : v.operands()) parts.push_back(o.get());
      else
        parts.push_back(&v);
      bool good = parts.size() == 1 || parts.size() == 2;
      for (const Expr* p : parts) {
        auto value = constant_value(*p);
        good = good && value && *value == std::floor(*value) && *value >= 1 && *value <= 1024;
      }
      if (!good)
        diags_.error(v.range, "block must be an integer or a list [block_q, block_kv] of integers 1..1024");
      return;
    }
  }
}

}  // namespace attn::sema
