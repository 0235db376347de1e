// Diagnostics are data: a range, a severity, a message, notes and fix-its. Rendering for a
// terminal (like a C compiler) and for JSON are separate functions.
#pragma once

#include <string>
#include <vector>

#include "frontend/Source.h"

namespace attn {

enum class Severity { Error, Warning, Note };

/// Replace the text in `range` with `replacement` (a quick fix for editors).
struct FixIt {
  SourceRange range;
  std::string replacement;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;
  std::vector<Diagnostic> notes;  ///< related locations ("previous definition is here")
  std::vector<FixIt> fixes;
};

/// Collects diagnostics in the order they are found.
class DiagnosticEngine {
 public:
  Diagnostic& error(SourceRange range, std::string message);
  Diagnostic& warning(SourceRange range, std::string message);
  void add(Diagnostic d) { diags_.push_back(std::move(d)); }
  bool has_errors() const;
  size_t error_count() const;
  const std::vector<Diagnostic>& all() const { return diags_; }
  /// Sorts by file and position (stable), so output does not depend on pass order.
  void sort_by_location();

 private:
  std::vector<Diagnostic> diags_;
};

/// Adds a note to `d` pointing at `range`.
void add_note(Diagnostic& d, SourceRange range, std::string message);

/// `file:line:col: error: message`, the source line and a caret underline; notes follow.
std::string render_diagnostic(const Diagnostic& d, const SourceManager& sm, bool color = false);
/// All diagnostics rendered, then a count line ("2 errors generated.") when there are errors.
std::string render_diagnostics(const DiagnosticEngine& diags, const SourceManager& sm, bool color = false);
/// JSON array of diagnostics (file, 1-based line/col ranges, severity, message, notes, fixes).
std::string diagnostics_to_json(const DiagnosticEngine& diags, const SourceManager& sm);

/// The closest candidate within an edit distance that makes a typo plausible, or "".
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace attn
