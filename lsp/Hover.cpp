// Feature: hover. The signature or type of the name under the cursor and its doc comment.
#include "frontend/Builtins.h"
#include "lsp/Features.h"

namespace attn::lsp {

namespace {

std::string code(const std::string& s) { return "```attn\n" + s + "\n```"; }

std::string with_doc(std::string text, const std::string& doc) {
  if (!doc.empty()) text += "\n\n" + doc;
  return text;
}

// "from stdlib/masks.attn" for a declaration outside the main file.
std::string origin(const Analysis& a, const Decl& d) {
  if (!d.module || d.module->file == a.main_file) return "";
  return "\n\n*from " + a.program->sources.path(d.module->file) + "*";
}

std::string describe(const Analysis& a, const Occurrence& o) {
  switch (o.kind) {
    case OccurrenceKind::Decl:
      return with_doc(code(decl_signature(*o.decl)), o.decl->doc) + origin(a, *o.decl);
    case OccurrenceKind::Param: {
      const Decl* d = o.param->owner;
      std::string owner = d ? std::string(decl_kind_name(d->kind)) + " " + d->name : "";
      return code("(parameter) " + o.param->name + ": " + type_name(o.param->type)) +
             (owner.empty() ? "" : "\n\nparameter of `" + owner + "`");
    }
    case OccurrenceKind::Local:
      return code((o.local->is_reduction_var ? "(reduction index) " : "(let) ") + o.local->name + ": " +
                  type_name(o.local->type));
    case OccurrenceKind::Index:
      for (int i = 0; i < kNumIndexVars; ++i)
        if (a.name_of(o) == kIndexNames[i])
          return code("(index) " + std::string(a.name_of(o)) + ": int") + "\n\n" +
                 index_doc(static_cast<IndexVar>(i)) + ", in scope everywhere";
      return "";
    case OccurrenceKind::Score:
      return code("(score) score: float") + "\n\nthe raw attention score, in scope in score modifiers";
    case OccurrenceKind::Builtin:
      if (const BuiltinInfo* b = find_builtin(a.name_of(o))) return with_doc(code(b->signature), b->doc);
      return "";
    case OccurrenceKind::KernelOption:
      if (const KernelOptionInfo* k = find_kernel_option(a.name_of(o)))
        return code("(kernel option) " + std::string(a.name_of(o))) + "\n\n" + k->doc;
      return code("(unknown kernel option) " + std::string(a.name_of(o)));
    case OccurrenceKind::Module: {
      std::string text = code("import " + o.module->name);
      std::string list;
      for (const auto& d : o.module->decls) {
        std::string first = d->doc.substr(0, d->doc.find('\n'));
        list += "\n- `" + decl_signature(*d) + "`" + (first.empty() ? "" : ": " + first);
      }
      return text + "\n\n*" + a.program->sources.path(o.module->file) + "*" +
             (list.empty() ? "" : "\n" + list);
    }
  }
  return "";
}

// The innermost expression of `e` whose range holds `offset`.
const Expr* innermost(const Expr& e, uint32_t offset) {
  if (offset < e.range.begin || offset >= e.range.end) return nullptr;
  for (const auto& x : e.operands())
    if (x)
      if (const Expr* in = innermost(*x, offset)) return in;
  if (e.kind == ExprKind::Call)
    for (const Argument& arg : e.args)
      if (arg.value)
        if (const Expr* in = innermost(*arg.value, offset)) return in;
  if (e.kind == ExprKind::Let || e.kind == ExprKind::Reduce)
    for (const Binding& b : e.bindings)
      if (b.value)
        if (const Expr* in = innermost(*b.value, offset)) return in;
  return &e;
}

}  // namespace

std::optional<Hover> hover(const Analysis& a, uint32_t offset) {
  if (const Occurrence* o = a.occurrence_at(offset)) {
    std::string text = describe(a, *o);
    if (text.empty()) return std::nullopt;
    return Hover{text, a.range_of(o->range)};
  }
  // A literal or an operator: the type of the smallest expression there.
  const Decl* d = a.decl_at(offset);
  if (!d) return std::nullopt;
  const Expr* found = d->body ? innermost(*d->body, offset) : nullptr;
  for (const KernelItem& item : d->items)
    if (!found && item.value) found = innermost(*item.value, offset);
  if (!found || found->type.is_error()) return std::nullopt;
  return Hover{code(type_name(found->type)), a.range_of(found->range)};
}

}  // namespace attn::lsp
