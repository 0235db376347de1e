// Feature: the frontend's diagnostics as LSP diagnostics, and their fix-its as quick fixes.
#include "frontend/Diagnostic.h"
#include "lsp/Features.h"

namespace attn::lsp {

namespace {

int severity(Severity s) { return s == Severity::Error ? 1 : s == Severity::Warning ? 2 : 3; }

// A diagnostic in an imported file is reported on the import that brings that file in.
SourceRange shown_at(const Analysis& a, const Diagnostic& d) {
  if (d.range.file == a.main_file) return d.range;
  if (const Module* m = a.main())
    for (const Import& imp : m->imports) {
      // Follow the import chain: the file may be imported by an imported module.
      std::vector<const Module*> todo{imp.target};
      for (size_t i = 0; i < todo.size() && i < 64; ++i) {
        if (!todo[i]) continue;
        if (todo[i]->file == d.range.file) return imp.range;
        for (const Import& next : todo[i]->imports) todo.push_back(next.target);
      }
    }
  return {a.main_file, 0, 0};
}

LspDiagnostic convert(const Analysis& a, const Diagnostic& d) {
  LspDiagnostic out;
  SourceRange at = shown_at(a, d);
  out.range = a.range_of(at);
  out.severity = severity(d.severity);
  out.message = d.message;
  if (d.range.file != a.main_file) {
    Position p = a.range_of(d.range).start;
    out.message = "in " + a.program->sources.path(d.range.file) + ":" + std::to_string(p.line + 1) + ":" +
                  std::to_string(p.character + 1) + ": " + d.message;
    out.related.push_back({a.location_of(d.range), d.message});
  }
  for (const Diagnostic& n : d.notes) out.related.push_back({a.location_of(n.range), n.message});
  return out;
}

bool overlaps(const Range& x, const Range& y) {
  auto before = [](const Position& p, const Position& q) {
    return p.line < q.line || (p.line == q.line && p.character <= q.character);
  };
  return before(x.start, y.end) && before(y.start, x.end);
}

// An empty range inserts (a missing import), anything else replaces (a misspelled name).
std::string fix_title(const FixIt& f) {
  if (f.range.begin != f.range.end) return "Replace with '" + f.replacement + "'";
  std::string line = f.replacement;
  std::erase(line, '\n');
  return "Add '" + line + "'";
}

}  // namespace

std::vector<LspDiagnostic> diagnostics(const Analysis& a) {
  std::vector<LspDiagnostic> out;
  const auto& all = a.program->diags.all();
  for (const Diagnostic& d : all) {
    if (out.size() == kMaxDiagnosticsPerDocument) {
      // The rest as one, where the first of them is.
      LspDiagnostic more = convert(a, d);
      more.severity = severity(Severity::Warning);
      more.message = "and " + std::to_string(all.size() - kMaxDiagnosticsPerDocument) +
                     " more diagnostics not shown (the first " + std::to_string(kMaxDiagnosticsPerDocument) +
                     " are)";
      more.related.clear();
      out.push_back(std::move(more));
      break;
    }
    out.push_back(convert(a, d));
  }
  return out;
}

std::vector<CodeAction> code_actions(const Analysis& a, Range range) {
  std::vector<CodeAction> out;
  for (const Diagnostic& d : a.program->diags.all()) {
    if (d.range.file != a.main_file || d.fixes.empty()) continue;
    LspDiagnostic ld = convert(a, d);
    if (!overlaps(ld.range, range)) continue;
    for (const FixIt& f : d.fixes) {
      if (f.range.file != a.main_file) continue;
      CodeAction action;
      action.title = fix_title(f);
      action.diagnostics.push_back(ld);
      action.edit.changes[a.uri].push_back({a.range_of(f.range), f.replacement});
      action.preferred = d.fixes.size() == 1;
      out.push_back(std::move(action));
    }
  }
  return out;
}

}  // namespace attn::lsp
