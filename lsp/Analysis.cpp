// Loading a document for the features and indexing every name occurrence in the program.
#include "lsp/Analysis.h"

#include <algorithm>
#include <filesystem>

#include "frontend/Sema.h"
#include "lsp/Uri.h"

namespace attn::lsp {

namespace {

// Walks a module's AST and records what each written name refers to.
class OccurrenceCollector {
 public:
  explicit OccurrenceCollector(std::vector<Occurrence>& out) : out_(out) {}

  void module(const Module& m, const SourceManager& sm) {
    for (const Import& imp : m.imports) {
      if (!imp.target) continue;
      // The spelling inside `import ...;` names the module.
      std::string_view text = sm.slice(imp.range);
      size_t at = text.find(imp.spelling);
      if (at == std::string_view::npos) continue;
      Occurrence o(OccurrenceKind::Module,
                   {imp.range.file, imp.range.begin + static_cast<uint32_t>(at),
                    imp.range.begin + static_cast<uint32_t>(at + imp.spelling.size())});
      o.module = imp.target;
      out_.push_back(o);
    }
    for (const auto& d : m.decls) decl(*d);
  }

 private:
  void decl(const Decl& d) {
    Occurrence o(OccurrenceKind::Decl, d.name_range, true);
    o.decl = &d;
    out_.push_back(o);
    for (const Param& p : d.params) {
      Occurrence po(OccurrenceKind::Param, p.name_range, true);
      po.param = &p;
      out_.push_back(po);
    }
    if (d.body) expr(*d.body);
    for (const KernelItem& item : d.items) {
      out_.push_back(Occurrence(OccurrenceKind::KernelOption, item.key_range));
      // dtype's value names an element type, not a definition.
      const KernelOptionInfo* option = find_kernel_option(item.key);
      if (item.value && !(option && option->option == KernelOption::DType)) expr(*item.value);
    }
  }

  void expr(const Expr& e) {
    if (e.kind == ExprKind::Name) name(e);
    if (e.kind == ExprKind::Let || e.kind == ExprKind::Reduce) bindings(e);
    for (const auto& x : e.operands())
      if (x) expr(*x);
    if (e.kind == ExprKind::Call && !e.operands().empty()) {
      const Expr& callee = *e.operands()[0];
      for (const Argument& a : e.args) {
        if (!a.name.empty()) argument_name(a, callee);
        if (a.value) expr(*a.value);
      }
    }
  }

  void bindings(const Expr& e) {
    for (const Binding& b : e.bindings) {
      // A tuple binding `(x, y) = e` declares its elements; the pair itself has no name.
      for (const Binding* n : names_of(b)) {
        Occurrence o(OccurrenceKind::Local, n->name_range, true);
        o.local = n;
        out_.push_back(o);
      }
      if (b.value) expr(*b.value);
    }
  }

  static std::vector<const Binding*> names_of(const Binding& b) {
    if (b.elements.empty()) return {&b};
    std::vector<const Binding*> out;
    for (const Binding& x : b.elements) out.push_back(&x);
    return out;
  }

  void name(const Expr& e) {
    const SymbolRef& r = e.ref;
    Occurrence o(OccurrenceKind::Decl, e.range);
    switch (r.kind) {
      case SymbolRef::None: return;
      case SymbolRef::Decl: o.decl = r.decl; break;
      case SymbolRef::Param:
        o.kind = OccurrenceKind::Param;
        o.param = r.param;
        break;
      case SymbolRef::Local:
        o.kind = OccurrenceKind::Local;
        o.local = r.local;
        break;
      case SymbolRef::Index: o.kind = OccurrenceKind::Index; break;
      case SymbolRef::Score: o.kind = OccurrenceKind::Score; break;
      case SymbolRef::Builtin: o.kind = OccurrenceKind::Builtin; break;
      case SymbolRef::Extent:  // a dimension name: it refers to the tensor parameter declaring it
        o.kind = OccurrenceKind::Param;
        o.param = r.param;
        break;
    }
    out_.push_back(o);
  }

  // `f(window = 3)`: the argument name is the callee's parameter (or an index override).
  void argument_name(const Argument& a, const Expr& callee) {
    Occurrence o(OccurrenceKind::Index, a.name_range);
    if (is_index_name(a.name)) {
      out_.push_back(o);
      return;
    }
    if (a.name == "score") {
      o.kind = OccurrenceKind::Score;
      out_.push_back(o);
      return;
    }
    if (callee.kind != ExprKind::Name || callee.ref.kind != SymbolRef::Decl) return;
    for (const Param& p : callee.ref.decl->params)
      if (p.name == a.name) {
        o.kind = OccurrenceKind::Param;
        o.param = &p;
        out_.push_back(o);
      }
  }

  std::vector<Occurrence>& out_;
};

}  // namespace

SourceRange Occurrence::target() const {
  switch (kind) {
    case OccurrenceKind::Decl: return decl->name_range;
    case OccurrenceKind::Param: return param->name_range;
    case OccurrenceKind::Local: return local->name_range;
    case OccurrenceKind::Module: return {module->file, 0, 0};
    default: return {};
  }
}

const Module* Analysis::module_of(FileId file) const {
  for (const auto& m : program->modules)
    if (m->file == file) return m.get();
  return nullptr;
}

std::string Analysis::uri_of(FileId file) const {
  if (file == main_file) return uri;
  const Module* m = module_of(file);
  if (m && m->name.rfind("std.", 0) == 0) {
    std::string f = stdlib_file(m->name);
    return f.empty() ? "attnc-stdlib:" + m->name : path_to_uri(f);
  }
  return path_to_uri(program->sources.path(file));
}

const LineTable& Analysis::lines(FileId file) const {
  auto& slot = lines_[file];
  if (!slot) slot = std::make_unique<LineTable>(program->sources.text(file));
  return *slot;
}

Range Analysis::range_of(SourceRange r) const { return lines(r.file).range(r.begin, r.end); }

Location Analysis::location_of(SourceRange r) const { return {uri_of(r.file), range_of(r)}; }

uint32_t Analysis::offset_of(Position p) const { return lines(main_file).offset(p); }

const Occurrence* Analysis::occurrence_at(uint32_t offset) const {
  // Sorted by (file, begin): look at the few occurrences starting at or before `offset`.
  auto it =
      std::upper_bound(occurrences.begin(), occurrences.end(), std::make_pair(main_file, offset),
                       [](const std::pair<FileId, uint32_t>& k, const Occurrence& o) {
                         return k.first != o.range.file ? k.first < o.range.file : k.second < o.range.begin;
                       });
  const Occurrence* touching = nullptr;
  for (int n = 0; it != occurrences.begin() && n < 4; ++n) {
    --it;
    if (it->range.file != main_file) break;
    if (offset < it->range.end) return &*it;
    if (offset == it->range.end && !touching) touching = &*it;
  }
  return touching;
}

std::string Analysis::symbol_id(const Occurrence& o) const {
  auto at = [&](SourceRange r) {
    const Module* m = module_of(r.file);
    std::string file = m && m->name.rfind("std.", 0) == 0 ? m->name : program->sources.path(r.file);
    std::error_code ec;
    if (file.rfind("std.", 0) != 0) file = std::filesystem::absolute(file, ec).lexically_normal().string();
    return file + "#" + std::to_string(r.begin);
  };
  switch (o.kind) {
    case OccurrenceKind::Decl: return "decl:" + at(o.target());
    case OccurrenceKind::Param: return "param:" + at(o.target());
    case OccurrenceKind::Local: return "local:" + at(o.target());
    case OccurrenceKind::Index: return "index:" + std::string(name_of(o));
    case OccurrenceKind::Score: return "score";
    case OccurrenceKind::Builtin: return "builtin:" + std::string(name_of(o));
    case OccurrenceKind::KernelOption: return "option:" + std::string(name_of(o));
    case OccurrenceKind::Module: return "module:" + at(o.target());
  }
  return "";
}

bool Analysis::same_symbol(const Occurrence& a, const Occurrence& b) const {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case OccurrenceKind::Decl:
    case OccurrenceKind::Param:
    case OccurrenceKind::Local:
    case OccurrenceKind::Module: {
      SourceRange x = a.target(), y = b.target();
      return x.file == y.file && x.begin == y.begin;
    }
    case OccurrenceKind::Score: return true;
    default: return name_of(a) == name_of(b);
  }
}

std::string_view Analysis::name_of(const Occurrence& o) const {
  if (o.kind == OccurrenceKind::Module) return o.module->name;
  return program->sources.slice(o.range);
}

const Decl* Analysis::lookup(const std::string& name) const {
  const Module* m = main();
  if (!m) return nullptr;
  // Definitions only: kernels are a namespace of their own, which no expression sees.
  auto definition = [&](const Module& in) -> const Decl* {
    for (const auto& d : in.decls)
      if (d->kind != DeclKind::Kernel && d->name == name) return d.get();
    return nullptr;
  };
  if (const Decl* d = definition(*m)) return d;
  for (const Import& imp : m->imports)
    if (imp.target)
      if (const Decl* d = definition(*imp.target)) return d;
  return nullptr;
}

const Decl* Analysis::decl_at(uint32_t offset) const {
  const Module* m = main();
  if (!m) return nullptr;
  for (const auto& d : m->decls)
    if (d->range.begin <= offset && offset <= d->range.end) return d.get();
  return nullptr;
}

std::shared_ptr<const Analysis> analyze(const std::string& uri, const std::string& path,
                                        std::shared_ptr<const std::string> text,
                                        const std::map<std::string, std::string>& overlays) {
  auto a = std::make_shared<Analysis>();
  a->uri = uri;
  a->path = path;
  LoadOptions options;
  options.overlays = overlays;
  a->program = load_program_text(path, std::move(text), options);
  if (const Module* m = a->program->main()) a->main_file = m->file;
  OccurrenceCollector collect(a->occurrences);
  for (const auto& m : a->program->modules) collect.module(*m, a->program->sources);
  std::stable_sort(
      a->occurrences.begin(), a->occurrences.end(), [](const Occurrence& x, const Occurrence& y) {
        return x.range.file != y.range.file ? x.range.file < y.range.file : x.range.begin < y.range.begin;
      });
  a->occurrences.shrink_to_fit();  // held as long as the document is open
  return a;
}

std::shared_ptr<const Analysis> analyze(const std::string& uri, const std::string& path,
                                        const std::string& text,
                                        const std::map<std::string, std::string>& overlays) {
  return analyze(uri, path, std::make_shared<const std::string>(text), overlays);
}

std::string decl_signature(const Decl& d) {
  std::string s = std::string(decl_kind_name(d.kind)) + " " + d.name;
  if (d.has_param_list) {
    s += "(";
    for (size_t i = 0; i < d.params.size(); ++i)
      s += (i ? ", " : "") + d.params[i].name + ": " + type_name(d.params[i].type);
    s += ")";
  }
  if (d.kind == DeclKind::Fn) s += " -> " + type_name(d.result);
  return s;
}

const char* index_doc(IndexVar v) {
  switch (v) {
    case IndexVar::B: return "the batch index";
    case IndexVar::H: return "the query head";
    case IndexVar::Q: return "the query position";
    case IndexVar::KV: return "the key position";
    case IndexVar::QLen: return "the query length (the sequence's, in a ragged or paged call)";
    case IndexVar::KVLen: return "the key length (the sequence's, in a ragged or paged call)";
  }
  return "";
}

}  // namespace attn::lsp
