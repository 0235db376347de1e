// LSP positions (0-based line, UTF-16 code units) <-> byte offsets in UTF-8 text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lsp {

/// A position as the protocol counts it: 0-based line, 0-based UTF-16 code unit in that line.
struct Position {
  int line = 0;
  int character = 0;
  bool operator==(const Position&) const = default;
};

/// A half-open protocol range.
struct Range {
  Position start, end;
  bool operator==(const Range&) const = default;
};

/// Line starts of one text, for converting between byte offsets and protocol positions. Invalid
/// UTF-8 bytes count as one code unit each, so every byte offset has a position and back.
class LineTable {
 public:
  explicit LineTable(std::string_view text);
  /// The protocol position of a byte offset (clamped to the text).
  Position position(uint32_t offset) const;
  /// The byte offset of a protocol position; a character past the line's end clamps to its end,
  /// a line past the last clamps to the end of the text.
  uint32_t offset(Position p) const;
  /// The range of bytes [begin, end); an end inside a UTF-8 sequence extends to its end.
  Range range(uint32_t begin, uint32_t end) const;
  size_t line_count() const { return starts_.size(); }

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
  std::vector<bool> ascii_;  ///< per line: only ASCII bytes (columns are byte counts)
};

/// Positions of increasing offsets in one pass (linear however long the lines are).
class PositionWalker {
 public:
  explicit PositionWalker(std::string_view text) : text_(text) {}
  /// The position of `offset`, which must not be below the previous call's.
  Position advance(uint32_t offset);

 private:
  std::string_view text_;
  uint32_t at_ = 0;
  Position pos_;
};

/// The length of a UTF-8 sequence starting with byte `c` (1 for invalid lead bytes).
int utf8_length(unsigned char c);
/// UTF-16 code units of `s`.
int utf16_length(std::string_view s);

}  // namespace attn::lsp
