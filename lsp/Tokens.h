// A small tolerant scanner of .attn text for the editor features that must work on half-typed
// code (completion context, signature help, semantic tokens). The compiler's lexer is ANTLR's.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace attn::lsp {

/// What a scanned token is.
enum class TokenKind { Keyword, Identifier, Number, String, Comment, Operator, Punctuation, Bad };

/// One token: its kind and byte range in the scanned text.
struct Token {
  TokenKind kind;
  uint32_t begin, end;
  std::string_view text;
  bool is(std::string_view s) const { return text == s; }
};

/// Every token of `text`, comments included; never fails (unknown bytes become Bad tokens).
std::vector<Token> scan_tokens(std::string_view text);

/// True for the language's keywords (`mask`, `let`, `tensor`, ...).
bool is_keyword(std::string_view word);

}  // namespace attn::lsp
