// stdlib_module_defining: the stdlib modules' definitions, parsed once on first use.
#include "frontend/StdlibNames.h"

#include <map>

#include "frontend/Parse.h"
#include "frontend/Program.h"

namespace attn {

std::string stdlib_module_defining(const std::string& name) {
  static const std::map<std::string, std::string> modules_by_name = [] {
    std::map<std::string, std::string> out;
    SourceManager sources;
    DiagnosticEngine diags;
    for (const auto& [module, text] : stdlib_modules()) {
      ParseResult parsed = parse_module(sources, sources.add(module, text), diags);
      for (const auto& d : parsed.module->decls)
        if (d->kind != DeclKind::Kernel) out.emplace(d->name, module);
    }
    return out;
  }();
  auto it = modules_by_name.find(name);
  return it == modules_by_name.end() ? "" : it->second;
}

}  // namespace attn
