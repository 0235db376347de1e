// `attnc check FILE...`: diagnostics only, as text (like a C compiler) or JSON.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/Commands.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"

namespace attn::cli {

bool report_diagnostics(const Program& p, bool color) {
  if (!p.diags.all().empty()) std::cerr << render_diagnostics(p.diags, p.sources, color);
  return p.diags.has_errors();
}

int run_check(const CheckOptions& o) {
  bool failed = false;
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& f : o.files) {
    auto p = load_program(f);
    // A file that parses and type-checks may still be one no command can lower (a kernel too
    // large once its lets and definitions are expanded): check says so, in the same words.
    DiagnosticEngine lowering;
    if (!p->diags.has_errors())
      for (const Decl* k : p->kernels()) (void)lower_kernel(*p, *k, lowering);
    for (const DiagnosticEngine* diags : {&p->diags, &lowering}) {
      if (o.format == "json") {
        for (auto& d : nlohmann::json::parse(diagnostics_to_json(*diags, p->sources))) all.push_back(d);
      } else if (!diags->all().empty()) {
        std::cerr << render_diagnostics(*diags, p->sources, o.color);
      }
      failed = failed || diags->has_errors();
    }
  }
  if (o.format == "json") std::cout << all.dump(2) << "\n";
  return failed ? 1 : 0;
}

}  // namespace attn::cli
