// Text of the runtime glue: the call context and the Halide runtime functions a kernel calls, from
// backends/cpu/fixed/RuntimeContext.h and RuntimeFunctions.h.
#include "backends/cpu/RuntimeGlue.h"

#include "backends/cpu/CpuFixedText.h"
#include "backends/cpu/SourceParts.h"

#include <map>
#include <stdexcept>

namespace attn::cpu {

namespace {

/// What RuntimeFunctions.h names its functions with in place of the kernel's prefix.
constexpr const char* kPrefixPlaceholder = "ATTN_RT_";

// RuntimeFunctions.h: one definition per paragraph, each named ATTN_RT_<name>, by name.
const std::map<std::string, std::string>& definitions() {
  static const std::map<std::string, std::string> defs = [] {
    std::map<std::string, std::string> found;
    const std::string& text = cpu_fixed_text("RuntimeFunctions.h");
    for (size_t begin = 0; begin < text.size();) {
      size_t end = text.find("\n\n", begin);
      if (end == std::string::npos) end = text.size() - 1;  // the file's last newline
      std::string def = text.substr(begin, end - begin);
      size_t name = def.find(kPrefixPlaceholder), paren = def.find('(', name);
      if (name == std::string::npos || paren == std::string::npos)
        throw std::logic_error("internal error: RuntimeFunctions.h has a paragraph without an ATTN_RT_ function");
      name += std::string(kPrefixPlaceholder).size();
      found.emplace(def.substr(name, paren - name), def);
      begin = end + 2;
    }
    return found;
  }();
  return defs;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

std::string emit_runtime_glue(const std::string& prefix, const std::set<std::string>& used) {
  // The call context serves both parts of a source; the functions, part 1's pipelines.
  std::string out = cpu_fixed_text("RuntimeContext.h") + "\n" + kPipelinesPart + "extern \"C\" {\n";
  for (const std::string& name : used) {
    auto it = definitions().find(name);
    if (it == definitions().end())
      throw std::runtime_error("cpu backend: the emitted code calls halide_" + name + ", which the runtime glue lacks");
    out += replace_all(it->second, kPrefixPlaceholder, prefix) + "\n\n";
  }
  out += "}  // extern \"C\"\n";
  out += kEndPart;
  return out;
}

}  // namespace attn::cpu
