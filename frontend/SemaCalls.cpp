// Sema: calls of builtins, definitions, parameters and closures, and their arguments.
#include "frontend/SemaChecker.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "frontend/InlineDepth.h"
#include "frontend/IntFold.h"
#include "frontend/StdlibNames.h"

namespace attn::sema {

std::string Checker::count(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

Type Checker::check_call(Expr& e, Context& c) {
  Expr& callee = *e.operands()[0];
  if (callee.kind != ExprKind::Name) {
    for (Argument& a : e.args) check(*a.value, c);
    return error_at(callee.range, "only named definitions can be called");
  }
  check_name(callee, c, /*as_callee=*/true);
  const SymbolRef& r = callee.ref;
  if (r.kind == SymbolRef::None) {
    for (Argument& a : e.args) check(*a.value, c);
    return Type::error();
  }
  if (r.kind == SymbolRef::Builtin) return check_builtin_call(e, c);
  if (r.kind == SymbolRef::Decl && r.decl->kind != DeclKind::Kernel) return check_decl_call(e, *r.decl, c);
  if (r.kind == SymbolRef::Param &&
      (r.param->type.kind == TypeKind::Mask || r.param->type.kind == TypeKind::Score)) {
    bool is_score = r.param->type.kind == TypeKind::Score;
    for (Argument& a : e.args) {
      Type t = check(*a.value, c);
      if (a.name.empty()) {
        error_at(a.value->range, std::string(is_score ? "score" : "mask") + " parameter '" +
                                     std::string(callee.text()) +
                                     "' takes only named index arguments (q = ..., kv = ...)");
      } else if (is_index_name(a.name)) {
        if (!t.is_error() && t.kind != TypeKind::Int)
          error_at(a.value->range,
                   "index argument '" + a.name + "' must be an int, found " + describe(*a.value, t));
      } else if (is_score && a.name == "score") {
        if (!t.is_error() && !t.is_numeric())
          error_at(a.value->range, "'score' must be a float, found " + describe(*a.value, t));
      } else {
        error_at(a.name_range, "unknown argument '" + a.name + "': a " + (is_score ? "score" : "mask") +
                                   " parameter takes only b, h, q, kv" + (is_score ? ", score" : ""));
      }
    }
    return Type::of(is_score ? TypeKind::Score : TypeKind::Mask);
  }
  for (Argument& a : e.args) check(*a.value, c);
  std::string what = r.kind == SymbolRef::Decl ? "kernel" : "a value of type " + type_name(callee.type);
  if (r.kind == SymbolRef::Param) what = type_name(r.param->type) + " parameter";
  if (r.kind == SymbolRef::Local) what = "a local value";
  if (r.kind == SymbolRef::Index) what = "an index variable";
  if (r.kind == SymbolRef::Score) what = "the score variable";
  if (r.kind == SymbolRef::Extent) what = "a dimension of tensor '" + r.param->name + "'";
  return error_at(callee.range, "'" + std::string(callee.text()) + "' is " + what + " and cannot be called");
}

Type Checker::check_builtin_call(Expr& e, Context& c) {
  const BuiltinInfo* info = find_builtin(e.operands()[0]->text());
  std::vector<Type> types;
  bool err = false;
  for (Argument& a : e.args) {
    Type t = as_value(check(*a.value, c), c);
    if (!a.name.empty()) {
      error_at(a.name_range, std::string("builtin '") + info->name + "' takes no named arguments");
      err = true;
    }
    if (!t.is_error() && !t.is_numeric() && !(info->takes_bool && t.kind == TypeKind::Bool)) {
      error_at(a.value->range,
               std::string("builtin '") + info->name + "' expects a number, found " + describe(*a.value, t));
      err = true;
    }
    err = err || t.is_error();
    types.push_back(t);
  }
  int n = static_cast<int>(e.args.size());
  if (n < info->min_args || n > info->max_args)
    return error_at(e.range, std::string("builtin '") + info->name + "' takes " +
                                 count(info->min_args, "argument") + ", got " + std::to_string(n));
  if (err) return Type::error();
  switch (info->result) {
    case BuiltinResult::Float: return Type::of(TypeKind::Float);
    case BuiltinResult::Int: return Type::of(TypeKind::Int);
    case BuiltinResult::First: return types[0];
    case BuiltinResult::Join: {
      Type t = types[0];
      for (size_t i = 1; i < types.size(); ++i) t = numeric_join(t, types[i]);
      return t;
    }
  }
  return Type::error();
}

Type Checker::check_decl_call(Expr& e, const Decl& d, Context& c) {
  std::string what = std::string(d.kind == DeclKind::Mask    ? "mask"
                                 : d.kind == DeclKind::Score ? "score modifier"
                                                             : "fn") +
                     " '" + d.name + "'";
  std::vector<const Argument*> bound(d.params.size(), nullptr);
  std::set<std::string> overrides;
  size_t positional = 0;
  bool seen_named = false, err = false;
  for (Argument& a : e.args) {
    Type t = check(*a.value, c);
    if (a.name.empty()) {
      if (seen_named) {
        err = true;
        error_at(a.value->range, "positional argument after a named argument");
        continue;
      }
      if (positional >= d.params.size()) {
        err = true;
        error_at(a.value->range,
                 "too many arguments to " + what + ": expected " + std::to_string(d.params.size()) +
                     ", got " +
                     std::to_string(std::count_if(e.args.begin(), e.args.end(),
                                                  [](const Argument& x) { return x.name.empty(); })));
        break;
      }
      bound[positional] = &a;
      check_argument(a, t, d.params[positional], what, err);
      ++positional;
      continue;
    }
    seen_named = true;
    if (is_index_name(a.name) || (a.name == "score" && d.kind == DeclKind::Score)) {
      if (!overrides.insert(a.name).second) {
        err = true;
        error_at(a.name_range, "argument '" + a.name + "' given twice");
      } else if (!t.is_error() && (a.name == "score" ? !t.is_numeric() : t.kind != TypeKind::Int)) {
        err = true;
        error_at(a.value->range, "index argument '" + a.name + "' must be " +
                                     (a.name == "score" ? "a float" : "an int") + ", found " +
                                     describe(*a.value, t));
      }
      continue;
    }
    auto it =
        std::find_if(d.params.begin(), d.params.end(), [&](const Param& p) { return p.name == a.name; });
    if (it == d.params.end()) {
      err = true;
      std::vector<std::string> names;
      for (const Param& p : d.params) names.push_back(p.name);
      for (const char* i : kIndexNames) names.push_back(i);
      Diagnostic& diag = diags_.error(a.name_range, what + " has no parameter named '" + a.name + "'");
      suggest(diag, a.name_range, a.name, names);
      continue;
    }
    size_t idx = static_cast<size_t>(it - d.params.begin());
    if (bound[idx]) {
      err = true;
      error_at(a.name_range, "argument '" + a.name + "' given twice");
      continue;
    }
    bound[idx] = &a;
    check_argument(a, t, *it, what, err);
  }
  for (size_t i = 0; i < d.params.size(); ++i)
    if (!bound[i] && !err) {
      Diagnostic& diag =
          diags_.error(e.range, "missing argument '" + d.params[i].name + "' in call to " + what);
      add_note(diag, d.params[i].range, "parameter declared here");
      err = true;
    }
  if (err) return Type::error();
  if (d.kind == DeclKind::Mask) return Type::of(TypeKind::Mask);
  if (d.kind == DeclKind::Score) return Type::of(TypeKind::Score);
  return d.result;
}

void Checker::check_argument(const Argument& a, const Type& t, const Param& p, const std::string& what,
                             bool& err) {
  if (t.is_error()) {
    err = true;
    return;
  }
  bool ok = assignable(t, p.type);
  if (p.type.kind == TypeKind::Tensor && ok) {
    // Tensors are run-time buffers: they are passed by name, never computed.
    const Expr* x = a.value.get();
    while (x->kind == ExprKind::Paren) x = x->operands()[0].get();
    ok = x->kind == ExprKind::Name;
  }
  if (!ok) {
    err = true;
    diags_.error(a.value->range, "argument '" + p.name + "' of " + what + " expects " +
                                     (p.type.kind == TypeKind::Mask    ? "a mask"
                                      : p.type.kind == TypeKind::Score ? "a score modifier"
                                                                       : type_name(p.type)) +
                                     ", found " + describe(*a.value, t));
  }
}

}  // namespace attn::sema
