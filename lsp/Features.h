// The editor features: free functions over an Analysis and a byte offset in its main file, each
// implemented in its own file (Hover.cpp, Completion.cpp, ...). None of them touches JSON-RPC.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lsp/Analysis.h"
#include "lsp/Protocol.h"

namespace attn::lsp {

using Analyses = std::vector<std::shared_ptr<const Analysis>>;

/// The most diagnostics published for one document: past it, one more says how many were left out.
constexpr size_t kMaxDiagnosticsPerDocument = 1000;

/// The frontend's diagnostics for the main file; errors in imported files are shown on the import.
/// At most kMaxDiagnosticsPerDocument, then one "and N more".
std::vector<LspDiagnostic> diagnostics(const Analysis& a);
/// Quick fixes (the "did you mean" fix-its) for diagnostics overlapping `range`.
std::vector<CodeAction> code_actions(const Analysis& a, Range range);

/// Type, signature and doc comment of what is under `offset`.
std::optional<Hover> hover(const Analysis& a, uint32_t offset);
/// The most completion candidates one answer holds (clangd's default): a file of thousands of
/// definitions must not make every keystroke's answer, and `check --all-features`, that large.
constexpr size_t kMaxCompletionItems = 100;

/// Completion candidates at `offset` (works on text that does not parse): every candidate while
/// there are at most kMaxCompletionItems, else those that start with the identifier before the
/// cursor, at most kMaxCompletionItems of them; `incomplete` (when given) is set when some were
/// left out, so that the editor asks again as the user types.
std::vector<CompletionItem> completion(const Analysis& a, uint32_t offset, bool* incomplete = nullptr);
/// The parameters of the call around `offset`.
std::optional<SignatureHelp> signature_help(const Analysis& a, uint32_t offset);

/// Where the symbol under `offset` is defined (another file, the stdlib included).
std::vector<Location> definition(const Analysis& a, uint32_t offset);
/// Every use of the symbol under `offset` in `a` and in the other open documents `others`.
std::vector<Location> references(const Analysis& a, uint32_t offset, bool include_declaration,
                                 const Analyses& others);

/// A use of the symbol under the cursor in the same document (`write`: its declaration).
struct Highlight {
  Range range;
  bool write = false;
};
/// Every occurrence, in the main file, of the symbol under `offset`.
std::vector<Highlight> document_highlights(const Analysis& a, uint32_t offset);

/// The range and current name of a renamable symbol under `offset`.
struct RenameTarget {
  Range range;
  std::string placeholder;
};
std::optional<RenameTarget> prepare_rename(const Analysis& a, uint32_t offset);
/// Edits renaming the symbol under `offset`; throws ProtocolError when it cannot be renamed.
WorkspaceEdit rename(const Analysis& a, uint32_t offset, const std::string& new_name, const Analyses& others);

/// The declarations of the main module, with parameters and kernel options as children.
std::vector<DocumentSymbol> document_symbols(const Analysis& a);
/// The `attnc fmt` result as edits (none when the text does not parse or is already formatted).
std::vector<TextEdit> formatting(const Analysis& a);

/// Semantic token types and modifiers, in the order the encoding refers to them.
const std::vector<std::string>& semantic_token_types();
const std::vector<std::string>& semantic_token_modifiers();
/// The LSP relative encoding (5 integers a token) of the whole main file.
std::vector<uint32_t> semantic_tokens(const Analysis& a);

}  // namespace attn::lsp
