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
  auto shown = [](const Position& p) { return std::to_string(p.line) + ":" + std::to_string(p.character); };
  if (r.start.line < 0 || r.start.character < 0 || r.end.line < 0 || r.end.character < 0)
    throw ProtocolError{InvalidParams, "a change range cannot hold a negative position (" + shown(r.start) +
                                           " to " + shown(r.end) + ")"};
  if (r.end.line < r.start.line || (r.end.line == r.start.line && r.end.character < r.start.character))
    throw ProtocolError{InvalidParams, "a change range cannot end (" + shown(r.end) + ") before it starts (" +
                                           shown(r.start) + ")"};
  LineTable lines(text);
  uint32_t b = lines.offset(r.start), e = lines.offset(r.end);
  if (e < b) e = b;  // positions past a line's end clamp to it
  text.replace(b, e - b, replacement);
}

void DocumentStore::open(const std::string& uri, std::string text, int version) {
  Document& d = docs_[uri];
  d.uri = uri;
  d.path = uri_to_path(uri);
  d.text = std::make_shared<const std::string>(std::move(text));
  d.version = version;
  for (auto& [_, doc] : docs_) doc.analysis.reset();  // importers see the new text
}

void DocumentStore::change(const std::string& uri, const nlohmann::json& changes, int version) {
  auto it = docs_.find(uri);
  if (it == docs_.end()) throw ProtocolError{InvalidParams, "document is not open: " + uri};
  if (!changes.is_array()) throw ProtocolError{InvalidParams, "contentChanges must be an array"};
  // All or nothing: a change that is refused leaves the last good text (and version).
  std::string text = *it->second.text;
  for (const auto& c : changes) apply_content_change(text, c);
  it->second.text = std::make_shared<const std::string>(std::move(text));
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
    out[std::filesystem::path(d.path).lexically_normal().string()] = *d.text;
  }
  return out;
}

std::shared_ptr<const Analysis> DocumentStore::analysis(const std::string& uri) {
  auto it = docs_.find(uri);
  if (it == docs_.end()) throw ProtocolError{InvalidParams, "document is not open: " + uri};
  Document& d = it->second;
  if (d.analysis) return d.analysis;
  if (d.text->size() > max_bytes_) {
    // Not analyzed at all: one diagnostic says why, and every feature sees an empty document.
    auto a = analyze(d.uri, d.path, "", {});
    a->program->diags.error({a->main_file, 0, 0},
                            "this document is " + std::to_string(d.text->size()) +
                                " bytes; the language server analyzes documents of at most " +
                                std::to_string(max_bytes_) +
                                " bytes (initializationOptions.maxDocumentBytes)");
    d.analysis = a;
    return d.analysis;
  }
  d.analysis = analyze(d.uri, d.path, d.text, overlays());
  return d.analysis;
}

}  // namespace attn::lsp
