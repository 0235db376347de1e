// The documents an editor has open: their text, version, and the cached analysis of each.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "lsp/Analysis.h"

namespace attn::lsp {

/// One open document.
struct Document {
  std::string uri, path, text;
  int version = 0;
  /// Analysis of `text` with the other documents as they were; reset on any change.
  std::shared_ptr<const Analysis> analysis;
};

/// Applies one `TextDocumentContentChangeEvent` to `text`: a `range` (UTF-16 positions) replaced
/// with `text`, or, without a range, the whole text.
void apply_content_change(std::string& text, const nlohmann::json& change);

/// Open documents by URI.
class DocumentStore {
 public:
  void open(const std::string& uri, std::string text, int version);
  /// Applies changes in order; throws ProtocolError for an unknown document.
  void change(const std::string& uri, const nlohmann::json& changes, int version);
  void close(const std::string& uri);
  const Document* find(const std::string& uri) const;
  /// The document's analysis, computed on first use after a change.
  std::shared_ptr<const Analysis> analysis(const std::string& uri);
  const std::map<std::string, Document>& all() const { return docs_; }

 private:
  std::map<std::string, std::string> overlays() const;
  std::map<std::string, Document> docs_;
};

}  // namespace attn::lsp
