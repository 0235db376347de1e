// LSP protocol types used by the features, and their JSON conversion (nlohmann-json).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lsp/Positions.h"

namespace attn::lsp {

using nlohmann::json;

/// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
  RequestFailed = -32803,
};

/// A handler failure that becomes an error response with `code`.
struct ProtocolError {
  int code;
  std::string message;
};

/// A range in a document named by URI.
struct Location {
  std::string uri;
  Range range;
  bool operator==(const Location&) const = default;
};

/// Replace `range` with `newText`.
struct TextEdit {
  Range range;
  std::string newText;
};

/// Edits per document URI.
struct WorkspaceEdit {
  std::map<std::string, std::vector<TextEdit>> changes;
};

/// A note of a diagnostic, at its own location.
struct RelatedInformation {
  Location location;
  std::string message;
};

/// A diagnostic as published to the client (severity: 1 error, 2 warning, 3 information).
struct LspDiagnostic {
  Range range;
  int severity = 1;
  std::string message;
  std::vector<RelatedInformation> related;
};

/// A quick fix: a title and the edit it makes.
struct CodeAction {
  std::string title;
  std::string kind = "quickfix";
  std::vector<LspDiagnostic> diagnostics;
  WorkspaceEdit edit;
  bool preferred = false;
};

/// Hover contents in Markdown.
struct Hover {
  std::string markdown;
  std::optional<Range> range;
};

/// LSP CompletionItemKind values used here.
enum class CompletionKind : int {
  Function = 3,
  Field = 5,
  Variable = 6,
  Class = 7,
  Module = 9,
  Property = 10,
  Keyword = 14,
  Snippet = 15,
  EnumMember = 20,
  Constant = 21,
  TypeParameter = 25,
};

/// One completion candidate.
struct CompletionItem {
  std::string label;
  CompletionKind kind = CompletionKind::Variable;
  std::string detail;
  std::string documentation;                  ///< Markdown
  std::string insertText;                     ///< empty: the label
  std::vector<TextEdit> additionalTextEdits;  ///< e.g. the import a stdlib name needs
};

/// One parameter of a signature, as shown.
struct ParameterInformation {
  std::string label;
};

/// A callable's signature for signature help.
struct SignatureInformation {
  std::string label;
  std::string documentation;
  std::vector<ParameterInformation> parameters;
};

/// Signatures and the active parameter at the cursor.
struct SignatureHelp {
  std::vector<SignatureInformation> signatures;
  int activeSignature = 0;
  int activeParameter = 0;
};

/// LSP SymbolKind values used here.
enum class SymbolKind : int {
  Module = 2,
  Namespace = 3,
  Class = 5,
  Property = 7,
  Function = 12,
  Variable = 13
};

/// One entry of the outline, with its children.
struct DocumentSymbol {
  std::string name;
  std::string detail;
  SymbolKind kind = SymbolKind::Function;
  Range range;
  Range selectionRange;
  std::vector<DocumentSymbol> children;
};

void to_json(json& j, const Position& p);
void from_json(const json& j, Position& p);
void to_json(json& j, const Range& r);
void from_json(const json& j, Range& r);
void to_json(json& j, const Location& l);
void to_json(json& j, const TextEdit& e);
void to_json(json& j, const WorkspaceEdit& e);
void to_json(json& j, const LspDiagnostic& d);
void to_json(json& j, const CodeAction& a);
void to_json(json& j, const Hover& h);
void to_json(json& j, const CompletionItem& c);
void to_json(json& j, const SignatureHelp& s);
void to_json(json& j, const DocumentSymbol& s);

/// Serializes a message for the wire; invalid UTF-8 in strings is replaced, never thrown on.
std::string dump_message(const json& message);

}  // namespace attn::lsp
