// Feature: semantic tokens. The scanner gives keywords, literals, comments and operators; the
// occurrence index says what each name is (definition, parameter, local, index, builtin, ...).
#include "lsp/Features.h"
#include "lsp/Tokens.h"

namespace attn::lsp {

namespace {

enum Type {
  Namespace,
  TypeName,
  Class,
  Function,
  Parameter,
  Variable,
  Property,
  Keyword,
  Comment,
  String,
  Number,
  Operator,
  EnumMember
};
enum Modifier { Declaration = 1, Readonly = 2, DefaultLibrary = 4, Documentation = 8 };

struct Classified {
  int type = -1;
  int modifiers = 0;
};

Classified classify_name(const Occurrence& o) {
  int decl = o.declaration ? Declaration : 0;
  switch (o.kind) {
    case OccurrenceKind::Decl: return {o.decl && o.decl->kind == DeclKind::Kernel ? Class : Function, decl};
    case OccurrenceKind::Param: return {Parameter, decl};
    case OccurrenceKind::Local: return {Variable, decl | Readonly};
    case OccurrenceKind::Index:
    case OccurrenceKind::Score: return {Variable, Readonly | DefaultLibrary};
    case OccurrenceKind::Builtin: return {Function, DefaultLibrary};
    case OccurrenceKind::KernelOption: return {Property, 0};
    case OccurrenceKind::Module: return {Namespace, 0};
  }
  return {};
}

Classified classify(const Analysis& a, const Token& t) {
  if (t.kind == TokenKind::Identifier || t.kind == TokenKind::Keyword) {
    const Occurrence* o = a.occurrence_at(t.begin);
    if (o && o->range.begin == t.begin && o->range.end >= t.end && o->kind != OccurrenceKind::Module)
      return classify_name(*o);
  }
  switch (t.kind) {
    case TokenKind::Keyword:
      if (t.is("int") || t.is("float") || t.is("bool") || t.is("i32") || t.is("f32") || t.is("tensor"))
        return {TypeName, DefaultLibrary};
      if (t.is("inf")) return {Number, 0};
      return {Keyword, 0};
    case TokenKind::Identifier:
      if (t.is("bf16") || t.is("f16") || t.is("e4m3") || t.is("e5m2")) return {EnumMember, DefaultLibrary};
      return {};
    case TokenKind::Number: return {Number, 0};
    case TokenKind::String: return {String, 0};
    case TokenKind::Comment: return {Comment, t.text.substr(0, 3) == "///" ? Documentation : 0};
    case TokenKind::Operator: return {Operator, 0};
    default: return {};
  }
}

}  // namespace

const std::vector<std::string>& semantic_token_types() {
  static const std::vector<std::string> types = {
      "namespace", "type",    "class",  "function", "parameter", "variable",  "property",
      "keyword",   "comment", "string", "number",   "operator",  "enumMember"};
  return types;
}

const std::vector<std::string>& semantic_token_modifiers() {
  static const std::vector<std::string> mods = {"declaration", "readonly", "defaultLibrary", "documentation"};
  return mods;
}

std::vector<uint32_t> semantic_tokens(const Analysis& a) {
  std::string_view text = a.text();
  PositionWalker walker(text);
  std::vector<uint32_t> data;
  Position prev{0, 0};
  auto emit = [&](uint32_t b, uint32_t e, Classified c) {
    Position start = walker.advance(b);
    int length = utf16_length(text.substr(b, e - b));
    if (length <= 0) return;
    data.push_back(static_cast<uint32_t>(start.line - prev.line));
    data.push_back(
        static_cast<uint32_t>(start.line == prev.line ? start.character - prev.character : start.character));
    data.push_back(static_cast<uint32_t>(length));
    data.push_back(static_cast<uint32_t>(c.type));
    data.push_back(static_cast<uint32_t>(c.modifiers));
    prev = start;
  };
  for (const Token& t : scan_tokens(text)) {
    Classified c = classify(a, t);
    if (c.type < 0) continue;
    // Tokens may not span lines: a block comment becomes one token per line.
    uint32_t b = t.begin;
    while (b < t.end) {
      size_t nl = text.find('\n', b);
      uint32_t e = nl == std::string_view::npos || nl >= t.end ? t.end : static_cast<uint32_t>(nl);
      if (e > b && !(e - b == 1 && text[b] == '\r')) emit(b, e, c);
      b = e + 1;
    }
  }
  return data;
}

}  // namespace attn::lsp
