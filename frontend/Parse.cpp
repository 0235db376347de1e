// Parsing: ANTLR4 lexer and parser, syntax errors as located diagnostics, parse tree -> AST.
#include "frontend/Parse.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "AttnLexer.h"
#include "AttnParser.h"
#include "antlr4-runtime.h"
#include "frontend/Limits.h"

namespace attn {

namespace {

using grammar::AttnLexer;
using grammar::AttnParser;

static_assert(AttnLexer::kLineComment == AttnParser::LINE_COMMENT, "LINE_COMMENT numbering changed");

// Turns ANTLR's messages into ours ("expected ';'") and records where errors were.
class SyntaxErrorListener : public antlr4::BaseErrorListener {
 public:
  SyntaxErrorListener(const SourceManager& sm, FileId file, DiagnosticEngine& diags)
      : sm_(sm), file_(file), diags_(diags) {}

  void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line, size_t col,
                   const std::string& msg, std::exception_ptr) override {
    SourceRange r{file_, 0, 0};
    if (offending && offending->getType() != antlr4::Token::EOF) {
      r.begin = static_cast<uint32_t>(offending->getStartIndex());
      r.end = static_cast<uint32_t>(offending->getStopIndex() + 1);
    } else {
      r.begin = r.end = sm_.offset(file_, {static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)});
      if (offending && offending->getType() == antlr4::Token::EOF)
        r.begin = r.end = static_cast<uint32_t>(sm_.text(file_).size());
    }
    // One error per offending token: ANTLR's recovery can report the same place twice.
    if (!error_offsets.empty() && error_offsets.back() == r.begin) return;
    error_offsets.push_back(r.begin);
    std::string message = rewrite(msg, offending);
    diags_.error(r, message);
  }

  std::vector<uint32_t> error_offsets;

 private:
  static std::string rewrite(const std::string& msg, antlr4::Token* offending) {
    if (offending && offending->getType() == AttnLexer::BAD_CHAR)
      return "invalid character '" + printable(offending->getText()) + "'";
    auto starts = [&](const char* p) { return msg.rfind(p, 0) == 0; };
    std::string at = offending ? describe(offending) : "end of file";
    if (starts("missing ")) {
      size_t a = msg.find(" at ");
      return "expected " + msg.substr(8, a - 8) + " before " + at;
    }
    size_t exp = msg.find(" expecting ");
    if (starts("mismatched input") || starts("extraneous input")) {
      std::string e = exp == std::string::npos ? "" : msg.substr(exp + 11);
      // `(a` ends with a ')' unless it is a tuple: name the bracket, as before tuples existed.
      if (e == "{',', ')'}") return "expected ')' before " + at;
      return "unexpected " + at + (e.empty() ? "" : "; expected " + e);
    }
    if (starts("no viable alternative")) return "unexpected " + at;
    return msg;
  }

  static std::string describe(antlr4::Token* t) {
    if (t->getType() == antlr4::Token::EOF) return "end of file";
    return "'" + printable(t->getText()) + "'";
  }

  static std::string printable(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
      if (c == 0x7f)
        out += "\\u{non-ASCII}";
      else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
    return out;
  }

  const SourceManager& sm_;
  FileId file_;
  DiagnosticEngine& diags_;
};

// Builds AST nodes from the parse tree. Contexts that failed to parse are skipped.
class AstBuilder {
 public:
  AstBuilder(const SourceManager& sources, FileId file, DiagnosticEngine& diags)
      : sources_(sources), file_(file), diags_(diags) {}

  SourceRange range(antlr4::ParserRuleContext* ctx) const {
    auto* start = ctx->getStart();
    auto* stop = ctx->getStop();
    uint32_t b = static_cast<uint32_t>(start->getStartIndex());
    uint32_t e =
        stop && stop->getType() != antlr4::Token::EOF && stop->getStopIndex() + 1 >= start->getStartIndex()
            ? static_cast<uint32_t>(stop->getStopIndex() + 1)
            : b;
    return {file_, b, std::max(b, e)};
  }

  SourceRange range(antlr4::Token* t) const {
    return {file_, static_cast<uint32_t>(t->getStartIndex()), static_cast<uint32_t>(t->getStopIndex() + 1)};
  }

  // The text of a token or rule. ANTLR's getText() gives a string with room for 4 bytes a character
  // (its conversion from UTF-32 reserves the worst case), which a name of 4 to 7 characters keeps
  // on the heap; the AST holds one per name, so it keeps an exact copy (a short one inline).
  template <class Node>
  static std::string spelling(Node* x) {
    std::string s = x->getText();
    return std::string(s.data(), s.size());
  }

  // An expression's text: a view of the token in the source, which outlives the AST. (A literal's
  // context can also hold the tokens error recovery skipped, even half of a UTF-8 character: its
  // text is its token's.)
  std::string_view source_text(antlr4::Token* t) const { return sources_.slice(range(t)); }
  std::string_view source_text(antlr4::tree::TerminalNode* n) const { return source_text(n->getSymbol()); }

  static bool ok(antlr4::Token* t) {
    return t && t->getType() != antlr4::Token::EOF && t->getTokenIndex() != static_cast<size_t>(-1) &&
           t->getStopIndex() + 1 > t->getStartIndex();
  }

  std::unique_ptr<Module> build(AttnParser::FileContext* file) {
    auto m = std::make_unique<Module>();
    arena_ = &m->arena;
    m->file = file_;
    for (auto* item : file->item()) {
      if (auto* imp = item->importDecl()) {
        Import i;
        i.range = range(imp);
        if (auto* dn = imp->dottedName()) {
          i.spelling = spelling(dn);
          i.is_std = true;
        } else if (auto* s = imp->STRING()) {
          std::string t = spelling(s);
          i.spelling = t.size() >= 2 ? t.substr(1, t.size() - 2) : t;
        } else {
          continue;
        }
        m->imports.push_back(std::move(i));
      } else if (auto* def = item->definition()) {
        if (auto d = definition(def)) m->decls.push_back(std::move(d));
      } else if (auto* k = item->kernelDecl()) {
        if (auto d = kernel(k)) m->decls.push_back(std::move(d));
      }
    }
    for (auto& d : m->decls) {
      d->module = m.get();
      for (Param& p : d->params) p.owner = d.get();
    }
    return m;
  }

 private:
  std::unique_ptr<Decl> definition(AttnParser::DefinitionContext* def) {
    if (auto* ms = dynamic_cast<AttnParser::MaskOrScoreDefContext*>(def)) {
      if (!ok(ms->name) || !ms->expr()) return nullptr;
      bool is_mask = ms->kind->getType() == AttnLexer::MASK;
      auto d = decl(is_mask ? DeclKind::Mask : DeclKind::Score, def, ms->name);
      d->result = Type::of(is_mask ? TypeKind::Mask : TypeKind::Score);
      if (ms->paramList()) {
        d->has_param_list = true;
        d->params = params(ms->paramList());
      }
      d->body = expr(ms->expr());
      if (!d->body) return nullptr;
      return d;
    }
    if (auto* fn = dynamic_cast<AttnParser::FnDefContext*>(def)) {
      if (!ok(fn->name) || !fn->expr() || !fn->paramList() || (!fn->type() && !fn->tupleType()))
        return nullptr;
      auto d = decl(DeclKind::Fn, def, fn->name);
      d->has_param_list = true;
      d->params = params(fn->paramList());
      if (fn->type()) {
        d->result = type(fn->type());
      } else {
        // `-> (int, float)`: a tuple of scalars (Sema rejects other element types).
        std::vector<TypeKind> elements;
        for (auto* t : fn->tupleType()->type()) {
          Type element = type(t);
          if (element.kind == TypeKind::Tensor || element.kind == TypeKind::Tuple) element = Type::error();
          elements.push_back(element.kind);
        }
        d->result = Type::tuple(std::move(elements));
      }
      d->body = expr(fn->expr());
      if (!d->body) return nullptr;
      return d;
    }
    return nullptr;
  }

  std::unique_ptr<Decl> kernel(AttnParser::KernelDeclContext* k) {
    if (!ok(k->name)) return nullptr;
    auto d = decl(DeclKind::Kernel, k, k->name);
    if (k->paramList()) {
      d->has_param_list = true;
      d->params = params(k->paramList());
    }
    d->items.reserve(k->kernelItem().size());
    for (auto* it : k->kernelItem()) {
      if (!ok(it->key)) continue;
      KernelItem item;
      item.key = spelling(it->key);
      item.key_range = range(it->key);
      item.range = range(it);
      if (auto* e = it->expr()) {
        item.value = expr(e);
      } else if (auto* l = it->listValue()) {
        item.value = make(ExprKind::List, range(l));
        std::vector<ExprPtr> elements;
        for (auto* e : l->expr())
          if (auto x = expr(e)) elements.push_back(std::move(x));
        set_operands(*item.value, elements.data(), elements.size());
      }
      if (item.value) d->items.push_back(std::move(item));
    }
    return d;
  }

  std::unique_ptr<Decl> decl(DeclKind kind, antlr4::ParserRuleContext* ctx, antlr4::Token* name) {
    auto d = std::make_unique<Decl>();
    d->kind = kind;
    d->name = spelling(name);
    d->range = range(ctx);
    d->name_range = range(name);
    return d;
  }

  std::vector<Param> params(AttnParser::ParamListContext* pl) {
    std::vector<Param> out;
    out.reserve(pl->param().size());
    for (auto* p : pl->param()) {
      if (!ok(p->name) || !p->type()) continue;
      Param param;
      param.name = spelling(p->name);
      param.range = range(p);
      param.name_range = range(p->name);
      param.type = type(p->type());
      out.push_back(std::move(param));
    }
    return out;
  }

  Type type(AttnParser::TypeContext* t) {
    if (auto* s = dynamic_cast<AttnParser::ScalarTypeContext*>(t)) {
      if (!s->name) return Type::error();
      switch (s->name->getType()) {
        case AttnLexer::INT_T: return Type::of(TypeKind::Int);
        case AttnLexer::FLOAT_T: return Type::of(TypeKind::Float);
        case AttnLexer::BOOL_T: return Type::of(TypeKind::Bool);
        case AttnLexer::MASK: return Type::of(TypeKind::Mask);
        case AttnLexer::SCORE: return Type::of(TypeKind::Score);
      }
      return Type::error();
    }
    if (auto* tt = dynamic_cast<AttnParser::TensorTypeContext*>(t)) {
      if (!tt->elem) return Type::error();
      ElemType elem = ElemType::Bool;
      switch (tt->elem->getType()) {
        case AttnLexer::I32_T: elem = ElemType::I32; break;
        case AttnLexer::F32_T: elem = ElemType::F32; break;
        default: break;
      }
      std::vector<std::string> dims;
      for (auto* d : tt->dim()) dims.push_back(spelling(d));
      if (dims.empty()) return Type::error();
      return Type::tensor(elem, std::move(dims));
    }
    return Type::error();
  }

  ExprPtr make(ExprKind k, SourceRange r) { return ExprPtr(arena_->make<Expr>(k, r)); }
  ExprPtr make(ExprKind k, antlr4::ParserRuleContext* ctx) { return make(k, range(ctx)); }

  void set_operands(Expr& e, ExprPtr* items, size_t n) { e.set_operands(*arena_, items, n); }

  // expr: a literal, name, parenthesized expression or tuple, operator, pipe, conditional, call,
  // index, reduction or let (grammar/Attn.g4 gives precedence by alternative order). Returns null
  // when the context (or a required child) did not parse.
  ExprPtr expr(AttnParser::ExprContext* ctx) {
    if (!ctx || !ctx->getStart() || !ctx->getStop()) return nullptr;
    using P = AttnParser;
    if (auto* c = dynamic_cast<P::IntLitContext*>(ctx)) return int_literal(c);
    if (auto* c = dynamic_cast<P::FloatLitContext*>(ctx)) return float_literal(c);
    if (auto* c = dynamic_cast<P::BoolLitContext*>(ctx)) {
      auto e = make(ExprKind::BoolLit, c);
      e->set_text(source_text(c->TRUE() ? c->TRUE() : c->FALSE()));
      e->bool_value = e->text() == "true";
      return e;
    }
    if (auto* c = dynamic_cast<P::InfLitContext*>(ctx)) {
      auto e = make(ExprKind::InfLit, c);
      e->set_text("inf");
      return e;
    }
    if (auto* c = dynamic_cast<P::NameExprContext*>(ctx)) {
      if (!ok(c->name)) return nullptr;
      auto e = make(ExprKind::Name, c);
      e->set_text(source_text(c->name));
      return e;
    }
    // tuple: '(' expr (',' expr)+ ')'
    if (auto* c = dynamic_cast<P::ParenExprContext*>(ctx); c && c->expr().size() > 1)
      return operand_list(ExprKind::Tuple, c, c->expr());
    if (auto* c = dynamic_cast<P::ParenExprContext*>(ctx))
      return unary_like(ExprKind::Paren, c, c->expr(0), "");
    if (auto* c = dynamic_cast<P::UnaryExprContext*>(ctx))
      return unary_like(ExprKind::Unary, c, c->expr(), source_text(c->op));
    if (auto* c = dynamic_cast<P::MulExprContext*>(ctx)) return binary(c, c->expr(), source_text(c->op));
    if (auto* c = dynamic_cast<P::AddExprContext*>(ctx)) return binary(c, c->expr(), source_text(c->op));
    if (auto* c = dynamic_cast<P::CmpExprContext*>(ctx)) return binary(c, c->expr(), source_text(c->op));
    if (auto* c = dynamic_cast<P::ShiftExprContext*>(ctx)) return binary(c, c->expr(), source_text(c->op));
    if (auto* c = dynamic_cast<P::BitAndExprContext*>(ctx)) return binary(c, c->expr(), "&");
    if (auto* c = dynamic_cast<P::BitXorExprContext*>(ctx)) return binary(c, c->expr(), "^");
    if (auto* c = dynamic_cast<P::BitOrExprContext*>(ctx)) return binary(c, c->expr(), "|");
    if (auto* c = dynamic_cast<P::AndExprContext*>(ctx)) return binary(c, c->expr(), "&&");
    if (auto* c = dynamic_cast<P::OrExprContext*>(ctx)) return binary(c, c->expr(), "||");
    if (auto* c = dynamic_cast<P::PipeExprContext*>(ctx)) {
      auto e = binary(c, c->expr(), "|>");
      if (e) e->kind = ExprKind::Pipe;
      return e;
    }
    // cond: expr '?' expr ':' expr
    if (auto* c = dynamic_cast<P::CondExprContext*>(ctx))
      return c->expr().size() == 3 ? operand_list(ExprKind::Cond, c, c->expr()) : nullptr;
    if (auto* c = dynamic_cast<P::CallExprContext*>(ctx)) return call(c);
    // index: expr '[' expr (',' expr)* ']'
    if (auto* c = dynamic_cast<P::IndexExprContext*>(ctx))
      return c->expr().size() >= 2 ? operand_list(ExprKind::Index, c, c->expr()) : nullptr;
    if (auto* c = dynamic_cast<P::ReduceExprContext*>(ctx)) return reduction(c);
    if (auto* c = dynamic_cast<P::LetExprContext*>(ctx)) return let(c);
    return nullptr;
  }

  // INT, decimal or hex, `_` separators allowed: a hex literal spells a 32-bit pattern (0xFFFFFFFF
  // is -1); a decimal one a non-negative value.
  ExprPtr int_literal(AttnParser::IntLitContext* c) {
    auto e = make(ExprKind::IntLit, c);
    e->set_text(source_text(c->INT()));
    std::string digits;
    for (char ch : e->text())
      if (ch != '_') digits += ch;
    bool hex = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X');
    const char* first = digits.data() + (hex ? 2 : 0);
    auto res = std::from_chars(first, digits.data() + digits.size(), e->int_value, hex ? 16 : 10);
    if (res.ec != std::errc() || e->int_value > (hex ? 0xFFFFFFFFLL : 2147483647LL)) {
      diags_.error(e->range, "integer literal '" + std::string(e->text()) + "' does not fit in 32 bits");
      e->int_value = 0;
    } else if (e->int_value > 2147483647) {
      e->int_value -= int64_t{1} << 32;
    }
    return e;
  }

  // FLOAT, `_` separators allowed.
  ExprPtr float_literal(AttnParser::FloatLitContext* c) {
    auto e = make(ExprKind::FloatLit, c);
    e->set_text(source_text(c->FLOAT()));
    std::string digits;
    for (char ch : e->text())
      if (ch != '_') digits += ch;
    e->float_value = std::strtod(digits.c_str(), nullptr);
    return e;
  }

  // An expression of kind `k` whose operands are `parts`, in order (a tuple, conditional, index).
  ExprPtr operand_list(ExprKind k, antlr4::ParserRuleContext* ctx,
                       const std::vector<AttnParser::ExprContext*>& parts) {
    std::vector<ExprPtr> operands;
    for (auto* p : parts) {
      auto x = expr(p);
      if (!x) return nullptr;
      operands.push_back(std::move(x));
    }
    auto e = make(k, ctx);
    set_operands(*e, operands.data(), operands.size());
    return e;
  }

  // call: expr '(' (arg (',' arg)*)? ')'; arg: (NAME '=')? expr
  ExprPtr call(AttnParser::CallExprContext* c) {
    auto callee = expr(c->expr());
    if (!callee) return nullptr;
    auto e = make(ExprKind::Call, c);
    set_operands(*e, &callee, 1);
    for (auto* a : c->arg()) {
      Argument arg;
      if (a->name) {
        if (!ok(a->name)) return nullptr;
        arg.name = spelling(a->name);
        arg.name_range = range(a->name);
      }
      arg.value = expr(a->expr());
      if (!arg.value) return nullptr;
      e->args.push_back(std::move(arg));
    }
    return e;
  }

  // reduce: op '(' var '<' bound ':' body ')', op one of sum, any, all, max, min
  ExprPtr reduction(AttnParser::ReduceExprContext* c) {
    auto parts = c->expr();
    if (!ok(c->op) || !ok(c->var) || parts.size() != 2) return nullptr;
    std::string_view op = source_text(c->op);
    if (op != "sum" && op != "any" && op != "all" && op != "max" && op != "min") {
      diags_.error(range(c->op),
                   "unknown reduction '" + std::string(op) + "': expected sum, any, all, max or min");
      return nullptr;
    }
    auto e = make(ExprKind::Reduce, c);
    e->set_text(op);
    Binding var;
    var.name = spelling(c->var);
    var.name_range = range(c->var);
    var.is_reduction_var = true;
    var.value = expr(parts[0]);
    auto body = expr(parts[1]);
    if (!var.value || !body) return nullptr;
    e->bindings.push_back(std::move(var));
    set_operands(*e, &body, 1);
    return e;
  }

  // let: 'let' binding (',' binding)* ';' expr
  ExprPtr let(AttnParser::LetExprContext* c) {
    auto e = make(ExprKind::Let, c);
    for (auto* b : c->binding()) {
      std::optional<Binding> bind = let_binding(b);
      if (!bind) return nullptr;
      e->bindings.push_back(std::move(*bind));
    }
    auto body = expr(c->expr());
    if (!body || e->bindings.empty()) return nullptr;
    set_operands(*e, &body, 1);
    return e;
  }

  // binding: NAME '=' expr | '(' NAME (',' NAME)+ ')' '=' expr (one element binding per name)
  std::optional<Binding> let_binding(AttnParser::BindingContext* b) {
    Binding bind;
    if (b->name) {
      if (!ok(b->name)) return std::nullopt;
      bind.name = spelling(b->name);
      bind.name_range = range(b->name);
    } else {
      for (antlr4::Token* n : b->names) {
        if (!ok(n)) return std::nullopt;
        Binding element;
        element.name = spelling(n);
        element.name_range = range(n);
        bind.elements.push_back(std::move(element));
      }
      if (bind.elements.empty()) return std::nullopt;
      bind.name_range = {file_, bind.elements.front().name_range.begin, bind.elements.back().name_range.end};
    }
    bind.value = expr(b->expr());
    if (!bind.value) return std::nullopt;
    return bind;
  }

  ExprPtr unary_like(ExprKind k, AttnParser::ExprContext* ctx, AttnParser::ExprContext* inner,
                     std::string_view op) {
    auto x = expr(inner);
    if (!x) return nullptr;
    auto e = make(k, ctx);
    e->set_text(op);
    set_operands(*e, &x, 1);
    return e;
  }

  ExprPtr binary(AttnParser::ExprContext* ctx, std::vector<AttnParser::ExprContext*> parts,
                 std::string_view op) {
    if (parts.size() != 2) return nullptr;
    auto l = expr(parts[0]);
    auto r = expr(parts[1]);
    if (!l || !r) return nullptr;
    auto e = make(ExprKind::Binary, ctx);
    e->set_text(op);
    ExprPtr operands[] = {std::move(l), std::move(r)};
    set_operands(*e, operands, 2);
    return e;
  }

  const SourceManager& sources_;
  FileId file_;
  DiagnosticEngine& diags_;
  Arena* arena_ = nullptr;  ///< the module's being built
};

// Validates UTF-8 and maps every non-ASCII byte to DEL (0x7f), so that ANTLR's code-point indices
// equal byte offsets. Non-ASCII text is only legal inside comments and strings; elsewhere DEL
// lexes as an invalid character.
std::string to_lexer_text(const std::string& text, FileId file, DiagnosticEngine& diags) {
  std::string out = text;
  bool reported = false;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    bool valid = len > 0 && i + len <= text.size();
    for (size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!valid) {
      if (!reported)
        diags.error({file, static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                    "invalid UTF-8 in source file");
      reported = true;
      len = 1;
    }
    if (len > 1 || !valid || c == 0)
      for (size_t k = 0; k < len; ++k) out[i + k] = '\x7f';
    i += len;
  }
  return out;
}

// The parser and every later pass recurse as deep as the expression tree. Before parsing, this
// bounds that depth from the tokens alone (an over-estimate: never below the tree's depth): each
// open bracket nests, and so does every operator and `let` of a chain at one bracket level until
// a `,` starts a sibling or a `;` (or a declaration's keyword) ends the statement. Returns where
// the bound is first crossed.
std::optional<uint32_t> first_too_deep(const std::vector<antlr4::Token*>& tokens) {
  struct Level {
    int lets = 0;          // `let` bodies and the operators before them: nest until the level ends
    int ops = 0;           // operators of the current chain
    int pending_lets = 0;  // `let`s whose bindings' `;` has not come yet
  };
  std::vector<Level> levels(1);
  int64_t depth = 0;  // levels beyond the first, plus every level's lets and ops
  for (antlr4::Token* t : tokens) {
    if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
    Level& top = levels.back();
    switch (t->getType()) {
      case AttnLexer::LPAREN:
      case AttnLexer::LBRACK:
      case AttnLexer::LBRACE:
        ++top.ops;  // a call or index chains like an operator: f(a)(b)[c]
        levels.emplace_back();
        depth += 2;
        break;
      case AttnLexer::RPAREN:
      case AttnLexer::RBRACK:
      case AttnLexer::RBRACE:
        if (levels.size() > 1) {
          depth -= 1 + top.lets + top.ops;
          levels.pop_back();
        }
        break;
      case AttnLexer::COMMA:
        depth -= top.ops;
        top.ops = 0;
        break;
      case AttnLexer::IMPORT:
      case AttnLexer::MASK:
      case AttnLexer::FN:
      case AttnLexer::KERNEL:
        // Outside brackets these keywords start a declaration (a kernel ends without a `;`).
        if (levels.size() == 1) {
          depth = 0;
          top = Level{};
        }
        break;
      case AttnLexer::LET:
        top.lets += top.ops + 1;
        top.ops = 0;
        ++top.pending_lets;
        ++depth;
        break;
      case AttnLexer::SEMI:
        depth -= top.ops;
        top.ops = 0;
        if (top.pending_lets > 0) {
          --top.pending_lets;  // the body of a `let` follows, one level down
        } else {
          depth -= top.lets;  // the end of a statement
          top.lets = 0;
        }
        break;
      case AttnLexer::PLUS:
      case AttnLexer::MINUS:
      case AttnLexer::STAR:
      case AttnLexer::SLASH:
      case AttnLexer::FLOORDIV:
      case AttnLexer::PERCENT:
      case AttnLexer::EQ:
      case AttnLexer::NE:
      case AttnLexer::LT:
      case AttnLexer::LE:
      case AttnLexer::GT:
      case AttnLexer::GE:
      case AttnLexer::ANDAND:
      case AttnLexer::OROR:
      case AttnLexer::QUESTION:
      case AttnLexer::COLON:
      case AttnLexer::PIPE:
      case AttnLexer::NOT:
      case AttnLexer::TILDE:
      case AttnLexer::SHL:
      case AttnLexer::SHR:
      case AttnLexer::AMP:
      case AttnLexer::BAR:
      case AttnLexer::CARET:
        ++top.ops;
        ++depth;
        break;
      default: break;
    }
    if (depth > kMaxExpressionDepth) return static_cast<uint32_t>(t->getStartIndex());
  }
  return std::nullopt;
}

// Doc comment of a declaration: the comment lines directly above it (no blank line between).
std::string doc_comment(const SourceManager& sm, FileId file, const std::vector<Comment>& comments,
                        const Decl& d) {
  uint32_t line = sm.line_col(file, d.range.begin).line;
  std::vector<std::string> lines;
  for (auto it = comments.rbegin(); it != comments.rend(); ++it) {
    if (it->range.begin >= d.range.begin) continue;
    uint32_t end_line = sm.line_col(file, it->range.end > 0 ? it->range.end - 1 : 0).line;
    LineCol begin = sm.line_col(file, it->range.begin);
    if (end_line + 1 != line) break;
    // Only whole-line comments count (not a trailing comment of the previous declaration).
    std::string_view before = sm.line_text(file, begin.line).substr(0, begin.col - 1);
    if (before.find_first_not_of(" \t") != std::string_view::npos) break;
    std::string t = it->text;
    if (t.rfind("///", 0) == 0)
      t = t.substr(3);
    else if (t.rfind("//", 0) == 0)
      t = t.substr(2);
    else if (t.rfind("/*", 0) == 0)
      t = t.substr(2, t.size() >= 4 ? t.size() - 4 : 0);
    if (!t.empty() && t[0] == ' ') t = t.substr(1);
    lines.push_back(t);
    line = begin.line;
  }
  std::string doc;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) doc += (doc.empty() ? "" : "\n") + *it;
  return doc;
}

}  // namespace

ParseResult parse_module(const SourceManager& sources, FileId file, DiagnosticEngine& diags) {
  ParseResult result;
  std::string text = to_lexer_text(sources.text(file), file, diags);
  antlr4::ANTLRInputStream input(text);
  AttnLexer lexer(&input);
  lexer.removeErrorListeners();
  SyntaxErrorListener listener(sources, file, diags);
  lexer.addErrorListener(&listener);
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();

  for (antlr4::Token* t : tokens.getTokens()) {
    if (t->getChannel() != 2) continue;
    uint32_t b = static_cast<uint32_t>(t->getStartIndex()), e = static_cast<uint32_t>(t->getStopIndex() + 1);
    result.comments.push_back({{file, b, e}, sources.text(file).substr(b, e - b)});
  }
  if (auto at = first_too_deep(tokens.getTokens())) {
    diags.error({file, *at, *at + 1}, "expression nested too deeply (attnc accepts " +
                                          std::to_string(kMaxExpressionDepth) +
                                          " levels; each bracket, 'let' and operator of a chain is one)");
    result.module = std::make_unique<Module>();
    result.module->file = file;
    return result;
  }

  AttnParser parser(&tokens);
  parser.removeErrorListeners();
  parser.addErrorListener(&listener);
  AttnParser::FileContext* tree = parser.file();
  AstBuilder builder(sources, file, diags);
  result.module = builder.build(tree);
  for (auto& d : result.module->decls) d->doc = doc_comment(sources, file, result.comments, *d);
  return result;
}

}  // namespace attn
