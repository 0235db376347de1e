// `attnc check FILE...`: diagnostics only, as text (like a C compiler) or JSON.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/Commands.h"
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
    if (o.format == "json") {
      for (auto& d : nlohmann::json::parse(diagnostics_to_json(p->diags, p->sources))) all.push_back(d);
      failed = failed || p->diags.has_errors();
    } else {
      failed = report_diagnostics(*p, o.color) || failed;
    }
  }
  if (o.format == "json") std::cout << all.dump(2) << "\n";
  return failed ? 1 : 0;
}

}  // namespace attn::cli
