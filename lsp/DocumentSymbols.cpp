// Feature: the outline of a document (imports, definitions, parameters, kernel options).
#include "lsp/Features.h"

namespace attn::lsp {

std::vector<DocumentSymbol> document_symbols(const Analysis& a) {
  std::vector<DocumentSymbol> out;
  const Module* m = a.main();
  if (!m) return out;
  for (const Import& imp : m->imports) {
    DocumentSymbol s;
    s.name = imp.spelling.empty() ? "import" : imp.spelling;
    s.detail = "import";
    s.kind = SymbolKind::Module;
    s.range = s.selectionRange = a.range_of(imp.range);
    out.push_back(s);
  }
  for (const auto& d : m->decls) {
    DocumentSymbol s;
    s.name = d->name;
    s.detail = decl_signature(*d);
    s.kind = d->kind == DeclKind::Kernel ? SymbolKind::Class : SymbolKind::Function;
    s.range = a.range_of(d->range);
    s.selectionRange = a.range_of(d->name_range);
    for (const Param& p : d->params) {
      DocumentSymbol c;
      c.name = p.name;
      c.detail = type_name(p.type);
      c.kind = SymbolKind::Variable;
      c.range = a.range_of(p.range);
      c.selectionRange = a.range_of(p.name_range);
      s.children.push_back(c);
    }
    for (const KernelItem& item : d->items) {
      DocumentSymbol c;
      c.name = item.key;
      c.detail = std::string(a.program->sources.slice(item.value ? item.value->range : item.range));
      if (c.detail.size() > 60) c.detail = c.detail.substr(0, 57) + "...";
      c.kind = SymbolKind::Property;
      c.range = a.range_of(item.range);
      c.selectionRange = a.range_of(item.key_range);
      s.children.push_back(c);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace attn::lsp
