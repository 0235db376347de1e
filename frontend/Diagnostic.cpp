// Diagnostic collection, C-compiler-style rendering, JSON output and typo suggestions.
#include "frontend/Diagnostic.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "runtime/PathText.h"

namespace attn {

Diagnostic& DiagnosticEngine::error(SourceRange range, std::string message) {
  diags_.push_back({Severity::Error, range, std::move(message), {}, {}});
  return diags_.back();
}

Diagnostic& DiagnosticEngine::warning(SourceRange range, std::string message) {
  diags_.push_back({Severity::Warning, range, std::move(message), {}, {}});
  return diags_.back();
}

bool DiagnosticEngine::has_errors() const { return error_count() > 0; }

size_t DiagnosticEngine::error_count() const {
  return std::count_if(diags_.begin(), diags_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

void DiagnosticEngine::sort_by_location() {
  std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.range.file != b.range.file) return a.range.file < b.range.file;
    return a.range.begin < b.range.begin;
  });
}

void add_note(Diagnostic& d, SourceRange range, std::string message) {
  d.notes.push_back({Severity::Note, range, std::move(message), {}, {}});
}

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::Error: return "\033[1;31m";
    case Severity::Warning: return "\033[1;35m";
    case Severity::Note: return "\033[1;36m";
  }
  return "";
}

void render_one(std::string& out, const Diagnostic& d, const SourceManager& sm, bool color) {
  LineCol lc = sm.line_col(d.range.file, d.range.begin);
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  // A name with a newline would break the one-line format (and could forge a message): quoted.
  out += bold + printable_path(sm.path(d.range.file)) + ":" + std::to_string(lc.line) + ":" +
         std::to_string(lc.col) + ": " + reset;
  out += std::string(color ? severity_color(d.severity) : "") + severity_name(d.severity) + ": " + reset;
  out += bold + d.message + reset + "\n";
  std::string_view line = sm.line_text(d.range.file, lc.line);
  out += "  ";
  out += line;
  out += "\n  ";
  // Keep tabs so the caret lines up under tab-indented code.
  for (uint32_t i = 0; i + 1 < lc.col && i < line.size(); ++i) out += line[i] == '\t' ? '\t' : ' ';
  LineCol end = sm.line_col(d.range.file, std::max(d.range.end, d.range.begin + 1) - 1);
  uint32_t width = end.line == lc.line ? end.col - lc.col + 1 : 1;
  if (lc.col - 1 + width > line.size() + 1) width = 1;
  out += color ? "\033[1;32m" : "";
  out += "^";
  out += std::string(width > 1 ? width - 1 : 0, '~');
  out += reset;
  out += "\n";
  for (const FixIt& f : d.fixes) {
    if (f.range.begin == d.range.begin) {
      out += "  ";
      for (uint32_t i = 0; i + 1 < lc.col && i < line.size(); ++i) out += line[i] == '\t' ? '\t' : ' ';
      out += f.replacement + "\n";
    }
  }
  for (const Diagnostic& n : d.notes) render_one(out, n, sm, color);
}

nlohmann::json range_json(SourceRange r, const SourceManager& sm) {
  LineCol b = sm.line_col(r.file, r.begin), e = sm.line_col(r.file, r.end);
  return {{"file", sm.path(r.file)},
          {"start", {{"line", b.line}, {"column", b.col}}},
          {"end", {{"line", e.line}, {"column", e.col}}}};
}

nlohmann::json diag_json(const Diagnostic& d, const SourceManager& sm) {
  nlohmann::json j = {
      {"severity", severity_name(d.severity)}, {"message", d.message}, {"range", range_json(d.range, sm)}};
  nlohmann::json notes = nlohmann::json::array();
  for (const Diagnostic& n : d.notes) notes.push_back(diag_json(n, sm));
  j["notes"] = notes;
  nlohmann::json fixes = nlohmann::json::array();
  for (const FixIt& f : d.fixes)
    fixes.push_back({{"range", range_json(f.range, sm)}, {"replacement", f.replacement}});
  j["fixes"] = fixes;
  return j;
}

// Damerau-Levenshtein (optimal string alignment) distance.
size_t typo_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string render_diagnostic(const Diagnostic& d, const SourceManager& sm, bool color) {
  std::string out;
  render_one(out, d, sm, color);
  return out;
}

std::string render_diagnostics(const DiagnosticEngine& diags, const SourceManager& sm, bool color) {
  std::string out;
  for (const Diagnostic& d : diags.all()) render_one(out, d, sm, color);
  size_t n = diags.error_count();
  if (n > 0) out += std::to_string(n) + (n == 1 ? " error" : " errors") + " generated.\n";
  return out;
}

std::string diagnostics_to_json(const DiagnosticEngine& diags, const SourceManager& sm) {
  nlohmann::json arr = nlohmann::json::array();
  for (const Diagnostic& d : diags.all()) arr.push_back(diag_json(d, sm));
  return arr.dump(2) + "\n";
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_dist = std::max<size_t>(1, name.size() / 3) + 1;
  for (const std::string& c : candidates) {
    if (c == name) continue;
    size_t dist = typo_distance(name, c);
    if (dist < best_dist || (dist == best_dist && !best.empty() && c < best)) {
      best_dist = dist;
      best = c;
    }
  }
  return best;
}

}  // namespace attn
