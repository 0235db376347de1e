// Parsing one .attn file (ANTLR4) into a Module, with syntax errors as diagnostics.
#pragma once

#include <memory>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/Diagnostic.h"

namespace attn {

/// A comment in the source, kept for the formatter and for doc comments.
struct Comment {
  SourceRange range;
  std::string text;  ///< including the `//` or `/* */` markers
};

struct ParseResult {
  std::unique_ptr<Module> module;
  std::vector<Comment> comments;
};

/// Parses the file `file` of `sources`. Syntax errors go to `diags`; parsing recovers and the
/// module holds every declaration that could be built.
ParseResult parse_module(const SourceManager& sources, FileId file, DiagnosticEngine& diags);

}  // namespace attn
