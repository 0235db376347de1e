// Semantic analysis: the driver, module scopes, suggestions and recursion (the checker's other parts
// are in SemaDecls.cpp, SemaExprs.cpp and SemaCalls.cpp; frontend/SemaChecker.h lists them).
#include "frontend/Sema.h"

#include "frontend/SemaChecker.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "frontend/InlineDepth.h"
#include "frontend/IntFold.h"
#include "frontend/StdlibNames.h"

namespace attn {

bool is_index_name(const std::string& name) {
  for (const char* i : kIndexNames)
    if (name == i) return true;
  return false;
}

std::optional<double> constant_value(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: return static_cast<double>(e.int_value);
    case ExprKind::FloatLit: return e.float_value;
    case ExprKind::InfLit: return INFINITY;
    case ExprKind::Paren: return constant_value(*e.operands()[0]);
    case ExprKind::Unary:
      if (e.text() == "-")
        if (auto v = constant_value(*e.operands()[0])) return -*v;
      return std::nullopt;
    case ExprKind::Binary: {
      auto a = constant_value(*e.operands()[0]), b = constant_value(*e.operands()[1]);
      if (!a || !b) return std::nullopt;
      if (e.text() == "+") return *a + *b;
      if (e.text() == "-") return *a - *b;
      if (e.text() == "*") return *a * *b;
      if (e.text() == "/") return *b == 0 ? std::nullopt : std::optional<double>(*a / *b);
      if (e.text() == "//") return *b == 0 ? std::nullopt : std::optional<double>(std::floor(*a / *b));
      if (e.text() == "%")
        return *b == 0 ? std::nullopt : std::optional<double>(*a - *b * std::floor(*a / *b));
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace attn

namespace attn::sema {

bool boolish(const Type& t) { return t.kind == TypeKind::Bool || t.kind == TypeKind::Mask; }

Type numeric_join(const Type& a, const Type& b) {
  return Type::of(a.kind == TypeKind::Float || b.kind == TypeKind::Float ? TypeKind::Float : TypeKind::Int);
}

// How a value is described in messages: "mask 'causal'", "score modifier 'softcap'", or its type.
std::string describe(const Expr& e, const Type& t) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Paren) x = x->operands()[0].get();
  const Expr* name = x->kind == ExprKind::Call ? x->operands()[0].get() : x;
  if (name->kind == ExprKind::Name && name->ref.kind == SymbolRef::Decl) {
    if (name->ref.decl->kind == DeclKind::Mask) return "mask '" + std::string(name->text()) + "'";
    if (name->ref.decl->kind == DeclKind::Score) return "score modifier '" + std::string(name->text()) + "'";
  }
  if (t.kind == TypeKind::Score) return "a score modifier";
  if (t.kind == TypeKind::Mask) return "a mask";
  return type_name(t);
}

void Checker::run() {
  for (auto& m : program_.modules) build_module_scope(*m);
  for (auto& m : program_.modules) {
    module_ = m.get();
    for (auto& d : m->decls) check_decl(*d);
  }
  check_recursion();
  check_inline_depth(program_);
}

// Kernels and definitions are separate namespaces: a kernel may share a definition's name
// (`kernel natten { mask = natten(...); }`), and expressions only see definitions.
void Checker::build_module_scope(Module& m) {
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
const Decl* Checker::lookup_decl(const std::string& name, SourceRange at, bool report_ambiguity) {
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

std::vector<std::string> Checker::visible_names(const Context& c) {
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

void Checker::suggest(Diagnostic& d, SourceRange at, const std::string& name,
                      const std::vector<std::string>& candidates) {
  std::string guess = closest_name(name, candidates);
  if (!guess.empty()) offer(d, at, guess);
}

void Checker::offer(Diagnostic& d, SourceRange at, const std::string& replacement) {
  d.message += "; did you mean '" + replacement + "'?";
  d.fixes.push_back({at, replacement});
}

// The fix inserts the import after the module's last import, or at the top of the file.
void Checker::suggest_import(Diagnostic& d, const std::string& module) {
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
const char* Checker::index_alias(const std::string& name) {
  static constexpr std::pair<const char*, const char*> kAliases[] = {
      {"q_idx", "q"}, {"kv_idx", "kv"}, {"batch", "b"}, {"head", "h"}};
  for (auto [alias, index] : kAliases)
    if (name == alias) return index;
  return nullptr;
}

// Depth-first over the uses, with an explicit stack: a file may chain thousands of definitions.
void Checker::check_recursion() {
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

}  // namespace attn::sema

namespace attn {

void check_program(Program& program) { sema::Checker(program).run(); }

}  // namespace attn
