// Feature: completion. Keywords, names in scope (own, imported, stdlib), index variables, score,
// builtins, stdlib modules after `import std.`, named arguments in calls, kernel option keys.
#include <algorithm>
#include <set>

#include "frontend/Builtins.h"
#include "lsp/CursorContext.h"
#include "lsp/Features.h"

namespace attn::lsp {

namespace {

class Collector {
 public:
  /// Only labels starting with `prefix` are kept (in expressions; elsewhere the prefix is empty).
  void filter(std::string prefix) { prefix_ = std::move(prefix); }
  /// Whether an item labelled `label` would be kept: worth building (a declaration's signature
  /// costs more than the comparison).
  bool wants(const std::string& label) {
    if (label.compare(0, prefix_.size(), prefix_) != 0) return false;
    // Full: no lookup either, so that each further candidate costs one comparison.
    if (items_.size() >= kMaxCompletionItems) {
      incomplete_ = incomplete_ || !seen_.count(label);
      return false;
    }
    return !seen_.count(label);
  }
  bool incomplete() const { return incomplete_; }
  /// True once the answer holds kMaxCompletionItems: loops over many candidates stop there (the
  /// answer is then marked incomplete whether or not a later candidate would have matched).
  bool full() {
    if (items_.size() < kMaxCompletionItems) return false;
    incomplete_ = true;
    return true;
  }
  void add(std::string label, CompletionKind kind, std::string detail, std::string doc, std::string insert) {
    CompletionItem item;
    item.label = std::move(label);
    item.kind = kind;
    item.detail = std::move(detail);
    item.documentation = std::move(doc);
    item.insertText = std::move(insert);
    add(std::move(item));
  }
  void add(CompletionItem item) {
    if (!wants(item.label)) return;
    seen_.insert(item.label);
    items_.push_back(std::move(item));
  }
  void keyword(const std::string& k, const std::string& insert = "") {
    add(k, CompletionKind::Keyword, "keyword", "", insert);
  }
  std::vector<CompletionItem> take() { return std::move(items_); }

 private:
  std::set<std::string> seen_;
  std::vector<CompletionItem> items_;
  std::string prefix_;
  bool incomplete_ = false;
};

CompletionItem decl_item(const Decl& d) {
  CompletionItem item;
  item.label = d.name;
  item.kind = d.kind == DeclKind::Kernel ? CompletionKind::Class : CompletionKind::Function;
  item.detail = decl_signature(d);
  item.documentation = d.doc;
  return item;
}

// The parameter types of the enclosing declaration, when it parsed.
std::string param_type(const Analysis& a, const CursorContext& c, const std::string& name) {
  const Module* m = a.main();
  if (!m) return "";
  for (const auto& d : m->decls)
    if (d->name == c.item_name)
      for (const Param& p : d->params)
        if (p.name == name) return type_name(p.type);
  return "";
}

void named_arguments(const Analysis& a, const CursorContext& c, Collector& out) {
  const Decl* callee = a.lookup(c.callee);
  if (!callee || callee->kind == DeclKind::Kernel) return;
  for (const Param& p : callee->params)
    out.add(p.name + " =", CompletionKind::Field, type_name(p.type),
            "parameter of `" + decl_signature(*callee) + "`", p.name + " = ");
  if (callee->kind != DeclKind::Fn)
    for (int i = 0; i < kNumIndexVars; ++i)
      out.add(std::string(kIndexNames[i]) + " =", CompletionKind::Field, "int",
              std::string("apply at another ") + index_doc(static_cast<IndexVar>(i)),
              std::string(kIndexNames[i]) + " = ");
}

// The stdlib's modules, parsed once, for names that are not imported yet.
const std::vector<std::unique_ptr<Program>>& stdlib_programs() {
  static const std::vector<std::unique_ptr<Program>> programs = [] {
    std::vector<std::unique_ptr<Program>> out;
    for (const auto& [name, text] : stdlib_modules()) {
      LoadOptions options;
      options.check = false;
      out.push_back(load_program_text(name, text, options));
    }
    return out;
  }();
  return programs;
}

// Stdlib definitions of modules the document does not import, with the import as an extra edit.
void stdlib_names(const Analysis& a, Collector& out) {
  const Module* m = a.main();
  if (!m) return;
  uint32_t after_imports = 0;
  for (const Import& imp : m->imports) after_imports = std::max(after_imports, imp.range.end);
  Position at = a.range_of({a.main_file, after_imports, after_imports}).end;
  std::string prefix = after_imports ? "\n" : "";
  std::string suffix = after_imports ? "" : "\n";
  const auto& names = stdlib_modules();
  auto name_it = names.begin();
  for (const auto& p : stdlib_programs()) {
    const std::string& module = (name_it++)->first;
    bool imported = false;
    for (const Import& imp : m->imports) imported = imported || imp.spelling == module;
    if (imported || !p->main()) continue;
    for (const auto& d : p->main()->decls) {
      if (out.full()) return;
      if (d->kind == DeclKind::Kernel || !out.wants(d->name)) continue;
      CompletionItem item = decl_item(*d);
      item.detail += " (import " + module + ")";
      item.additionalTextEdits.push_back({{at, at}, prefix + "import " + module + ";" + suffix});
      out.add(std::move(item));
    }
  }
}

void expression_names(const Analysis& a, const CursorContext& c, Collector& out) {
  for (auto it = c.locals.rbegin(); it != c.locals.rend(); ++it)
    out.add(*it, CompletionKind::Variable, "let", "", "");
  for (const std::string& p : c.params)
    out.add(p, CompletionKind::Variable, param_type(a, c, p), "parameter", "");
  for (int i = 0; i < kNumIndexVars; ++i)
    out.add(kIndexNames[i], CompletionKind::Variable, "int", index_doc(static_cast<IndexVar>(i)), "");
  if (c.score_in_scope) out.add("score", CompletionKind::Variable, "float", "the raw attention score", "");
  if (const Module* m = a.main()) {
    for (const auto& d : m->decls) {
      if (out.full()) break;
      if (d->kind != DeclKind::Kernel && d->name != c.item_name && out.wants(d->name)) out.add(decl_item(*d));
    }
    for (const Import& imp : m->imports)
      if (imp.target)
        for (const auto& d : imp.target->decls) {
          if (out.full()) break;
          if (d->kind != DeclKind::Kernel && out.wants(d->name)) out.add(decl_item(*d));
        }
  }
  stdlib_names(a, out);
  for (const BuiltinInfo& b : builtin_functions())
    out.add(b.name, CompletionKind::Function, b.signature, b.doc, "");
  for (const char* k : {"let", "true", "false", "inf"}) out.keyword(k);
}

// The candidates at the cursor `c` describes, into `out`.
void collect(const Analysis& a, const CursorContext& c, Collector& out);

}  // namespace

std::vector<CompletionItem> completion(const Analysis& a, uint32_t offset, bool* incomplete) {
  CursorContext c = cursor_context(a.text(), offset);
  // Every candidate while they fit; past kMaxCompletionItems, only those with the typed prefix.
  for (const std::string& prefix : {std::string(), c.prefix}) {
    Collector out;
    out.filter(prefix);
    collect(a, c, out);
    if (out.incomplete() && prefix.empty() && !c.prefix.empty()) continue;
    if (incomplete) *incomplete = out.incomplete();
    return out.take();
  }
  return {};
}

namespace {

void collect(const Analysis& a, const CursorContext& c, Collector& out) {
  switch (c.where) {
    case CursorContext::Comment:
    case CursorContext::Name: break;
    case CursorContext::TopLevel:
      for (const char* k : {"import", "mask", "score", "fn", "kernel"}) out.keyword(k);
      break;
    case CursorContext::Import:
      for (const auto& [name, _] : stdlib_modules())
        out.add(name, CompletionKind::Module, "stdlib module", "", "");
      break;
    case CursorContext::ImportStd:
      for (const auto& [name, _] : stdlib_modules())
        if (name.rfind("std.", 0) == 0) out.add(name.substr(4), CompletionKind::Module, name, "", "");
      break;
    case CursorContext::KernelKey:
      for (const KernelOptionInfo& k : kernel_options())
        out.add(k.key, CompletionKind::Property, "kernel option", k.doc, std::string(k.key) + " = ");
      break;
    case CursorContext::DtypeValue:
      for (const char* t : {"f32", "f16", "bf16", "e4m3", "e5m2"})
        out.add(t, CompletionKind::EnumMember, "dtype", "", "");
      break;
    case CursorContext::TypeName:
      for (const char* t : {"int", "float", "bool", "mask", "score"})
        out.add(t, CompletionKind::TypeParameter, "type", "", "");
      out.add("tensor", CompletionKind::TypeParameter, "tensor<f32>[dims]", "a run-time buffer",
              "tensor<f32>[]");
      break;
    case CursorContext::Expression:
      if (c.in_call && c.at_arg_start) named_arguments(a, c, out);
      expression_names(a, c, out);
      break;
  }
}

}  // namespace

}  // namespace attn::lsp
