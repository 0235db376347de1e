// One open document, loaded and checked by the frontend, with every name occurrence indexed: the
// shared input of the features (hover, definition, references, rename, tokens).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/Program.h"
#include "lsp/Protocol.h"

namespace attn::lsp {

/// What a name in the source stands for.
enum class OccurrenceKind : uint8_t { Decl, Param, Local, Index, Score, Builtin, KernelOption, Module };

/// One written name and what it refers to. An analysis holds one per name of the program (about
/// one per 12 bytes of text), hence 24 bytes: what the name is and its target come from the AST
/// node it refers to (a parameter's declaration is its owner), and the name itself from the
/// source (Analysis::name_of).
struct Occurrence {
  SourceRange range;
  OccurrenceKind kind;
  bool declaration = false;
  union {                        // which member: by `kind`
    const Decl* decl = nullptr;  ///< Decl
    const Param* param;          ///< Param
    const Binding* local;        ///< Local
    const Module* module;        ///< Module
  };

  Occurrence(OccurrenceKind k, SourceRange r, bool is_declaration = false)
      : range(r), kind(k), declaration(is_declaration) {}
  /// The defining name's range (Decl, Param, Local; the first byte of a Module's file); invalid
  /// for the others.
  SourceRange target() const;
};

/// A checked document and its index.
struct Analysis {
  std::string uri, path;
  std::unique_ptr<Program> program;
  FileId main_file = 0;
  std::vector<Occurrence> occurrences;  ///< every file of the program, sorted by file and offset

  const std::string& text() const { return program->sources.text(main_file); }
  const Module* main() const { return program->main(); }
  /// The module parsed from `file` (nullptr if none).
  const Module* module_of(FileId file) const;
  /// The URI an editor opens for `file` (stdlib modules: see stdlib_file()).
  std::string uri_of(FileId file) const;
  /// A protocol range in `file`'s text.
  Range range_of(SourceRange r) const;
  Location location_of(SourceRange r) const;
  /// The occurrence in the main file under `offset` (an identifier touching it), or nullptr.
  const Occurrence* occurrence_at(uint32_t offset) const;
  /// The name as written (a module: its name), in the program's source.
  std::string_view name_of(const Occurrence& o) const;
  /// A key that names the same symbol in any program ("decl:/a.attn#12", "builtin:abs").
  std::string symbol_id(const Occurrence& o) const;
  /// Whether two occurrences of this program name one symbol: symbol_id(a) == symbol_id(b),
  /// without building the keys (references compare every occurrence of a name).
  bool same_symbol(const Occurrence& a, const Occurrence& b) const;
  /// The declaration of `name` visible at top level of the main module (own, then imported).
  const Decl* lookup(const std::string& name) const;
  /// The innermost declaration of the main module whose range contains `offset`.
  const Decl* decl_at(uint32_t offset) const;
  /// Offset of a protocol position in the main file.
  uint32_t offset_of(Position p) const;

 private:
  mutable std::map<FileId, std::unique_ptr<LineTable>> lines_;
  const LineTable& lines(FileId file) const;
};

/// Loads `text` as the document at `path` (other open documents as `overlays`) and indexes it.
std::shared_ptr<const Analysis> analyze(const std::string& uri, const std::string& path,
                                        std::shared_ptr<const std::string> text,
                                        const std::map<std::string, std::string>& overlays);
/// Same, with a copy of `text`.
std::shared_ptr<const Analysis> analyze(const std::string& uri, const std::string& path,
                                        const std::string& text,
                                        const std::map<std::string, std::string>& overlays);

/// The signature of a declaration as written: `mask sliding(window: int)`, `fn f(x: int) -> int`.
std::string decl_signature(const Decl& d);
/// A short description of an index variable.
const char* index_doc(IndexVar v);

}  // namespace attn::lsp
