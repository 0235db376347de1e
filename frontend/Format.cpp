// The formatter works on the token stream (comments included), so nothing is ever lost: it only
// decides the whitespace between tokens.
#include "frontend/Format.h"

#include "AttnLexer.h"
#include "antlr4-runtime.h"
#include "frontend/Parse.h"

namespace attn {

namespace {

using grammar::AttnLexer;

struct Tok {
  size_t type;
  uint32_t begin, end;
  bool comment;
};

bool is_operand_end(size_t t) {
  switch (t) {
    case AttnLexer::ID:
    case AttnLexer::SCORE:
    case AttnLexer::INT:
    case AttnLexer::FLOAT:
    case AttnLexer::RPAREN:
    case AttnLexer::RBRACK:
    case AttnLexer::TRUE:
    case AttnLexer::FALSE:
    case AttnLexer::INF: return true;
    default: return false;
  }
}

class Formatter {
 public:
  Formatter(const std::string& text, std::vector<Tok> toks) : text_(text), toks_(std::move(toks)) {}

  std::string run() {
    const Tok* prev = nullptr;
    size_t prev_sig = 0;  // last non-comment token type
    bool prev_unary = false;
    for (const Tok& t : toks_) {
      int newlines = prev ? count_newlines(prev->end, t.begin) : 0;
      if (t.type == AttnLexer::RBRACE) --brace_depth_;
      if (newlines > 0) {
        out_ += newlines > 1 ? "\n\n" : "\n";
        int indent = 2 * std::max(0, brace_depth_) + (in_statement_ && !t.comment ? 4 : 0);
        if (in_statement_ && t.comment) indent += 4;
        out_ += std::string(static_cast<size_t>(indent), ' ');
      } else if (prev) {
        out_ += space_between(*prev, prev_sig, prev_unary, t);
      }
      std::string_view word(text_.data() + t.begin, t.end - t.begin);
      if (t.comment) {
        // Strip trailing spaces of each comment line.
        std::string c(word);
        while (!c.empty() && (c.back() == ' ' || c.back() == '\t' || c.back() == '\r')) c.pop_back();
        out_ += c;
      } else {
        out_ += word;
      }
      if (!t.comment) {
        bool unary = (t.type == AttnLexer::MINUS || t.type == AttnLexer::NOT || t.type == AttnLexer::TILDE) &&
                     !is_operand_end(prev_sig);
        update_state(t, prev_sig);
        prev_sig = t.type;
        prev_unary = unary;
      }
      prev = &t;
    }
    // Trailing whitespace off every line, one newline at the end.
    std::string clean;
    size_t start = 0;
    while (start <= out_.size()) {
      size_t nl = out_.find('\n', start);
      std::string line = out_.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
      clean += line;
      if (nl == std::string::npos) break;
      clean += '\n';
      start = nl + 1;
    }
    while (!clean.empty() && clean.back() == '\n') clean.pop_back();
    size_t first = clean.find_first_not_of('\n');
    clean = first == std::string::npos ? "" : clean.substr(first);
    return clean.empty() ? clean : clean + "\n";
  }

 private:
  int count_newlines(uint32_t from, uint32_t to) const {
    int n = 0;
    for (uint32_t i = from; i < to && i < text_.size(); ++i) n += text_[i] == '\n';
    return n;
  }

  std::string space_between(const Tok& prev, size_t prev_sig, bool prev_unary, const Tok& t) {
    if (t.comment) return "  ";
    if (prev.comment) return " ";  // a block comment followed by code on one line
    size_t p = prev.type, c = t.type;
    if (c == AttnLexer::COMMA || c == AttnLexer::SEMI) return "";
    if (p == AttnLexer::LPAREN || p == AttnLexer::LBRACK) return "";
    if (c == AttnLexer::RPAREN || c == AttnLexer::RBRACK) return "";
    if (p == AttnLexer::DOT || c == AttnLexer::DOT) return "";
    if (prev_unary) return "";
    // `int(x)` and `float(x)` are calls although their names are type keywords.
    if (c == AttnLexer::LPAREN && (p == AttnLexer::INT_T || p == AttnLexer::FLOAT_T)) return "";
    if (c == AttnLexer::LPAREN || c == AttnLexer::LBRACK) return is_operand_end(p) || type_closed_ ? "" : " ";
    if (p == AttnLexer::TENSOR && c == AttnLexer::LT) return "";
    if (in_angle_ || (c == AttnLexer::GT && angle_closing_)) return "";
    if (c == AttnLexer::COLON && !colon_is_ternary_) return "";
    (void)prev_sig;
    return " ";
  }

  void update_state(const Tok& t, size_t prev_sig) {
    type_closed_ = false;
    angle_closing_ = false;
    switch (t.type) {
      case AttnLexer::LT:
        if (prev_sig == AttnLexer::TENSOR) in_angle_ = true;
        break;
      case AttnLexer::I32_T:
      case AttnLexer::F32_T:
      case AttnLexer::BOOL_T:
        if (in_angle_) {
          in_angle_ = false;
          angle_closing_ = true;
        }
        break;
      case AttnLexer::GT:
        if (prev_sig == AttnLexer::I32_T || prev_sig == AttnLexer::F32_T || prev_sig == AttnLexer::BOOL_T)
          type_closed_ = true;
        break;
      case AttnLexer::QUESTION: ++ternaries_; break;
      case AttnLexer::LPAREN:
      case AttnLexer::LBRACK: ++paren_depth_; break;
      case AttnLexer::RPAREN:
      case AttnLexer::RBRACK: paren_depth_ = std::max(0, paren_depth_ - 1); break;
      case AttnLexer::LET: ++lets_; break;
      case AttnLexer::LBRACE:
        ++brace_depth_;
        in_statement_ = false;
        return;
      case AttnLexer::RBRACE: in_statement_ = false; return;
      case AttnLexer::SEMI:
        if (lets_ > 0) {
          --lets_;
        } else {
          in_statement_ = false;
          ternaries_ = 0;
          return;
        }
        break;
      default: break;
    }
    colon_is_ternary_ = false;
    in_statement_ = true;
    // The next ':' closes a '?' when one is open.
    colon_is_ternary_ = ternaries_ > 0;
    if (t.type == AttnLexer::COLON && ternaries_ > 0) --ternaries_;
    colon_is_ternary_ = ternaries_ > 0;
  }

  const std::string& text_;
  std::vector<Tok> toks_;
  std::string out_;
  int brace_depth_ = 0, paren_depth_ = 0, lets_ = 0, ternaries_ = 0;
  bool in_statement_ = false, in_angle_ = false, angle_closing_ = false, type_closed_ = false;
  bool colon_is_ternary_ = false;
};

}  // namespace

std::optional<std::string> format_source(const SourceManager& sm, FileId file, DiagnosticEngine& diags) {
  size_t before = diags.error_count();
  ParseResult parsed = parse_module(sm, file, diags);
  if (diags.error_count() > before) return std::nullopt;

  // Same byte mapping as the parser: non-ASCII only occurs in comments of a file that parsed.
  std::string lex_text = sm.text(file);
  for (char& ch : lex_text)
    if (static_cast<unsigned char>(ch) >= 0x80) ch = '\x7f';
  antlr4::ANTLRInputStream input(lex_text);
  AttnLexer lexer(&input);
  lexer.removeErrorListeners();
  std::vector<Tok> toks;
  for (auto t = lexer.nextToken(); t->getType() != antlr4::Token::EOF; t = lexer.nextToken()) {
    if (t->getType() == AttnLexer::WS) continue;
    toks.push_back({t->getType(), static_cast<uint32_t>(t->getStartIndex()),
                    static_cast<uint32_t>(t->getStopIndex() + 1), t->getChannel() == 2});
  }
  return Formatter(sm.text(file), std::move(toks)).run();
}

}  // namespace attn
