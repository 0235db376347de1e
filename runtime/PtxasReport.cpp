// Parsing `ptxas info : ...` lines: per function, the entry line, its stack/spill line and its
// "Used N registers" line.
#include "runtime/PtxasReport.h"

#include <regex>
#include <sstream>

namespace attn {

const PtxasFunction* PtxasReport::find(const std::string& name) const {
  for (const PtxasFunction& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

PtxasReport parse_ptxas_report(const std::string& log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex props(R"(Function properties for ([^\s]+))");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex cmem(R"((\d+) bytes cmem\[0\])");
  PtxasReport r;
  PtxasFunction* cur = nullptr;
  auto function = [&](const std::string& name) {
    for (PtxasFunction& f : r.functions)
      if (f.name == name) return &f;
    r.functions.push_back({});
    r.functions.back().name = name;
    return &r.functions.back();
  };
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      cur = function(m[1]);
      cur->arch = m[2];
    } else if (std::regex_search(line, m, props)) {
      cur = function(m[1]);
    } else if (cur && std::regex_search(line, m, frame)) {
      cur->stack_frame = std::stoi(m[1]);
      cur->spill_stores = std::stoi(m[2]);
      cur->spill_loads = std::stoi(m[3]);
    } else if (cur && std::regex_search(line, m, used)) {
      cur->registers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem)) cur->static_shared = std::stoi(m[1]);
      if (std::regex_search(line, m, cmem)) cur->constant = std::stoi(m[1]);
    }
  }
  return r;
}

}  // namespace attn
