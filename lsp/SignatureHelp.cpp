// Feature: signature help for calls of definitions and builtins.
#include "frontend/Builtins.h"
#include "lsp/CursorContext.h"
#include "lsp/Features.h"

namespace attn::lsp {

std::optional<SignatureHelp> signature_help(const Analysis& a, uint32_t offset) {
  CursorContext c = cursor_context(a.text(), offset);
  if (c.where != CursorContext::Expression || !c.in_call) return std::nullopt;
  SignatureInformation sig;
  std::vector<std::string> names;
  if (const Decl* d = a.lookup(c.callee); d && d->kind != DeclKind::Kernel) {
    sig.label = decl_signature(*d);
    sig.documentation = d->doc;
    for (const Param& p : d->params) {
      sig.parameters.push_back({p.name + ": " + type_name(p.type)});
      names.push_back(p.name);
    }
  } else if (const BuiltinInfo* b = find_builtin(c.callee)) {
    sig.label = b->signature;
    sig.documentation = b->doc;
    std::string s = b->signature;
    size_t open = s.find('('), close = s.find(')');
    for (size_t i = open + 1; open != std::string::npos && close != std::string::npos && i < close;) {
      size_t comma = s.find(',', i);
      size_t end = comma == std::string::npos || comma > close ? close : comma;
      std::string p = s.substr(i, end - i);
      sig.parameters.push_back({p});
      names.push_back(p);
      i = end + (end == close ? 0 : 2);
      if (end == close) break;
    }
  } else {
    return std::nullopt;
  }
  SignatureHelp help;
  help.activeParameter = c.arg_index;
  for (size_t i = 0; i < names.size(); ++i)
    if (!c.arg_name.empty() && names[i] == c.arg_name) help.activeParameter = static_cast<int>(i);
  help.signatures.push_back(std::move(sig));
  return help;
}

}  // namespace attn::lsp
