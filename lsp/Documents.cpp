// Open documents: incremental text synchronization and cached analyses.
#include "lsp/Documents.h"

#include <filesystem>

#include "lsp/Uri.h"

namespace attn::lsp {

void apply_content_change(std::string& text, const nlohmann::json& change) {
  if (!change.is_object() || !change.contains("text") || !change["text"].is_string())
    throw ProtocolError{InvalidParams, "a content change needs a text"};
  const std::string& replacement = change["text"].get_ref<const std::string&>();
  if (!change.contains("range") || change["range"].is_null()) {
    text = replacement;
    return;
  }
  Range r = change["range"].get<Range>();
  LineTable lines(text);
  uint32_t b = lines.offset(r.start), e = lines.offset(r.end);
  if (e < b) std::swap(b, e);
  text.replace(b, e - b, replacement);
}

void DocumentStore::open(const std::string& uri, std::string text, int version) {
  Document& d = docs_[uri];
  d.uri = uri;
  d.path = uri_to_path(uri);
  d.text = std::move(text);
  d.version = version;
  for (auto& [_, doc] : docs_) doc.analysis.reset();  // importers see the new text
}

void DocumentStore::change(const std::string& uri, const nlohmann::json& changes, int version) {
  auto it = docs_.find(uri);
  if (it == docs_.end()) throw ProtocolError{InvalidParams, "document is not open: " + uri};
  if (!changes.is_array()) throw ProtocolError{InvalidParams, "contentChanges must be an array"};
  for (const auto& c : changes) apply_content_change(it->second.text, c);
  it->second.version = version;
  for (auto& [_, doc] : docs_) doc.analysis.reset();
}

void DocumentStore::close(const std::string& uri) {
  docs_.erase(uri);
  for (auto& [_, doc] : docs_) doc.analysis.reset();
}

const Document* DocumentStore::find(const std::string& uri) const {
  auto it = docs_.find(uri);
  return it == docs_.end() ? nullptr : &it->second;
}

std::map<std::string, std::string> DocumentStore::overlays() const {
  std::map<std::string, std::string> out;
  for (const auto& [_, d] : docs_) {
    out[std::filesystem::path(d.path).lexically_normal().string()] = d.text;
  }
  return out;
}

std::shared_ptr<const Analysis> DocumentStore::analysis(const std::string& uri) {
  auto it = docs_.find(uri);
  if (it == docs_.end()) throw ProtocolError{InvalidParams, "document is not open: " + uri};
  Document& d = it->second;
  if (!d.analysis) d.analysis = analyze(d.uri, d.path, d.text, overlays());
  return d.analysis;
}

}  // namespace attn::lsp
