// A Program is one main .attn file with everything it imports, parsed and checked.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/Diagnostic.h"
#include "frontend/Source.h"

namespace attn {

struct Program {
  SourceManager sources;
  DiagnosticEngine diags;
  std::vector<std::unique_ptr<Module>> modules;  ///< modules[0] is the main file
  const Module* main() const { return modules.empty() ? nullptr : modules.front().get(); }
  /// Finds a kernel of the main module by name (nullptr if absent).
  const Decl* kernel(const std::string& name) const;
  /// The kernels of the main module, in file order.
  std::vector<const Decl*> kernels() const;
};

struct LoadOptions {
  /// Text to use instead of reading a path (the language server's open buffers).
  std::map<std::string, std::string> overlays;
  /// Run name resolution and type checking after parsing (on by default).
  bool check = true;
};

/// Parses `path` and, transitively, its imports (stdlib modules come from the copy built into
/// attnc), then resolves names and checks types. Errors are in `program.diags`; the AST is there
/// whatever errors were found, as far as it could be recovered.
std::unique_ptr<Program> load_program(const std::string& path, const LoadOptions& options = {});

/// Reads the source file `path` as every command reads one: a regular file (never a wait on a
/// FIFO or a device) of at most kMaxSourceBytes. Returns "" with `text` filled, else a sentence
/// naming the file and what is wrong ("'f.attn' is a FIFO, not a regular file").
std::string read_source_file(const std::string& path, std::string& text);
/// Same, for text not on disk; `path` is used for messages and relative imports.
std::unique_ptr<Program> load_program_text(const std::string& path, std::string text,
                                           const LoadOptions& options = {});
/// Same, sharing the text with its owner (the language server's open document).
std::unique_ptr<Program> load_program_text(const std::string& path, std::shared_ptr<const std::string> text,
                                           const LoadOptions& options = {});

/// The stdlib module names ("std.masks", ...) and their sources, built into attnc.
const std::map<std::string, std::string>& stdlib_modules();

}  // namespace attn
