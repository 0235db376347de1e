// SourceManager: file texts and offset <-> line/column mapping.
#include "frontend/Source.h"

#include <algorithm>

namespace attn {

FileId SourceManager::add(std::string path, std::string text) {
  return add(std::move(path), std::make_shared<const std::string>(std::move(text)));
}

FileId SourceManager::add(std::string path, std::shared_ptr<const std::string> text) {
  File f{std::move(path), std::move(text), {0}};
  const std::string& t = *f.text;
  for (uint32_t i = 0; i < t.size(); ++i)
    if (t[i] == '\n') f.line_starts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<FileId>(files_.size() - 1);
}

LineCol SourceManager::line_col(FileId id, uint32_t offset) const {
  const File& f = files_[id];
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - f.line_starts.begin());
  return {line, offset - f.line_starts[line - 1] + 1};
}

uint32_t SourceManager::offset(FileId id, LineCol pos) const {
  const File& f = files_[id];
  uint32_t line = std::clamp<uint32_t>(pos.line, 1, static_cast<uint32_t>(f.line_starts.size()));
  uint32_t start = f.line_starts[line - 1];
  uint32_t end =
      line < f.line_starts.size() ? f.line_starts[line] - 1 : static_cast<uint32_t>(f.text->size());
  return std::min(start + (pos.col > 0 ? pos.col - 1 : 0), end);
}

std::string_view SourceManager::line_text(FileId id, uint32_t line) const {
  const File& f = files_[id];
  if (line == 0 || line > f.line_starts.size()) return {};
  uint32_t start = f.line_starts[line - 1];
  uint32_t end =
      line < f.line_starts.size() ? f.line_starts[line] - 1 : static_cast<uint32_t>(f.text->size());
  std::string_view s(f.text->data() + start, end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

std::string_view SourceManager::slice(SourceRange r) const {
  const std::string& t = *files_[r.file].text;
  uint32_t b = std::min<uint32_t>(r.begin, static_cast<uint32_t>(t.size()));
  uint32_t e = std::min<uint32_t>(std::max(r.end, b), static_cast<uint32_t>(t.size()));
  return std::string_view(t).substr(b, e - b);
}

}  // namespace attn
