// compile_to_module + CodeGen_C, then text rewrites that keep the output stable and self-contained.
#include "backends/cpu/EmitHalideCpp.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>

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

// Func names carry a per-generation prefix "k000123_" (see fresh_name_prefix): drop it.
std::string strip_name_prefixes(const std::string& code) {
  static const std::regex prefix("k[0-9]{6}_");
  return std::regex_replace(code, prefix, "");
}

// Halide makes names unique per process ("probs$3" in strings, "_probs__3_s0_j" in identifiers;
// closure structs "s7", message buffers "b12"): number the variants of each name in order of appearance instead.
std::string canonical_names(const std::string& code) {
  static const std::regex word(R"([A-Za-z_][A-Za-z0-9_$]*)");
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

// Halide's vector min/max for clang is a lane loop that clang 14 does not always turn back into
// vminps/vmaxps (the exp of every score went scalar): use clang's elementwise builtins there.
std::string use_elementwise_min_max(std::string code) {
  for (const char* op : {"max", "min"}) {
    std::string cmp = std::string(op) == "max" ? ">" : "<";
    std::string from = "#if defined(__GNUC__) && !defined(__clang__)\n"
                       "        // TODO: GCC doesn't seem to recognize this pattern, and scalarizes instead\n"
                       "        return a " + cmp + " b ? a : b;\n#else";
    std::string to = "#if defined(ATTN_ELEMENTWISE_MIN_MAX)\n"
                     "        return __builtin_elementwise_" + std::string(op) + "(a, b);\n" + from.substr(1).insert(0, "#el");
    size_t at = code.find(from);
    if (at != std::string::npos) code.replace(at, from.size(), to);
  }
  return code;
}

// Halide's native-vector ramp fills the lanes one by one; in the mask pass (kv = j + 0..15) GCC 12
// keeps that loop in memory and the causal kernel ran at 178 GFLOP/s against 273 with an index
// vector built once (clang: 326 -> 332).
std::string vector_ramp(std::string code) {
  const std::string from = "    static Vec ramp(const ElementType base, const ElementType stride) {\n"
                           "        Vec r;\n"
                           "        for (size_t i = 0; i < Lanes; i++) {\n"
                           "            r[i] = base + stride * i;\n"
                           "        }\n"
                           "        return r;\n"
                           "    }\n";
  const std::string to = "    template <size_t... I>\n"
                         "    static Vec iota(std::index_sequence<I...>) { return Vec{static_cast<ElementType>(I)...}; }\n\n"
                         "    static Vec ramp(const ElementType base, const ElementType stride) {\n"
                         "        return base + stride * iota(std::make_index_sequence<Lanes>());\n"
                         "    }\n";
  // The second ramp is NativeVectorOps' (the first, CppVectorOps', works on arrays).
  size_t first = code.find(from), second = first == std::string::npos ? first : code.find(from, first + 1);
  if (second != std::string::npos) code.replace(second, from.size(), to);
  const std::string traits = "#include <type_traits>\n";
  size_t at = code.find(traits);
  if (at != std::string::npos && code.find("#include <utility>\n") == std::string::npos)
    code.insert(at + traits.size(), "#include <utility>\n");
  return code;
}

// Two quirks of Halide 14's C output: a vector Not is printed as `!(x)`, which clang types as a
// vector of char (compare with 0 instead); gathers start from an uninitialized vector, which clang
// warns about (value-initialize it).
std::string fix_c_quirks(const std::string& code) {
  static const std::regex vector_not(R"((uint8x[0-9]+_t)(\s+const\s+_[0-9]+ = )!\((_[0-9]+)\);)");
  static const std::regex uninitialized(R"(^(\s*(?!return\b)[A-Za-z0-9_]+ _[0-9]+);$)",
                                        std::regex::ECMAScript | std::regex::multiline);
  std::string out = std::regex_replace(code, vector_not, "$1$2$1_ops::eq($3, $1_ops::broadcast(0));");
  return std::regex_replace(out, uninitialized, "$1{};");
}

// One representation of vector booleans: 0 or 1 in every lane, as scalar bools, broadcasts of them
// and bool buffer loads already are. Halide 14's native-vector comparisons and logical and/or
// return the GCC/clang vector truth value -1 narrowed to 0xFF, so `(q < n) == (kv < n)` compared
// 0xFF with a broadcast 0x01 and was false where both sides were true (and int(b) gave 255).
std::string zero_one_vector_bools(std::string code) {
  const std::string from = "        return NativeVectorOps<uint8_t, Lanes>::convert_from(r);\n";
  const std::string to = "        return NativeVectorOps<uint8_t, Lanes>::convert_from(r) & uint8_t(1);  // lanes 0 or 1\n";
  size_t begin = code.find("class NativeVectorOps {");
  size_t end = begin == std::string::npos ? begin : code.find("\n};", begin);
  int replaced = 0;
  for (size_t at = code.find(from, begin); begin != std::string::npos && at < end; at = code.find(from, at)) {
    code.replace(at, from.size(), to);
    end += to.size() - from.size();
    at += to.size();
    ++replaced;
  }
  // lt le gt ge eq ne, logical_and, logical_or: a Halide whose text differs must not pass silently.
  if (replaced != 8)
    throw std::logic_error("internal error: Halide's NativeVectorOps text changed (" + std::to_string(replaced) +
                           " boolean results rewritten, expected 8)");
  return code;
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

void stabilize_halide_name_counters() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int c = 1; c < 128; ++c) {
      std::string name = Internal::unique_name(char(c));
      for (int n = std::atoi(name.c_str() + 1); n < 100000; ++n) Internal::unique_name(char(c));
    }
  });
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

HalideCpp emit_halide_cpp(Func out, const std::vector<Argument>& args, const std::string& fn_name,
                          const Target& target, const std::string& runtime_prefix) {
  Module module = out.compile_to_module(args, fn_name, target);
  std::ostringstream os;
  {
    Internal::CodeGen_C cg(os, target, Internal::CodeGen_C::CPlusPlusImplementation);
    cg.compile(module);
  }
  std::string code = zero_one_vector_bools(vector_ramp(
      use_elementwise_min_max(fix_c_quirks(renumber_temporaries(canonical_names(strip_name_prefixes(os.str())))))));
  std::set<std::string> used = called_runtime_functions(code);
  return {rename_runtime_functions(code, used, runtime_prefix), used};
}

}  // namespace attn::cpu
