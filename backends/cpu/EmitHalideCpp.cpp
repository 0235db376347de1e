// compile_to_module + HalideCppCodeGen, then the renaming that keeps the output independent of what
// the process generated before.
#include "backends/cpu/EmitHalideCpp.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/HalideCppCodeGen.h"
#include "backends/cpu/RuntimeGlue.h"
#include "backends/cpu/WidenIndices.h"

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
  if (ids.empty()) throw std::logic_error("internal error: Halide's C++ output has no temporaries to renumber");
  return out;
}

// Func names carry a per-generation prefix "k000123_" (see fresh_name_prefix). It becomes the fixed
// marker kFuncMarker first, so that canonical_names numbers the spellings of the kernel's own names
// apart from the runtime's words: Halide's uniquifier shares 16K counters among all strings by hash,
// so a Func may come out as "index$1" in one generation and "index" in the next, while the runtime
// header says "index" either way. drop_func_marker removes the marker afterwards.
constexpr const char* kFuncMarker = "ATTNFN_";

std::string mark_name_prefixes(const std::string& code) {
  static const std::regex prefix("k[0-9]{6}_");
  if (!std::regex_search(code, prefix))
    throw std::logic_error("internal error: Halide's C++ output names no Func with a generation prefix");
  return std::regex_replace(code, prefix, kFuncMarker);
}

std::string drop_func_marker(const std::string& code) {
  static const std::regex marker(kFuncMarker);
  return std::regex_replace(code, marker, "");
}

// Halide makes names unique per process ("probs$3" in strings, "_probs__3_s0_j" in identifiers;
// closure structs "s7", message buffers "b12"): number the variants of each name in order of appearance instead.
// Numbers are words of their own, kept as written: the "x00" of 0x00 is no name.
std::string canonical_names(const std::string& code) {
  static const std::regex word(R"([0-9][A-Za-z0-9_.]*|[A-Za-z_][A-Za-z0-9_$]*)");
  static const std::regex suffix(R"((\$|__)[0-9]+(?=_|\$|$))");
  static const std::regex letter_number(R"(^[a-z][0-9]+$)");
  std::map<std::string, std::map<std::string, int>> variants;  // base -> spelling -> index
  std::map<char, std::map<std::string, int>> numbered;  // letter -> spelling -> index
  std::string out;
  out.reserve(code.size());
  auto last = code.cbegin();
  for (std::sregex_iterator it(code.begin(), code.end(), word), end; it != end; ++it) {
    out.append(last, it->prefix().second);
    last = it->suffix().first;
    std::string w = it->str();
    if (std::isdigit(static_cast<unsigned char>(w[0]))) {
      out += w;
      continue;
    }
    if (std::regex_match(w, letter_number)) {
      auto& seen = numbered[w[0]];
      auto [pos, fresh] = seen.emplace(w, (int)seen.size());
      out += w[0] + std::to_string(pos->second);
      continue;
    }
    std::string base = (w.find('$') == std::string::npos && w.find("__") == std::string::npos)
                           ? w
                           : std::regex_replace(w, suffix, "");
    auto& spellings = variants[base];
    auto [pos, fresh] = spellings.emplace(w, (int)spellings.size());
    out += pos->second == 0 ? base : base + "_v" + std::to_string(pos->second);
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

}  // namespace

void stabilize_halide_name_counters() {
  // A generation (every vector path of one kernel) takes a few tens of thousands of names from the
  // busiest counter; this margin is several times that.
  constexpr int kMargin = 400000;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  for (int c = 1; c < 128; ++c) {
    int n = std::atoi(Internal::unique_name(char(c)).c_str() + 1);
    int64_t power = 10;
    while (power <= n) power *= 10;
    // Close to the next digit: move on to it now, so no generation's names straddle two lengths.
    // From a fresh process this walks every counter to 100000 (six digits, 900000 names of room).
    while (power - n <= kMargin && power < (int64_t(1) << 31) / 10) {
      for (; n < power; ++n) Internal::unique_name(char(c));
      power *= 10;
    }
  }
}

std::string rename_runtime_functions(std::string code, const std::set<std::string>& used,
                                     const std::string& prefix) {
  for (const std::string& name : used) {
    std::regex re("\\bhalide_" + name + "\\b");
    code = std::regex_replace(code, re, prefix + name);
  }
  return code;
}

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

HalideCpp emit_halide_cpp(Pipeline outputs, const std::vector<Argument>& args, const std::string& fn_name,
                          const Target& target, const std::string& runtime_prefix) {
  Module module = outputs.compile_to_module(args, fn_name, target);
  widen_buffer_indices(module);
  std::string code = renumber_temporaries(drop_func_marker(canonical_names(mark_name_prefixes(print_halide_cpp(module, target)))));
  std::set<std::string> used = called_runtime_functions(code);
  return {rename_runtime_functions(code, used, runtime_prefix), used};
}

}  // namespace attn::cpu
