// The canonical formatter (`attnc fmt`, LSP formatting): normalized spacing and indentation,
// the author's line breaks (at most one blank line), every comment kept. Idempotent.
#pragma once

#include <optional>
#include <string>

#include "frontend/Diagnostic.h"

namespace attn {

/// Formats file `file` of `sm`. Returns nothing (and diagnostics in `diags`) when the file does not
/// parse: a formatter never guesses at broken code.
std::optional<std::string> format_source(const SourceManager& sm, FileId file, DiagnosticEngine& diags);

}  // namespace attn
