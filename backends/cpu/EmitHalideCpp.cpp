// compile_to_module + CodeGen_C, then text rewrites that keep the output stable and self-contained.
#include "backends/cpu/EmitHalideCpp.h"

#include <map>
#include <regex>
#include <sstream>

#include "backends/cpu/RuntimeGlue.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;
using Halide::Argument;

namespace {

// Halide numbers its temporaries with process-wide counters: renumber them from zero.
std::string renumber_temporaries(const std::string& code) {
  static const std::regex temp(R"(\b_(\d+)\b)");
  std::map<std::string, int> ids;
  std::string out;
  out.reserve(code.size());
  auto last = code.cbegin();
  for (std::sregex_iterator it(code.begin(), code.end(), temp), end; it != end; ++it) {
    out.append(last, it->prefix().second);
    auto [pos, fresh] = ids.emplace(it->str(1), (int)ids.size());
    out += "_" + std::to_string(pos->second);
    last = it->suffix().first;
  }
  out.append(last, code.cend());
  return out;
}

// Only the code after the runtime header calls runtime functions; the header merely declares them.
std::set<std::string> called_runtime_functions(const std::string& code) {
  std::set<std::string> used;
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);) {
    size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line[first] == '*' || line[first] == '/' ||
        line.compare(first, 7, "extern ") == 0 || line.compare(first, 8, "typedef ") == 0)
      continue;
    for (const std::string& n : runtime_functions_used(line)) used.insert(n);
  }
  return used;
}

std::string rename_runtime_functions(std::string code, const std::set<std::string>& used,
                                     const std::string& prefix) {
  for (const std::string& name : used) {
    std::regex re("\\bhalide_" + name + "\\b");
    code = std::regex_replace(code, re, prefix + name);
  }
  return code;
}

}  // namespace

Target halide_target(const CpuTarget& target) {
  std::vector<Target::Feature> features = {Target::UserContext, Target::NoBoundsQuery};
  if (target.isa == CpuIsa::AVX2 || target.isa == CpuIsa::AVX512)
    for (Target::Feature f : {Target::SSE41, Target::AVX, Target::AVX2, Target::FMA, Target::F16C})
      features.push_back(f);
  if (target.isa == CpuIsa::AVX512) {
    features.push_back(Target::AVX512);
    features.push_back(Target::AVX512_Skylake);
  }
  return Target(Target::Linux, Target::X86, 64, features);
}

HalideCpp emit_halide_cpp(Func out, const std::vector<Argument>& args, const std::string& fn_name,
                            const Target& target, const std::string& runtime_prefix) {
  Module module = out.compile_to_module(args, fn_name, target);
  std::ostringstream os;
  {
    Internal::CodeGen_C cg(os, target, Internal::CodeGen_C::CPlusPlusImplementation);
    cg.compile(module);
  }
  std::string code = renumber_temporaries(os.str());
  std::set<std::string> used = called_runtime_functions(code);
  return {rename_runtime_functions(code, used, runtime_prefix), used};
}

}  // namespace attn::cpu
