// The documents an editor has open: their text, version, and the cached analysis of each.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "lsp/Analysis.h"

namespace attn::lsp {

/// The largest document the server analyzes unless initializationOptions.maxDocumentBytes says
/// otherwise: an analysis holds about 18 times the text (bench/results/lsp.md), and a larger one is
/// rarely hand-written.
constexpr size_t kDefaultMaxDocumentBytes = size_t{4} << 20;

/// One open document.
struct Document {
  std::string uri, path;
  /// Shared with the analysis's SourceManager: a large document is held once.
  std::shared_ptr<const std::string> text;
  int version = 0;
  /// Analysis of `text` with the other documents as they were; reset on any change.
  std::shared_ptr<const Analysis> analysis;
};

/// Applies one `TextDocumentContentChangeEvent` to `text`: a `range` (UTF-16 positions) replaced
/// with `text`, or, without a range, the whole text. A range with a negative position or an end
/// before its start throws ProtocolError (InvalidParams) and leaves `text` as it was.
void apply_content_change(std::string& text, const nlohmann::json& change);

/// Open documents by URI.
class DocumentStore {
 public:
  void open(const std::string& uri, std::string text, int version);
  /// Applies changes in order, all or none: throws ProtocolError for an unknown document or a
  /// refused change, and then keeps the last good text.
  void change(const std::string& uri, const nlohmann::json& changes, int version);
  void close(const std::string& uri);
  const Document* find(const std::string& uri) const;
  /// The document's analysis, computed on first use after a change. A document larger than
  /// max_bytes() is not analyzed: its analysis is of an empty text with one error that says so.
  std::shared_ptr<const Analysis> analysis(const std::string& uri);
  /// The largest document analyzed (default kDefaultMaxDocumentBytes).
  size_t max_bytes() const { return max_bytes_; }
  void set_max_bytes(size_t n) { max_bytes_ = n; }
  const std::map<std::string, Document>& all() const { return docs_; }

 private:
  std::map<std::string, std::string> overlays() const;
  std::map<std::string, Document> docs_;
  size_t max_bytes_ = kDefaultMaxDocumentBytes;
};

}  // namespace attn::lsp
