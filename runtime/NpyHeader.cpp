// parse_npy_header: a strict reader of the Python literal dict a .npy header holds.
#include "runtime/NpyHeader.h"

#include <cctype>
#include <charconv>
#include <set>

#include "runtime/Npy.h"

namespace attn {
namespace {

class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  // dict := '{' [entry (',' entry)* [',']] '}', whitespace around every token, nothing after.
  NpyHeader parse() {
    NpyHeader h;
    std::set<std::string> seen;
    skip_space();
    expect('{', "the header must be a dict ('{...}')");
    skip_space();
    while (peek() != '}') {
      const size_t key_at = pos_;
      std::string key = string_literal("a key");
      if (!seen.insert(key).second) fail("duplicated key '" + key + "' at byte " + std::to_string(key_at));
      skip_space();
      expect(':', "expected ':' after '" + key + "'");
      skip_space();
      if (key == "descr") {
        if (peek() == '[') fail("structured dtypes ('descr' as a list) are not supported");
        h.descr = string_literal("'descr' as a string");
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
      } else if (key == "shape") {
        h.shape = shape();
      } else {
        fail("unknown key '" + key + "' (a .npy header has 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != '}') {
        fail("expected ',' or '}' at byte " + std::to_string(pos_));
      }
    }
    ++pos_;
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the header dict at byte " + std::to_string(pos_));
    for (const char* key : {"descr", "fortran_order", "shape"})
      if (!seen.count(key)) fail(std::string("the header has no '") + key + "'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw NpyError(path_ + ": not a valid .npy header: " + why);
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  void expect(char c, const std::string& why) {
    if (peek() != c) fail(why);
    ++pos_;
  }

  // A quoted string without escapes ('...' or "...").
  std::string string_literal(const std::string& what) {
    char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected " + what + " at byte " + std::to_string(pos_));
    size_t end = s_.find(quote, pos_ + 1);
    if (end == std::string::npos) fail("unterminated string at byte " + std::to_string(pos_));
    std::string out = s_.substr(pos_ + 1, end - pos_ - 1);
    if (out.find_first_of("\\\n") != std::string::npos) fail("escapes in strings are not supported");
    pos_ = end + 1;
    return out;
  }

  // The word up to the next delimiter, for messages.
  std::string word() const {
    size_t end = s_.find_first_of(",)} \t\n", pos_);
    return s_.substr(pos_, (end == std::string::npos ? s_.size() : end) - pos_);
  }

  bool boolean() {
    for (auto [text, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      std::string t = text;
      if (s_.compare(pos_, t.size(), t) == 0) {
        pos_ += t.size();
        if (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_') break;
        return value;
      }
    }
    fail("'fortran_order' must be True or False, not '" + word() + "'");
  }

  // tuple := '(' ')' | '(' int ',' ')' | '(' int (',' int)+ [','] ')'
  std::vector<int64_t> shape() {
    expect('(', "'shape' must be a tuple such as (2, 3) or (5,), not '" + word() + "'");
    std::vector<int64_t> dims;
    bool comma = false;
    skip_space();
    while (peek() != ')') {
      size_t begin = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      const char next = peek();
      const bool delimited = next == ',' || next == ')' || next == ' ' || next == '\t' || next == '\n';
      // Decimal only, and no leading zero (Python 3 refuses `010`).
      if (pos_ == begin || !delimited || (s_[begin] == '0' && pos_ - begin > 1)) {
        pos_ = begin;
        fail("a dimension of 'shape' must be a non-negative decimal integer, not '" + word() + "'");
      }
      int64_t v = 0;
      auto r = std::from_chars(s_.data() + begin, s_.data() + pos_, v);
      if (r.ec != std::errc())
        fail("dimension " + s_.substr(begin, pos_ - begin) + " of 'shape' is too large");
      dims.push_back(v);
      skip_space();
      comma = peek() == ',';
      if (comma) {
        ++pos_;
        skip_space();
      } else if (peek() != ')') {
        fail("expected ',' or ')' in 'shape' at byte " + std::to_string(pos_));
      }
    }
    ++pos_;
    // `(5)` is the number 5 in Python, not a tuple.
    if (dims.size() == 1 && !comma) fail("'shape' must be a tuple: write (" + std::to_string(dims[0]) + ",)");
    return dims;
  }

  const std::string& s_;
  const std::string& path_;
  size_t pos_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(const std::string& text, const std::string& path) {
  return HeaderParser(text, path).parse();
}

}  // namespace attn
