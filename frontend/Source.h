// Source files and positions: every AST node and diagnostic points into a SourceManager.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

using FileId = uint32_t;

/// A half-open byte range [begin, end) in one source file.
struct SourceRange {
  FileId file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
  bool valid() const { return end >= begin && (end > 0 || begin == 0); }
};

/// A 1-based line and column (columns count bytes).
struct LineCol {
  uint32_t line = 1;
  uint32_t col = 1;
};

/// Owns the text of every file a compilation reads, keyed by FileId.
class SourceManager {
 public:
  /// Adds a file's text and returns its id. `path` is what diagnostics print.
  FileId add(std::string path, std::string text);
  /// Same, sharing the text with its owner (the language server's open document).
  FileId add(std::string path, std::shared_ptr<const std::string> text);
  const std::string& path(FileId id) const { return files_[id].path; }
  const std::string& text(FileId id) const { return *files_[id].text; }
  size_t size() const { return files_.size(); }

  LineCol line_col(FileId id, uint32_t offset) const;
  /// Byte offset of a 1-based line and column (clamped to the file).
  uint32_t offset(FileId id, LineCol pos) const;
  /// The text of a 1-based line, without its newline.
  std::string_view line_text(FileId id, uint32_t line) const;
  std::string_view slice(SourceRange r) const;

 private:
  struct File {
    std::string path;
    std::shared_ptr<const std::string> text;  ///< never changes: the AST views it
    std::vector<uint32_t> line_starts;
  };
  std::deque<File> files_;  ///< a deque: what path() and text() return stays put as files are added
};

}  // namespace attn
