// Parsing `ptxas info : ...` lines: per function, the entry line, its stack/spill line and its
// "Used N registers" line.
#include "runtime/PtxasReport.h"

#include <cctype>
#include <sstream>

namespace attn {

const PtxasFunction* PtxasReport::find(const std::string& name) const {
  for (const PtxasFunction& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

/// The decimal number that ends right before `suffix` in `line` ("168" of "Used 168 registers"), or -1.
int number_before(const std::string& line, const std::string& suffix) {
  const size_t at = line.find(suffix);
  if (at == std::string::npos || at == 0) return -1;
  size_t begin = at;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1]))) --begin;
  return begin == at ? -1 : std::stoi(line.substr(begin, at - begin));
}

/// The text after `prefix` in `line` up to `stop` (or the end), or "" when `prefix` is absent.
std::string text_after(const std::string& line, const std::string& prefix, char stop) {
  const size_t at = line.find(prefix);
  if (at == std::string::npos) return "";
  const size_t begin = at + prefix.size(), end = line.find(stop, begin);
  return line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

}  // namespace

PtxasReport parse_ptxas_report(const std::string& log) {
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
  while (std::getline(in, line)) {
    // ptxas: "Compiling entry function 'NAME' for 'sm_90a'", "Function properties for NAME",
    // "N bytes stack frame, N bytes spill stores, N bytes spill loads",
    // "Used N registers, ... N bytes smem, N bytes cmem[0]".
    if (const std::string name = text_after(line, "Compiling entry function '", '\''); !name.empty()) {
      cur = function(name);
      cur->arch = text_after(line, "' for '", '\'');
    } else if (const std::string props = text_after(line, "Function properties for ", ' '); !props.empty()) {
      cur = function(props);
    } else if (cur && line.find(" bytes stack frame") != std::string::npos) {
      cur->stack_frame = number_before(line, " bytes stack frame");
      cur->spill_stores = number_before(line, " bytes spill stores");
      cur->spill_loads = number_before(line, " bytes spill loads");
    } else if (cur && line.find(" registers") != std::string::npos &&
               number_before(line, " registers") >= 0) {
      cur->registers = number_before(line, " registers");
      if (int smem = number_before(line, " bytes smem"); smem >= 0) cur->static_shared = smem;
      if (int cmem = number_before(line, " bytes cmem[0]"); cmem >= 0) cur->constant = cmem;
    }
  }
  return r;
}

}  // namespace attn
