// Semantic analysis: scopes and name resolution, types, calls and arguments, kernel options,
// recursion. Every independent error is reported once; an expression already in error yields the
// error type, which no later check complains about again.
#include "frontend/Sema.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "frontend/InlineDepth.h"
#include "frontend/IntFold.h"
#include "frontend/StdlibNames.h"

namespace attn {

bool is_index_name(const std::string& name) {
  return name == "b" || name == "h" || name == "q" || name == "kv";
}

std::optional<double> constant_value(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: return static_cast<double>(e.int_value);
    case ExprKind::FloatLit: return e.float_value;
    case ExprKind::InfLit: return INFINITY;
    case ExprKind::Paren: return constant_value(*e.operands[0]);
    case ExprKind::Unary:
      if (e.text == "-")
        if (auto v = constant_value(*e.operands[0])) return -*v;
      return std::nullopt;
    case ExprKind::Binary: {
      auto a = constant_value(*e.operands[0]), b = constant_value(*e.operands[1]);
      if (!a || !b) return std::nullopt;
      if (e.text == "+") return *a + *b;
      if (e.text == "-") return *a - *b;
      if (e.text == "*") return *a * *b;
      if (e.text == "/") return *b == 0 ? std::nullopt : std::optional<double>(*a / *b);
      if (e.text == "//") return *b == 0 ? std::nullopt : std::optional<double>(std::floor(*a / *b));
      if (e.text == "%") return *b == 0 ? std::nullopt : std::optional<double>(*a - *b * std::floor(*a / *b));
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

namespace {

bool boolish(const Type& t) { return t.kind == TypeKind::Bool || t.kind == TypeKind::Mask; }

Type numeric_join(const Type& a, const Type& b) {
  return Type::of(a.kind == TypeKind::Float || b.kind == TypeKind::Float ? TypeKind::Float : TypeKind::Int);
}

// How a value is described in messages: "mask 'causal'", "score modifier 'softcap'", or its type.
std::string describe(const Expr& e, const Type& t) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Paren) x = x->operands[0].get();
  const Expr* name = x->kind == ExprKind::Call ? x->operands[0].get() : x;
  if (name->kind == ExprKind::Name && name->ref.kind == SymbolRef::Decl) {
    if (name->ref.decl->kind == DeclKind::Mask) return "mask '" + name->text + "'";
    if (name->ref.decl->kind == DeclKind::Score) return "score modifier '" + name->text + "'";
  }
  if (t.kind == TypeKind::Score) return "a score modifier";
  if (t.kind == TypeKind::Mask) return "a mask";
  return type_name(t);
}

class Checker {
 public:
  explicit Checker(Program& p) : program_(p), diags_(p.diags) {}

  void run() {
    for (auto& m : program_.modules) build_module_scope(*m);
    for (auto& m : program_.modules) {
      module_ = m.get();
      for (auto& d : m->decls) check_decl(*d);
    }
    check_recursion();
    check_inline_depth(program_);
  }

 private:
  struct Local {
    std::string name;
    Binding* binding;
  };

  // What is in scope while checking one expression.
  struct Context {
    const Decl* decl = nullptr;
    bool score_in_scope = false;
    bool in_bound = false;  ///< checking a reduction's bound: dimension names are in scope
    std::vector<Local> locals;
  };

  // ---- module scopes ---------------------------------------------------------------------------

  // Kernels and definitions are separate namespaces: a kernel may share a definition's name
  // (`kernel natten { mask = natten(...); }`), and expressions only see definitions.
  void build_module_scope(Module& m) {
    auto& own = own_names_[&m];
    auto& kernels = kernel_names_[&m];
    for (auto& d : m.decls) {
      auto [it, inserted] = (d->kind == DeclKind::Kernel ? kernels : own).emplace(d->name, d.get());
      if (!inserted) {
        Diagnostic& diag = diags_.error(d->name_range, "redefinition of '" + d->name + "'");
        add_note(diag, it->second->name_range, "previous definition is here");
      }
      if (is_index_name(d->name) || d->name == "score")
        diags_.error(d->name_range, "'" + d->name + "' is reserved and cannot name a definition");
    }
  }

  // A top-level name: the module's own definition, else the one imported definition of that name.
  const Decl* lookup_decl(const std::string& name, SourceRange at, bool report_ambiguity) {
    auto& own = own_names_[module_];
    if (auto it = own.find(name); it != own.end()) return it->second;
    std::vector<const Decl*> found;
    for (const Import& imp : module_->imports) {
      if (!imp.target) continue;
      auto& theirs = own_names_[imp.target];
      if (auto it = theirs.find(name); it != theirs.end())
        if (std::find(found.begin(), found.end(), it->second) == found.end()) found.push_back(it->second);
    }
    if (found.size() > 1 && report_ambiguity) {
      Diagnostic& d = diags_.error(at, "'" + name + "' is ambiguous: more than one import defines it");
      for (const Decl* f : found) add_note(d, f->name_range, "defined here");
    }
    return found.empty() ? nullptr : found.front();
  }

  std::vector<std::string> visible_names(const Context& c) {
    std::vector<std::string> names;
    for (const Local& l : c.locals) names.push_back(l.name);
    if (c.decl)
      for (const Param& p : c.decl->params) names.push_back(p.name);
    for (const char* i : kIndexNames) names.push_back(i);
    if (c.score_in_scope) names.push_back("score");
    for (auto& [n, _] : own_names_[module_]) names.push_back(n);
    for (const Import& imp : module_->imports)
      if (imp.target)
        for (auto& [n, d] : own_names_[imp.target]) names.push_back(n);
    for (const BuiltinInfo& b : builtin_functions()) names.push_back(b.name);
    return names;
  }

  // ---- declarations ----------------------------------------------------------------------------

  void check_params(const Decl& d) {
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
        diags_.error(p.range, "kernel parameters are run-time arguments; '" + p.name +
                                  "' cannot be of type " + type_name(p.type));
      if (d.kind == DeclKind::Fn && (p.type.kind == TypeKind::Mask || p.type.kind == TypeKind::Score))
        diags_.error(p.range, "fn parameters are values; '" + p.name + "' cannot be of type " +
                                  type_name(p.type) + " (use a mask or score definition)");
    }
  }

  void check_decl(Decl& d) {
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
  void check_tuple_body(Expr& body, Context& c, const Decl& d) {
    for (TypeKind k : d.result.elements)
      if (k != TypeKind::Int && k != TypeKind::Float && k != TypeKind::Bool) {
        diags_.error(d.range, "fn '" + d.name + "' must return bool, int or float values");
        return;
      }
    if (body.kind == ExprKind::Paren && body.operands[0]->kind == ExprKind::Tuple) {
      check_tuple_body(*body.operands[0], c, d);
      body.type = body.operands[0]->type;
      return;
    }
    if (body.kind == ExprKind::Let) {
      size_t mark = c.locals.size();
      check_let_bindings(body, c);
      check_tuple_body(*body.operands[0], c, d);
      c.locals.resize(mark);
      body.type = body.operands[0]->type;
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
    for (auto& x : body.operands) {
      Type t = check(*x, c);
      ok = ok && !t.is_error();
    }
    if (!ok) return;
    if (body.operands.size() != d.result.elements.size()) {
      diags_.error(body.range, "fn '" + d.name + "' returns " + count(d.result.elements.size(), "value") +
                                   " but its body has " + std::to_string(body.operands.size()));
      return;
    }
    for (size_t i = 0; i < body.operands.size(); ++i) {
      const Expr& x = *body.operands[i];
      if (!assignable(as_value(x.type, c), Type::of(d.result.elements[i])))
        diags_.error(x.range, "value " + std::to_string(i + 1) + " of fn '" + d.name + "' is declared " +
                                  type_name(Type::of(d.result.elements[i])) + " but is " +
                                  describe(x, x.type));
    }
    body.type = d.result;
  }

  static bool assignable(const Type& from, const Type& to) {
    switch (to.kind) {
      case TypeKind::Int: return from.kind == TypeKind::Int;
      case TypeKind::Float: return from.is_numeric();
      case TypeKind::Bool: return boolish(from);
      case TypeKind::Mask: return boolish(from);
      case TypeKind::Score: return from.kind == TypeKind::Score || from.is_numeric();
      case TypeKind::Tensor:
        return from.kind == TypeKind::Tensor && from.elem == to.elem && from.dims.size() == to.dims.size();
      case TypeKind::Tuple: return false;
      case TypeKind::Error: return true;
    }
    return false;
  }

  void check_kernel(Decl& k) {
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
  }

  // The value `v` of kernel option `option` (spelt `key`) of kernel `k`.
  void check_kernel_option(Decl& k, KernelOption option, const std::string& key, Expr& v) {
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
        if (v.kind != ExprKind::Name || (v.text != "f32" && v.text != "f16" && v.text != "bf16"))
          diags_.error(v.range, "dtype must be f32, f16 or bf16");
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
      case KernelOption::Lse:
      case KernelOption::Backward:
        if (v.kind != ExprKind::BoolLit) diags_.error(v.range, key + " must be true or false");
        return;
      case KernelOption::Block: {
        std::vector<const Expr*> parts;
        if (v.kind == ExprKind::List)
          for (auto& o : v.operands) parts.push_back(o.get());
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

  void suggest(Diagnostic& d, SourceRange at, const std::string& name,
               const std::vector<std::string>& candidates) {
    std::string guess = closest_name(name, candidates);
    if (!guess.empty()) offer(d, at, guess);
  }

  static void offer(Diagnostic& d, SourceRange at, const std::string& replacement) {
    d.message += "; did you mean '" + replacement + "'?";
    d.fixes.push_back({at, replacement});
  }

  // The fix inserts the import after the module's last import, or at the top of the file.
  void suggest_import(Diagnostic& d, const std::string& module) {
    std::string line = "import " + module + ";";
    d.message += "; it is defined in " + module + ": add '" + line + "'";
    if (module_->imports.empty()) {
      d.fixes.push_back({{module_->file, 0, 0}, line + "\n"});
    } else {
      uint32_t end = module_->imports.back().range.end;
      d.fixes.push_back({{module_->file, end, end}, "\n" + line});
    }
  }

  // FlexAttention's names for the index variables, which users bring along.
  static const char* index_alias(const std::string& name) {
    static constexpr std::pair<const char*, const char*> kAliases[] = {
        {"q_idx", "q"}, {"kv_idx", "kv"}, {"batch", "b"}, {"head", "h"}};
    for (auto [alias, index] : kAliases)
      if (name == alias) return index;
    return nullptr;
  }

  // ---- expressions -----------------------------------------------------------------------------

  Type check(Expr& e, Context& c) {
    e.type = check_impl(e, c);
    if (e.type.kind == TypeKind::Int) fold(e);
    return e.type;
  }

  // Folds an int expression of constants (literals, and `let` names bound to them), so that an
  // overflow is an error here rather than at run time.
  void fold(Expr& e) {
    auto value = [](const Expr& x) -> std::optional<int64_t> {
      if (x.type.kind != TypeKind::Int) return std::nullopt;
      return x.folded;
    };
    e.folded.reset();
    std::optional<int64_t> a, b;
    std::string op;
    switch (e.kind) {
      case ExprKind::IntLit: e.folded = e.int_value; return;
      case ExprKind::Paren: e.folded = value(*e.operands[0]); return;
      case ExprKind::Name:
        if (e.ref.kind == SymbolRef::Local && e.ref.local->value && !e.ref.local->is_reduction_var)
          e.folded = value(*e.ref.local->value);
        return;
      case ExprKind::Unary:
        if (e.text == "~") {
          if (auto x = value(*e.operands[0])) e.folded = ~*x;
          return;
        }
        if (e.text != "-" || !(b = value(*e.operands[0]))) return;
        a = 0;
        break;
      case ExprKind::Binary:
        a = value(*e.operands[0]);
        b = value(*e.operands[1]);
        if (!a || !b) return;
        op = e.text;
        break;
      default: return;
    }
    std::optional<int64_t> r = fold_int(op.empty() ? "-" : op, *a, *b);
    if (!r) return;
    if (!fits_i32(*r)) {
      diags_.error(e.range, int_overflow_message(op, *a, *b, *r));
      return;
    }
    e.folded = r;
  }

  Type error_at(SourceRange r, std::string msg) {
    diags_.error(r, std::move(msg));
    return Type::error();
  }

  Type check_impl(Expr& e, Context& c) {
    switch (e.kind) {
      case ExprKind::IntLit: return Type::of(TypeKind::Int);
      case ExprKind::FloatLit:
      case ExprKind::InfLit: return Type::of(TypeKind::Float);
      case ExprKind::BoolLit: return Type::of(TypeKind::Bool);
      case ExprKind::Paren: return check(*e.operands[0], c);
      case ExprKind::Name: return check_name(e, c, /*as_callee=*/false);
      case ExprKind::Unary: {
        Type t = check(*e.operands[0], c);
        if (t.is_error()) return t;
        if (e.text == "!") {
          if (!boolish(t))
            return error_at(e.operands[0]->range,
                            "operator '!' expects a boolean, found " + describe(*e.operands[0], t));
          return Type::of(TypeKind::Bool);
        }
        if (e.text == "~") {
          if (t.kind != TypeKind::Int)
            return error_at(e.operands[0]->range,
                            "operator '~' expects an int, found " + describe(*e.operands[0], t));
          return t;
        }
        if (!t.is_numeric())
          return error_at(e.operands[0]->range,
                          "operator '-' expects a number, found " + describe(*e.operands[0], t));
        return t;
      }
      case ExprKind::Binary: return check_binary(e, c);
      case ExprKind::Pipe: {
        Type a = check(*e.operands[0], c), b = check(*e.operands[1], c);
        if (a.is_error() || b.is_error()) return Type::error();
        for (int i = 0; i < 2; ++i) {
          const Type& t = i == 0 ? a : b;
          if (t.kind != TypeKind::Score)
            return error_at(e.operands[i]->range,
                            "'|>' composes score modifiers; found " + describe(*e.operands[i], t));
        }
        return Type::of(TypeKind::Score);
      }
      case ExprKind::Cond: {
        Type cond = check(*e.operands[0], c);
        Type a = check(*e.operands[1], c), b = check(*e.operands[2], c);
        if (!cond.is_error() && !boolish(cond))
          error_at(e.operands[0]->range,
                   "condition must be a boolean, found " + describe(*e.operands[0], cond));
        if (a.is_error() || b.is_error() || cond.is_error()) return Type::error();
        a = as_value(a, c);
        b = as_value(b, c);
        if (a.is_numeric() && b.is_numeric()) return numeric_join(a, b);
        if (boolish(a) && boolish(b)) return Type::of(TypeKind::Bool);
        return error_at(e.range, "the branches of '?:' have different types: " + describe(*e.operands[1], a) +
                                     " and " + describe(*e.operands[2], b));
      }
      case ExprKind::Index: return check_index(e, c);
      case ExprKind::Call: return check_call(e, c);
      case ExprKind::Let: {
        size_t mark = c.locals.size();
        check_let_bindings(e, c);
        Type t = check(*e.operands[0], c);
        c.locals.resize(mark);
        return t;
      }
      case ExprKind::List: return error_at(e.range, "a list is only allowed as a kernel option value");
      case ExprKind::Reduce: return check_reduce(e, c);
      case ExprKind::Tuple:
        for (auto& x : e.operands) check(*x, c);
        return error_at(e.range,
                        "a tuple of values is only allowed as the body of an fn that returns several "
                        "values, e.g. fn xy(p: int) -> (int, int) = (p % w, p // w);");
    }
    return Type::error();
  }

  // The bindings of a `let`, each in scope for the next; the caller pops them.
  void check_let_bindings(Expr& e, Context& c) {
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
        diags_.error(b.value->range, "this is " + count(b.type.elements.size(), "value") + " of type " +
                                         type_name(b.type) + "; bind them with let (" + b.name +
                                         ", ...) = ...");
        b.type = Type::error();
      }
      c.locals.push_back({b.name, &b});
    }
  }

  // `(x, y) = e`: e returns as many values as there are names; each name gets its value's type.
  void check_tuple_binding(Binding& b, Context& c) {
    for (Binding& x : b.elements) {
      if (is_index_name(x.name) || x.name == "score")
        diags_.error(x.name_range, "'" + x.name + "' cannot be rebound with let");
      x.type = Type::error();
    }
    if (!b.type.is_error()) {
      if (b.type.kind != TypeKind::Tuple) {
        diags_.error(b.value->range, "let binds " + count(b.elements.size(), "name") + " but this is " +
                                         describe(*b.value, b.type) + ", a single value");
      } else if (b.type.elements.size() != b.elements.size()) {
        diags_.error(b.name_range, "let binds " + count(b.elements.size(), "name") + " but its value gives " +
                                       count(b.type.elements.size(), "value") + ", of types " +
                                       type_name(b.type));
      } else {
        for (size_t i = 0; i < b.elements.size(); ++i) b.elements[i].type = Type::of(b.type.elements[i]);
      }
    }
    for (Binding& x : b.elements) c.locals.push_back({x.name, &x});
  }

  // `op(j < n: body)`: n an int that the parameters, constants and buffer extents give; j an int
  // in scope in the body.
  Type check_reduce(Expr& e, Context& c) {
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
    Type body = as_value(check(*e.operands[0], c), c);
    c.locals.pop_back();
    if (body.is_error() || bound.is_error()) return Type::error();
    const Expr& b = *e.operands[0];
    if (e.text == "any" || e.text == "all") {
      if (!boolish(body))
        return error_at(b.range, "'" + e.text + "' reduces booleans, found " + describe(b, body));
      return Type::of(TypeKind::Bool);
    }
    if (!body.is_numeric())
      return error_at(b.range, "'" + e.text + "' reduces numbers, found " + describe(b, body));
    return body;
  }

  // A score modifier used where a value is expected applies to the current score.
  Type as_value(const Type& t, const Context& c) {
    if (t.kind == TypeKind::Score && c.score_in_scope) return Type::of(TypeKind::Float);
    return t;
  }

  Type check_name(Expr& e, Context& c, bool as_callee) {
    const std::string& n = e.text;
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
          e.ref.owner = c.decl;
          return p.type;
        }
    for (int i = 0; i < 4; ++i)
      if (n == kIndexNames[i]) {
        e.ref.kind = SymbolRef::Index;
        e.ref.index = static_cast<IndexVar>(i);
        return Type::of(TypeKind::Int);
      }
    if (c.in_bound && c.decl)
      for (const Param& p : c.decl->params)
        if (p.type.kind == TypeKind::Tensor)
          for (size_t i = 0; i < p.type.dims.size(); ++i)
            if (p.type.dims[i] == n) {
              e.ref.kind = SymbolRef::Extent;
              e.ref.param = &p;
              e.ref.owner = c.decl;
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
      e.ref.builtin = n;
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
            for (const std::string& dim : p.type.dims) dims.push_back(dim);
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

  static std::string count(size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  }

  Type check_binary(Expr& e, Context& c) {
    Type a = as_value(check(*e.operands[0], c), c), b = as_value(check(*e.operands[1], c), c);
    if (a.is_error() || b.is_error()) return Type::error();
    const std::string& op = e.text;
    auto bad = [&](const char* expected) {
      const Expr& culprit =
          *e.operands[(op == "&&" || op == "||") ? (boolish(a) ? 1 : 0) : (a.is_numeric() ? 1 : 0)];
      const Type& t = &culprit == e.operands[0].get() ? a : b;
      return error_at(culprit.range,
                      "operator '" + op + "' expects " + expected + ", found " + describe(culprit, t));
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
      return error_at(
          e.range, "cannot compare " + describe(*e.operands[0], a) + " with " + describe(*e.operands[1], b));
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

  static bool is_bit_operator(const std::string& op) {
    return op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
  }

  // Bit operators take ints. `&` and `|` between booleans are a slip for `&&` and `||`: the error
  // offers that fix. A constant shift count must be 0..31 (a run-time one is taken modulo 32).
  Type check_bit_operator(Expr& e, const Type& a, const Type& b) {
    const std::string& op = e.text;
    if ((op == "&" || op == "|") && boolish(a) && boolish(b)) {
      std::string logical = op + op;
      SourceRange at = operator_range(e);
      Diagnostic& d =
          diags_.error(at, "operator '" + op + "' is for ints; did you mean '" + logical + "' (booleans)?");
      d.fixes.push_back({at, logical});
      return Type::error();
    }
    for (int i = 0; i < 2; ++i) {
      const Type& t = i == 0 ? a : b;
      if (t.kind != TypeKind::Int)
        return error_at(e.operands[i]->range,
                        "operator '" + op + "' expects ints, found " + describe(*e.operands[i], t));
    }
    if ((op == "<<" || op == ">>") && e.operands[1]->folded &&
        (*e.operands[1]->folded < 0 || *e.operands[1]->folded > 31))
      return error_at(e.operands[1]->range,
                      "shift count " + std::to_string(*e.operands[1]->folded) + " is out of range 0..31");
    return Type::of(TypeKind::Int);
  }

  static bool is_comparison(const std::string& op) {
    return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=";
  }

  // An unparenthesized `&` or `|` directly under a chain of comparisons: `q >= kv & kv > 0` is
  // `q >= (kv & kv) > 0`, as in Python, and was surely meant as `&&`.
  static const Expr* loose_bit_operator(const Expr& cmp) {
    for (const auto& o : cmp.operands) {
      if (o->kind != ExprKind::Binary) continue;
      if (o->text == "&" || o->text == "|") return o.get();
      if (is_comparison(o->text))
        if (const Expr* inner = loose_bit_operator(*o)) return inner;
    }
    return nullptr;
  }

  Type misplaced_bit_operator(const Expr& bit) {
    std::string logical = bit.text + bit.text;
    SourceRange at = operator_range(bit);
    Diagnostic& d = diags_.error(
        at, "'" + bit.text + "' binds tighter than comparisons; did you mean '" + logical + "'?");
    d.fixes.push_back({at, logical});
    return Type::error();
  }

  // Where a binary operator's token is: the first occurrence of its spelling between the operands.
  SourceRange operator_range(const Expr& e) const {
    const std::string& text = program_.sources.text(e.range.file);
    uint32_t from = e.operands[0]->range.end, to = e.operands[1]->range.begin;
    size_t at = text.find(e.text, from);
    if (at == std::string::npos || at >= to) return e.range;
    return {e.range.file, static_cast<uint32_t>(at), static_cast<uint32_t>(at + e.text.size())};
  }

  Type check_index(Expr& e, Context& c) {
    Expr& base = *e.operands[0];
    Type bt = base.kind == ExprKind::Name ? check(base, c) : Type::error();
    if (base.kind != ExprKind::Name) return error_at(base.range, "only a tensor parameter can be indexed");
    bool ok = true;
    for (size_t i = 1; i < e.operands.size(); ++i) {
      Type it = check(*e.operands[i], c);
      if (!it.is_error() && it.kind != TypeKind::Int) {
        error_at(e.operands[i]->range, "tensor index must be an int, found " + describe(*e.operands[i], it));
        ok = false;
      }
    }
    if (bt.is_error()) return bt;
    if (bt.kind != TypeKind::Tensor)
      return error_at(base.range, "'" + base.text + "' is not a tensor; it is " + describe(base, bt));
    size_t n = e.operands.size() - 1;
    if (n != bt.dims.size())
      return error_at(e.range, "tensor '" + base.text + "' has " + count(bt.dims.size(), "dimension") +
                                   " but is indexed with " + std::to_string(n));
    if (!ok) return Type::error();
    switch (bt.elem) {
      case ElemType::I32: return Type::of(TypeKind::Int);
      case ElemType::F32: return Type::of(TypeKind::Float);
      case ElemType::Bool: return Type::of(TypeKind::Bool);
    }
    return Type::error();
  }

  Type check_call(Expr& e, Context& c) {
    Expr& callee = *e.operands[0];
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
          error_at(a.value->range, std::string(is_score ? "score" : "mask") + " parameter '" + callee.text +
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
    return error_at(callee.range, "'" + callee.text + "' is " + what + " and cannot be called");
  }

  Type check_builtin_call(Expr& e, Context& c) {
    const BuiltinInfo* info = find_builtin(e.operands[0]->text);
    std::vector<Type> types;
    bool err = false;
    for (Argument& a : e.args) {
      Type t = as_value(check(*a.value, c), c);
      if (!a.name.empty()) {
        error_at(a.name_range, std::string("builtin '") + info->name + "' takes no named arguments");
        err = true;
      }
      if (!t.is_error() && !t.is_numeric() && !(info->takes_bool && t.kind == TypeKind::Bool)) {
        error_at(a.value->range, std::string("builtin '") + info->name + "' expects a number, found " +
                                     describe(*a.value, t));
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

  Type check_decl_call(Expr& e, const Decl& d, Context& c) {
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

  void check_argument(const Argument& a, const Type& t, const Param& p, const std::string& what, bool& err) {
    if (t.is_error()) {
      err = true;
      return;
    }
    bool ok = assignable(t, p.type);
    if (p.type.kind == TypeKind::Tensor && ok) {
      // Tensors are run-time buffers: they are passed by name, never computed.
      const Expr* x = a.value.get();
      while (x->kind == ExprKind::Paren) x = x->operands[0].get();
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

  // ---- recursion -------------------------------------------------------------------------------

  // Depth-first over the uses, with an explicit stack: a file may chain thousands of definitions.
  void check_recursion() {
    std::map<const Decl*, int> state;  // 0 new, 1 on stack, 2 done
    struct Frame {
      const Decl* decl;
      size_t next = 0;
    };
    std::vector<Frame> stack;
    auto visit = [&](const Decl* root) {
      state[root] = 1;
      stack.push_back({root});
      while (!stack.empty()) {
        const Decl* d = stack.back().decl;
        const std::vector<const Decl*>& used = uses_[d];
        if (stack.back().next == used.size()) {
          state[d] = 2;
          stack.pop_back();
          continue;
        }
        const Decl* u = used[stack.back().next++];
        if (state[u] == 1) {
          std::string chain;
          auto it = std::find_if(stack.begin(), stack.end(), [&](const Frame& f) { return f.decl == u; });
          for (; it != stack.end(); ++it) chain += "'" + it->decl->name + "' -> ";
          chain += "'" + u->name + "'";
          Diagnostic& diag = diags_.error(uses_at_[{d, u}], "recursive definition: " + chain);
          add_note(diag, u->name_range, "'" + u->name + "' is defined here");
        } else if (state[u] == 0) {
          state[u] = 1;
          stack.push_back({u});
        }
      }
    };
    for (auto& m : program_.modules)
      for (auto& d : m->decls)
        if (state[d.get()] == 0) visit(d.get());
  }

  Program& program_;
  DiagnosticEngine& diags_;
  Module* module_ = nullptr;
  const Decl* current_ = nullptr;
  std::map<const Module*, std::map<std::string, const Decl*>> own_names_;     // definitions
  std::map<const Module*, std::map<std::string, const Decl*>> kernel_names_;  // kernels
  std::map<const Decl*, std::vector<const Decl*>> uses_;  // in order of first use: messages are stable
  std::map<std::pair<const Decl*, const Decl*>, SourceRange> uses_at_;
};

}  // namespace

void check_program(Program& program) { Checker(program).run(); }

}  // namespace attn
