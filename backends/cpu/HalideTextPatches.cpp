// The patches of Halide 14's C++ text (HalideTextPatches.h): each throws when the text it expects
// is missing.
#include "backends/cpu/HalideTextPatches.h"

#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "backends/cpu/CpuFixedText.h"

namespace attn::cpu {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// `code` with each word (a maximal run of [A-Za-z0-9_], what a regex's \b delimits) for which
/// `replace` gives a text replaced by it. One pass: a kernel's source is a few hundred KB, and a
/// std::regex per name over it took most of a generation's time.
template <class Replace>
std::string rewrite_words(const std::string& code, Replace replace) {
  std::string out;
  out.reserve(code.size() + code.size() / 8);
  size_t i = 0;
  const size_t n = code.size();
  while (i < n) {
    size_t start = i;
    while (i < n && !is_word_char(code[i])) ++i;
    out.append(code, start, i - start);
    start = i;
    while (i < n && is_word_char(code[i])) ++i;
    if (i == start) continue;
    const std::string_view word(code.data() + start, i - start);
    if (std::optional<std::string> r = replace(word))
      out += *r;
    else
      out.append(word);
  }
  return out;
}

/// Every `<prefix><digits>` word renumbered 0, 1, ... in order of first appearance; how many there were.
std::string renumber(const std::string& code, const std::string& prefix, size_t* count) {
  std::map<std::string, int, std::less<>> ids;
  std::string out = rewrite_words(code, [&](std::string_view w) -> std::optional<std::string> {
    if (w.size() <= prefix.size() || w.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    const std::string_view digits = w.substr(prefix.size());
    for (char c : digits)
      if (c < '0' || c > '9') return std::nullopt;
    auto [pos, fresh] = ids.emplace(std::string(digits), (int)ids.size());
    return prefix + std::to_string(pos->second);
  });
  *count = ids.size();
  return out;
}

// Halide numbers its temporaries `_N`, and the `_tN` it names the extern stages' buffer shapes by,
// with process-wide counters: renumber them from zero.
std::string renumber_temporaries(const std::string& code) {
  size_t temporaries = 0, shapes = 0;
  std::string out = renumber(renumber(code, "_", &temporaries), "_t", &shapes);
  if (temporaries == 0) throw std::logic_error("internal error: Halide's C++ output has no temporaries to renumber");
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

// The Halide runtime functions that `code` names.
std::set<std::string> runtime_functions_used(const std::string& code) {
  static const std::regex call(R"cpp(\bhalide_(malloc|free|do_par_for|error\w*)\b)cpp");
  std::set<std::string> used;
  for (std::sregex_iterator it(code.begin(), code.end(), call), end; it != end; ++it) {
    std::string name = (*it)[1];
    if (name.rfind("error_code", 0) == 0 || name == "error_handler_t") continue;  // types
    used.insert(name);
  }
  return used;
}

}  // namespace

// The native ramp's index_sequence needs <utility>; CodeGen_C writes its includes before any hook
// runs, so the include goes after its <type_traits>.
std::string include_utility(std::string code) {
  const std::string traits = "#include <type_traits>\n";
  size_t at = code.find(traits);
  if (at == std::string::npos)
    throw std::logic_error("internal error: Halide's C++ output no longer includes <type_traits>");
  if (code.find("#include <utility>\n") == std::string::npos) code.insert(at + traits.size(), "#include <utility>\n");
  return code;
}

// Every path of CodeGen_C that builds a vector lane by lane declares it without a value; those
// our kernels reach are overridden above. A kernel that reaches another must not pass silently.
void check_no_uninitialized_vectors(const std::string& code) {
  static const std::regex uninitialized(R"(^\s*(?!return\b)[A-Za-z0-9_]+ _[0-9]+;$)",
                                        std::regex::ECMAScript | std::regex::multiline);
  std::smatch m;
  if (std::regex_search(code, m, uninitialized))
    throw std::logic_error("internal error: Halide's C++ builds a vector lane by lane where HalideCppCodeGen does "
                           "not initialize it: " + m.str());
}

std::string canonical_halide_names(const std::string& code) {
  return renumber_temporaries(drop_func_marker(canonical_names(mark_name_prefixes(code))));
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
  constexpr std::string_view kHalide = "halide_";
  return rewrite_words(code, [&](std::string_view w) -> std::optional<std::string> {
    if (w.size() <= kHalide.size() || w.compare(0, kHalide.size(), kHalide) != 0) return std::nullopt;
    const std::string name(w.substr(kHalide.size()));
    if (!used.count(name)) return std::nullopt;
    return prefix + name;
  });
}

std::string use_every_scalar(std::string code, const std::string& pipeline, const std::vector<Halide::Argument>& args) {
  size_t at = code.find("int " + pipeline + "(");
  if (at == std::string::npos || (at = code.find(") {\n", at)) == std::string::npos)
    throw std::logic_error("internal error: Halide's C++ output no longer defines " + pipeline);
  std::string uses;
  for (const Halide::Argument& arg : args)
    if (arg.kind == Halide::Argument::InputScalar)
      uses += " (void)_" + arg.name + ";";
    else if (arg.kind == Halide::Argument::InputBuffer)
      uses += " (void)_" + arg.name + "_buffer;";
  code.insert(at + 4, uses.empty() ? "" : uses.substr(1) + "\n");
  return code;
}

HalideCppParts split_halide_cpp(const std::string& code) {
  size_t header = code.find("#ifndef HALIDE_HALIDERUNTIME_H\n");
  size_t vectors = code.find(kPathCodeMarker);
  if (header == std::string::npos || vectors == std::string::npos || vectors < header)
    throw std::logic_error("internal error: Halide's C++ output no longer reads helpers, runtime header, vector classes");
  HalideCppParts parts{code.substr(0, vectors), "", code.substr(vectors)};
  std::istringstream lines(code.substr(0, header));
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("#include ", 0) != 0) parts.helpers += line + "\n";
  // The shared halide_unused serves every path (it passes no vector by value): a second one in the
  // path's namespace makes a call on a global type (halide_dimension_t*, the extern stages'
  // buffers) ambiguous, the global found by argument-dependent lookup as well.
  const std::string unused = "template<typename T>\ninline void halide_unused(const T&) {}\n";
  const size_t at = parts.helpers.find(unused);
  if (at == std::string::npos)
    throw std::logic_error("internal error: Halide's C++ helpers no longer define halide_unused as expected");
  parts.helpers.erase(at, unused.size());
  return parts;
}

std::string pipeline_declaration(const std::string& code, const std::string& pipeline) {
  // HalideCppCodeGen writes the definition's signature on one line: "int NAME(...) {".
  const std::string start = "\nint " + pipeline + "(";
  const size_t begin = code.find(start);
  const size_t end = begin == std::string::npos ? begin : code.find(") {\n", begin);
  if (end == std::string::npos)
    throw std::logic_error("internal error: Halide's C++ no longer defines " + pipeline + " on one line");
  return "extern \"C\" " + code.substr(begin + 1, end - begin) + ";\n";
}

}  // namespace attn::cpu
