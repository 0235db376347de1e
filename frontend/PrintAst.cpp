// print_ast: one line per node, children indented, each with its line:col range and type.
#include "frontend/PrintAst.h"

namespace attn {

namespace {

class AstPrinter {
 public:
  explicit AstPrinter(const SourceManager& sm) : sm_(sm) {}

  std::string module(const Module& m) {
    for (const Import& i : m.imports) line(0, "Import " + i.spelling, i.range);
    for (const auto& d : m.decls) decl(*d);
    return out_;
  }

 private:
  std::string loc(SourceRange r) {
    LineCol b = sm_.line_col(r.file, r.begin), e = sm_.line_col(r.file, r.end);
    std::string s = "<";
    s += std::to_string(b.line);
    s += ':';
    s += std::to_string(b.col);
    s += '-';
    s += std::to_string(e.line);
    s += ':';
    s += std::to_string(e.col);
    s += '>';
    return s;
  }

  void line(int depth, const std::string& text, SourceRange r) {
    out_ += std::string(2 * depth, ' ') + text + " " + loc(r) + "\n";
  }

  void decl(const Decl& d) {
    std::string head = std::string(decl_kind_name(d.kind)) + " " + d.name;
    if (d.kind == DeclKind::Fn) head += " -> " + type_name(d.result);
    line(0, head, d.range);
    if (!d.doc.empty()) out_ += "  doc \"" + escape(d.doc) + "\"\n";
    for (const Param& p : d.params) line(1, "Param " + p.name + ": " + type_name(p.type), p.range);
    if (d.body) expr(*d.body, 1);
    for (const KernelItem& i : d.items) {
      line(1, "Option " + i.key, i.range);
      expr(*i.value, 2);
    }
  }

  static std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) o += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : std::string(1, c);
    return o;
  }

  static const char* kind_name(ExprKind k) {
    switch (k) {
      case ExprKind::IntLit: return "Int";
      case ExprKind::FloatLit: return "Float";
      case ExprKind::BoolLit: return "Bool";
      case ExprKind::InfLit: return "Inf";
      case ExprKind::Name: return "Name";
      case ExprKind::Unary: return "Unary";
      case ExprKind::Binary: return "Binary";
      case ExprKind::Cond: return "Cond";
      case ExprKind::Call: return "Call";
      case ExprKind::Index: return "Index";
      case ExprKind::Pipe: return "Pipe";
      case ExprKind::Let: return "Let";
      case ExprKind::Paren: return "Paren";
      case ExprKind::List: return "List";
      case ExprKind::Reduce: return "Reduce";
      case ExprKind::Tuple: return "Tuple";
    }
    return "?";
  }

  static std::string ref_name(const SymbolRef& r) {
    switch (r.kind) {
      case SymbolRef::Decl: return std::string(" -> ") + decl_kind_name(r.decl->kind) + " " + r.decl->name;
      case SymbolRef::Param: return " -> param of " + r.param->owner->name;
      case SymbolRef::Local: return " -> let";
      case SymbolRef::Index: return " -> index";
      case SymbolRef::Score: return " -> score";
      case SymbolRef::Builtin: return " -> builtin";
      case SymbolRef::Extent: return " -> extent of " + r.param->name;
      case SymbolRef::None: return "";
    }
    return "";
  }

  void expr(const Expr& e, int depth) {
    std::string text = kind_name(e.kind);
    if (!e.text().empty()) {
      text += ' ';
      text += e.text();
    }
    if (e.kind == ExprKind::Name) text += ref_name(e.ref);
    if (!e.type.is_error()) text += " : " + type_name(e.type);
    line(depth, text, e.range);
    if (e.kind == ExprKind::Let || e.kind == ExprKind::Reduce) bindings(e, depth);
    for (const auto& o : e.operands()) expr(*o, depth + 1);
    if (e.kind == ExprKind::Call) args(e, depth);
  }

  void bindings(const Expr& e, int depth) {
    for (const Binding& b : e.bindings) {
      std::string names = b.name;
      for (const Binding& x : b.elements) names += (names.empty() ? "(" : ", ") + x.name;
      if (!b.elements.empty()) names += ")";
      line(depth + 1, (b.is_reduction_var ? "Index " : "Binding ") + names, b.name_range);
      expr(*b.value, depth + 2);
    }
  }

  void args(const Expr& e, int depth) {
    for (const Argument& a : e.args) {
      if (!a.name.empty()) {
        line(depth + 1, "Named " + a.name, a.name_range);
        expr(*a.value, depth + 2);
      } else {
        expr(*a.value, depth + 1);
      }
    }
  }

  const SourceManager& sm_;
  std::string out_;
};

}  // namespace

std::string print_ast(const Module& m, const SourceManager& sm) { return AstPrinter(sm).module(m); }

}  // namespace attn
