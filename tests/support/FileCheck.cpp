// file_check: the directives of a CHECK file matched against a text, line by line.
#include "tests/support/FileCheck.h"

#include <cctype>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace attn::test {

namespace {

enum class Kind { Check, Next, Same, Not };

struct Directive {
  Kind kind;
  std::string spelling;  // "PREFIX-NOT: pattern", for messages
  int line;              // in the checks, from 1
  std::regex pattern;
};

// Where a match ends (or the search starts): a line of the text and a column in it.
struct Position {
  size_t line = 0, column = 0;
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The pattern's literal text escaped, its {{...}} parts as they are.
std::regex compile_pattern(const std::string& pattern) {
  static const std::string special = R"(\^$.|?*+()[]{}/)";
  std::string re;
  for (size_t i = 0; i < pattern.size();) {
    if (pattern.compare(i, 2, "{{") == 0) {
      size_t close = pattern.find("}}", i + 2);
      if (close == std::string::npos)
        throw std::invalid_argument("unclosed {{ in CHECK pattern '" + pattern + "'");
      re += "(?:" + pattern.substr(i + 2, close - i - 2) + ")";
      i = close + 2;
      continue;
    }
    if (pattern[i] == ' ' || pattern[i] == '\t') {
      // As FileCheck does: a run of blanks matches any run of blanks.
      re += "[ \\t]+";
      while (i < pattern.size() && (pattern[i] == ' ' || pattern[i] == '\t')) ++i;
      continue;
    }
    if (special.find(pattern[i]) != std::string::npos) re += '\\';
    re += pattern[i++];
  }
  return std::regex(re);
}

// The directive `line` holds for `prefix`, if any.
std::optional<Directive> parse_directive(const std::string& line, int number, const std::string& prefix) {
  static const std::pair<const char*, Kind> kSuffixes[] = {
      {":", Kind::Check}, {"-NEXT:", Kind::Next}, {"-SAME:", Kind::Same}, {"-NOT:", Kind::Not}};
  for (size_t at = line.find(prefix); at != std::string::npos; at = line.find(prefix, at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_' ||
                   line[at - 1] == '-'))
      continue;
    const size_t after = at + prefix.size();
    for (const auto& [suffix, kind] : kSuffixes) {
      if (line.compare(after, std::string(suffix).size(), suffix) != 0) continue;
      const std::string pattern = trim(line.substr(after + std::string(suffix).size()));
      return Directive{kind, prefix + suffix + " " + pattern, number, compile_pattern(pattern)};
    }
  }
  return std::nullopt;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first match of `re` in `line` at or after `column`: [begin, end) columns.
std::optional<std::pair<size_t, size_t>> find_in_line(const std::string& line, size_t column,
                                                      const std::regex& re) {
  if (column > line.size()) return std::nullopt;
  std::smatch m;
  if (!std::regex_search(line.cbegin() + static_cast<std::ptrdiff_t>(column), line.cend(), m, re))
    return std::nullopt;
  const size_t begin = column + static_cast<size_t>(m.position(0));
  return std::make_pair(begin, begin + static_cast<size_t>(m.length(0)));
}

class Matcher {
 public:
  explicit Matcher(const std::string& text) : lines_(lines_of(text)) {}

  // Empty when `d` holds after the previous directives, else why not.
  std::string apply(const Directive& d) {
    if (d.kind == Kind::Not) {
      pending_not_.push_back(&d);
      return "";
    }
    std::optional<std::pair<size_t, size_t>> found;
    size_t line = pos_.line;
    if (d.kind == Kind::Check) {
      for (; line < lines_.size() && !found; ++line)
        found = find_in_line(lines_[line], line == pos_.line ? pos_.column : 0, d.pattern);
      --line;
    } else if (d.kind == Kind::Same) {
      if (line < lines_.size()) found = find_in_line(lines_[line], pos_.column, d.pattern);
    } else if (matched_ && (line = pos_.line + 1) < lines_.size()) {
      found = find_in_line(lines_[line], 0, d.pattern);
    }
    if (!found) return failure(d, "has no match " + where());
    const Position start{line, found->first};
    if (std::string why = check_nots(start); !why.empty()) return why;
    pos_ = {line, found->second};
    matched_ = true;
    return "";
  }

  // Empty when no pending NOT matches from the last match to the end.
  std::string finish() { return check_nots({lines_.size(), 0}); }

 private:
  std::string where() const {
    if (!matched_) return "in the text";
    return "after line " + std::to_string(pos_.line + 1) + " of the text (\"" + lines_[pos_.line] + "\")";
  }

  static std::string failure(const Directive& d, const std::string& why) {
    return "line " + std::to_string(d.line) + " of the checks, " + d.spelling + ": " + why;
  }

  // Empty when no pending NOT matches between the last match and `until`; clears them.
  std::string check_nots(Position until) {
    std::vector<const Directive*> nots;
    nots.swap(pending_not_);
    for (const Directive* d : nots) {
      for (size_t line = pos_.line; line < lines_.size() && line <= until.line; ++line) {
        std::string text = lines_[line];
        if (line == until.line) text.resize(std::min(text.size(), until.column));
        if (find_in_line(text, line == pos_.line ? pos_.column : 0, d->pattern))
          return failure(
              *d, "matches line " + std::to_string(line + 1) + " of the text (\"" + lines_[line] + "\")");
      }
    }
    return "";
  }

  std::vector<std::string> lines_;
  Position pos_;
  bool matched_ = false;
  std::vector<const Directive*> pending_not_;
};

}  // namespace

std::string file_check(const std::string& text, const std::string& checks, const std::string& prefix) {
  std::vector<Directive> directives;
  int number = 0;
  for (const std::string& line : lines_of(checks))
    if (auto d = parse_directive(line, ++number, prefix)) directives.push_back(std::move(*d));
  if (directives.empty()) return "the checks hold no directive for " + prefix;
  Matcher matcher(text);
  for (const Directive& d : directives)
    if (std::string why = matcher.apply(d); !why.empty()) return why;
  return matcher.finish();
}

}  // namespace attn::test
