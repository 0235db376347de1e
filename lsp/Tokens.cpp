// The tolerant .attn scanner: identifiers, keywords, numbers, strings, comments, operators.
#include "lsp/Tokens.h"

#include <algorithm>
#include <array>

namespace attn::lsp {

namespace {

constexpr std::array<std::string_view, 15> kKeywords = {"import", "mask",   "score", "fn",    "kernel",
                                                        "let",    "tensor", "int",   "float", "bool",
                                                        "i32",    "f32",    "true",  "false", "inf"};

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

// `//` after an operand on the same line is floor division (as in the grammar's lexer).
bool ends_operand(const Token& t) {
  if (t.kind == TokenKind::Identifier || t.kind == TokenKind::Number) return true;
  return t.is(")") || t.is("]") || t.is("score") || t.is("true") || t.is("false") || t.is("inf");
}

}  // namespace

bool is_keyword(std::string_view word) {
  for (std::string_view k : kKeywords)
    if (k == word) return true;
  return false;
}

std::vector<Token> scan_tokens(std::string_view s) {
  std::vector<Token> out;
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t last = kNone;  // index of the last significant (non-comment) token
  bool line_start = true;
  size_t i = 0;
  auto push = [&](TokenKind k, size_t b, size_t e) {
    out.push_back({k, static_cast<uint32_t>(b), static_cast<uint32_t>(e), s.substr(b, e - b)});
    if (k != TokenKind::Comment) line_start = false;
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      if (c == '\n') line_start = true;
      ++i;
      continue;
    }
    size_t b = i;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/' &&
        (line_start || last == kNone || !ends_operand(out[last]))) {
      while (i < s.size() && s[i] != '\n') ++i;
      push(TokenKind::Comment, b, i);
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      i = e == std::string_view::npos ? s.size() : e + 2;
      push(TokenKind::Comment, b, i);
      continue;
    }
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      push(is_keyword(s.substr(b, i - b)) ? TokenKind::Keyword : TokenKind::Identifier, b, i);
    } else if (digit(c)) {
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.' ||
                              ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      push(TokenKind::Number, b, i);
    } else if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      if (i < s.size() && s[i] == '"') ++i;
      i = std::min(i, s.size());
      push(TokenKind::String, b, i);
    } else {
      static constexpr std::string_view two[] = {"//", "|>", "||", "&&", "->", "==", "!=", "<=", ">="};
      size_t len = 1;
      for (std::string_view t : two)
        if (s.substr(i, 2) == t) len = 2;
      i += len;
      bool punct = std::string_view("(){}[];,.:").find(c) != std::string_view::npos && len == 1;
      bool op = std::string_view("=+-*/%!?<>|&").find(c) != std::string_view::npos || len == 2;
      push(punct ? TokenKind::Punctuation : op ? TokenKind::Operator : TokenKind::Bad, b, i);
      if (!punct && !op) {
        // One bad token per UTF-8 sequence, so a non-ASCII character is one token.
        while (i < s.size() && (static_cast<unsigned char>(s[i]) >> 6) == 0x2) ++i;
        out.back().end = static_cast<uint32_t>(i);
        out.back().text = s.substr(b, i - b);
      }
    }
    last = out.size() - 1;
  }
  return out;
}

}  // namespace attn::lsp
