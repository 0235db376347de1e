// Token-based cursor context for completion and signature help.
#include "lsp/CursorContext.h"

#include "frontend/Builtins.h"
#include "lsp/Tokens.h"

namespace attn::lsp {

namespace {

bool starts_item(const Token& t) {
  return t.is("import") || t.is("mask") || t.is("score") || t.is("fn") || t.is("kernel");
}

bool is_name(const Token& t) { return t.kind == TokenKind::Identifier || t.is("score"); }

// A bracket still open at the cursor.
struct Open {
  char ch;
  size_t index;  // token index of the bracket
};

// What the walk over the item's tokens leaves at the cursor.
struct ItemScan {
  std::vector<Open> stack;  // brackets open at the cursor, outermost first
  size_t item_start = 0;    // token index of the item's keyword
  bool in_item = false;
  size_t key_start = 0;  // first token of the current kernel `key = value;` line
};

// The tokens of the item the cursor is in, from the last line before `offset` that begins with an
// item keyword (only the current item matters), with offsets in `text`.
std::vector<Token> item_tokens(std::string_view text, uint32_t offset) {
  size_t start = 0;
  for (size_t nl = text.rfind('\n', offset ? offset - 1 : 0); nl != std::string_view::npos && nl > 0;
       nl = text.rfind('\n', nl - 1)) {
    std::string_view line = text.substr(nl + 1, offset - (nl + 1));
    bool item = false;
    for (std::string_view kw : {"import ", "mask ", "score ", "fn ", "kernel "})
      item = item || line.substr(0, kw.size()) == kw;
    if (item) {
      start = nl + 1;
      break;
    }
  }
  std::vector<Token> all = scan_tokens(text.substr(start, offset - start));
  for (Token& t : all) {
    t.begin += static_cast<uint32_t>(start);
    t.end += static_cast<uint32_t>(start);
  }
  return all;
}

// Whether the cursor is inside a comment or string (a comment runs to the end of its line, which
// the cut keeps).
bool in_comment_or_string(const std::vector<Token>& all, uint32_t offset) {
  if (all.empty()) return false;
  const Token& last = all.back();
  bool open_comment =
      last.kind == TokenKind::Comment && (last.text.substr(0, 2) == "//" || last.text.size() < 4 ||
                                          last.text.substr(last.text.size() - 2) != "*/");
  bool open_string = last.kind == TokenKind::String && (last.text.size() < 2 || last.text.back() != '"');
  return last.end == offset && (open_comment || open_string);
}

// Walks the tokens before the cursor: which item they are in, its name, parameters and let
// bindings (into `c`), the brackets open at the cursor and where the kernel key began.
ItemScan scan_item(std::string_view text, const std::vector<Token>& toks, CursorContext& c) {
  ItemScan scan;
  std::vector<Open>& stack = scan.stack;
  int let_depth = -1;
  for (size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    const Token* prev = i ? &toks[i - 1] : nullptr;
    // A keyword at the start of a line begins the next item even when the one before is
    // unfinished (half-typed code); `kernel`, `fn` and `import` can begin nothing else.
    bool line_start = t.begin == 0 || text[t.begin - 1] == '\n';
    bool always = t.is("kernel") || t.is("fn") || t.is("import");
    if (starts_item(t) &&
        ((line_start && (always || stack.empty())) ||
         (stack.empty() && (!prev || prev->is(";") || prev->is("}") || !scan.in_item || always)))) {
      stack.clear();
      scan.in_item = true;
      scan.item_start = i;
      c.item_keyword = std::string(t.text);
      c.item_name.clear();
      c.params.clear();
      c.locals.clear();
      let_depth = -1;
      if (i + 1 < toks.size() && is_name(toks[i + 1])) c.item_name = std::string(toks[i + 1].text);
      continue;
    }
    if (t.is("(") || t.is("[") || t.is("{")) stack.push_back({t.text[0], i});
    if (t.is(")") || t.is("]") || t.is("}")) {
      // Close up to the matching opener: `}` also closes a `(` left open inside the block.
      char open = t.is(")") ? '(' : t.is("]") ? '[' : '{';
      for (size_t k = stack.size(); k > 0; --k)
        if (stack[k - 1].ch == open) {
          stack.resize(k - 1);
          break;
        }
    }
    // The `;` after let bindings continues the item; any other `;` at top level ends it.
    bool ends_let = let_depth == static_cast<int>(stack.size()) && t.is(";");
    if (stack.empty() && ((t.is(";") && !ends_let) || t.is("}"))) scan.in_item = false;
    // Parameters: `name :` inside the item's first parenthesis.
    if (t.is(":") && prev && is_name(*prev) && stack.size() == 1 && stack[0].ch == '(' &&
        stack[0].index == scan.item_start + 2)
      c.params.push_back(std::string(prev->text));
    if (t.is("let")) let_depth = static_cast<int>(stack.size());
    if (let_depth == static_cast<int>(stack.size()) && t.is("=") && prev && is_name(*prev) && i >= 2 &&
        (toks[i - 2].is("let") || toks[i - 2].is(",")))
      c.locals.push_back(std::string(prev->text));
    if ((t.is("{") || (t.is(";") && !ends_let)) && stack.size() == 1) scan.key_start = i + 1;
    if (ends_let) let_depth = -1;
    if (let_depth > static_cast<int>(stack.size())) let_depth = -1;
  }
  return scan;
}

// The innermost call open at the cursor, if any: callee, argument index and name (into `c`).
void find_open_call(const std::vector<Token>& toks, const ItemScan& scan, CursorContext& c) {
  const Token* prev = toks.empty() ? nullptr : &toks.back();
  for (auto it = scan.stack.rbegin(); it != scan.stack.rend(); ++it) {
    if (it->ch != '(') {
      if (it->ch == '{') break;
      continue;
    }
    bool is_param_list = it->index == scan.item_start + 2;
    if (it->index == 0 || is_param_list || !is_name(toks[it->index - 1])) break;
    c.in_call = true;
    c.callee = std::string(toks[it->index - 1].text);
    c.callee_begin = toks[it->index - 1].begin;
    int depth = 0;
    size_t arg_start = it->index + 1;
    for (size_t i = it->index + 1; i < toks.size(); ++i) {
      const Token& t = toks[i];
      if (t.is("(") || t.is("[") || t.is("{"))
        ++depth;
      else if (t.is(")") || t.is("]") || t.is("}"))
        --depth;
      else if (depth == 0 && t.is(",")) {
        ++c.arg_index;
        arg_start = i + 1;
      }
    }
    if (arg_start + 1 < toks.size() && is_name(toks[arg_start]) && toks[arg_start + 1].is("="))
      c.arg_name = std::string(toks[arg_start].text);
    c.at_arg_start = prev && (prev->is("(") || prev->is(",")) && prev->begin >= toks[it->index].begin;
    break;
  }
}

// Where in its item the cursor is (c.where), from the item's keyword and the tokens before it.
void classify(const std::vector<Token>& toks, const ItemScan& scan, CursorContext& c) {
  const std::vector<Open>& stack = scan.stack;
  const Token* prev = toks.empty() ? nullptr : &toks.back();
  const Token* prev2 = toks.size() >= 2 ? &toks[toks.size() - 2] : nullptr;
  const std::string& kw = c.item_keyword;
  if (kw == "import") {
    bool after_std = prev && prev->is(".") && prev2 && prev2->is("std");
    c.where = after_std ? CursorContext::ImportStd : CursorContext::Import;
    return;
  }
  if (prev && (prev->is(":") || prev->is("->")) && !stack.empty() &&
      (stack.back().ch == '(' || prev->is("->"))) {
    c.where = CursorContext::TypeName;
    return;
  }
  if (prev && prev->is(":") && kw != "kernel") {
    c.where = CursorContext::TypeName;
    return;
  }
  if (kw == "kernel" && !stack.empty() && stack[0].ch == '{') {
    size_t i = scan.key_start;
    if (i >= toks.size()) {
      if (stack.size() == 1) {
        c.where = CursorContext::KernelKey;
        return;
      }
      i = toks.size() - 1;
    }
    c.kernel_key = std::string(toks[i].text);
    const KernelOptionInfo* option = find_kernel_option(c.kernel_key);
    if (option && option->option == KernelOption::DType && prev && prev->is("=") && stack.size() == 1) {
      c.where = CursorContext::DtypeValue;
      return;
    }
    c.score_in_scope = c.kernel_key == "score";
    c.where = CursorContext::Expression;
    return;
  }
  // Between the keyword and `=`: a name or the parameter list being written.
  bool after_assign = false;
  for (size_t i = scan.item_start; i < toks.size(); ++i)
    if (toks[i].is("=")) after_assign = true;
  if (!after_assign && kw != "kernel") {
    c.where = CursorContext::Name;
    return;
  }
  c.score_in_scope = kw == "score";
  c.where = CursorContext::Expression;
}

}  // namespace

CursorContext cursor_context(std::string_view text, uint32_t offset) {
  CursorContext c;
  offset = static_cast<uint32_t>(std::min<size_t>(offset, text.size()));
  std::vector<Token> all = item_tokens(text, offset);
  if (in_comment_or_string(all, offset)) {
    c.where = CursorContext::Comment;
    return c;
  }
  std::vector<Token> toks;
  for (const Token& t : all)
    if (t.kind != TokenKind::Comment) toks.push_back(t);
  c.prefix_begin = offset;
  if (!toks.empty() && toks.back().end == offset &&
      (toks.back().kind == TokenKind::Identifier || toks.back().kind == TokenKind::Keyword)) {
    c.prefix = std::string(toks.back().text);
    c.prefix_begin = toks.back().begin;
    toks.pop_back();
  }
  const ItemScan scan = scan_item(text, toks, c);
  if (!scan.in_item) {
    c.item_keyword.clear();
    c.where = CursorContext::TopLevel;
    return c;
  }
  find_open_call(toks, scan, c);
  classify(toks, scan, c);
  return c;
}

}  // namespace attn::lsp
