// Byte offset <-> (line, UTF-16 column) conversion for the language server.
#include "lsp/Positions.h"

#include <algorithm>

namespace attn::lsp {

int utf8_length(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xe) return 3;
  if ((c >> 3) == 0x1e) return 4;
  return 1;
}

namespace {

// One code point starting at s[i]: its byte length (1 if malformed) and UTF-16 width.
std::pair<size_t, int> step(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len = static_cast<size_t>(utf8_length(c));
  if (len == 1 || i + len > s.size()) return {1, 1};
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return {1, 1};
  return {len, len == 4 ? 2 : 1};
}

}  // namespace

int utf16_length(std::string_view s) {
  int n = 0;
  for (size_t i = 0; i < s.size();) {
    auto [len, units] = step(s, i);
    i += len;
    n += units;
  }
  return n;
}

LineTable::LineTable(std::string_view text) : text_(text), starts_{0} {
  bool ascii = true;
  for (uint32_t i = 0; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) ascii = false;
    if (text[i] == '\n') {
      starts_.push_back(i + 1);
      ascii_.push_back(ascii);
      ascii = true;
    }
  }
  ascii_.push_back(ascii);
}

Position LineTable::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  size_t line = static_cast<size_t>(it - starts_.begin()) - 1;
  uint32_t start = starts_[line];
  if (ascii_[line])
    return {static_cast<int>(line), static_cast<int>(offset - start)};  // long lines stay O(1)
  // An offset inside a multi-byte sequence counts up to that sequence's start.
  int col = 0;
  for (size_t i = start; i < offset;) {
    auto [len, units] = step(text_, i);
    if (i + len > offset) break;
    i += len;
    col += units;
  }
  return {static_cast<int>(line), col};
}

Position PositionWalker::advance(uint32_t offset) {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  while (at_ < offset) {
    if (text_[at_] == '\n') {
      ++pos_.line;
      pos_.character = 0;
      ++at_;
      continue;
    }
    auto [len, units] = step(text_, at_);
    if (at_ + len > offset) break;  // inside a sequence: count up to its start
    at_ += static_cast<uint32_t>(len);
    pos_.character += units;
  }
  return pos_;
}

Range LineTable::range(uint32_t begin, uint32_t end) const {
  while (end > begin && end < text_.size() && (static_cast<unsigned char>(text_[end]) >> 6) == 0x2) ++end;
  return {position(begin), position(end)};
}

uint32_t LineTable::offset(Position p) const {
  if (p.line < 0) return 0;
  if (static_cast<size_t>(p.line) >= starts_.size()) return static_cast<uint32_t>(text_.size());
  size_t i = starts_[static_cast<size_t>(p.line)];
  size_t end = static_cast<size_t>(p.line) + 1 < starts_.size() ? starts_[static_cast<size_t>(p.line) + 1] - 1
                                                                : text_.size();
  if (ascii_[static_cast<size_t>(p.line)])
    return static_cast<uint32_t>(std::min(i + static_cast<size_t>(std::max(p.character, 0)), end));
  int col = 0;
  while (i < end && col < p.character) {
    auto [len, units] = step(text_, i);
    // A position between the two halves of a surrogate pair rounds to the code point's end.
    i += len;
    col += units;
  }
  return static_cast<uint32_t>(std::min(i, end));
}

}  // namespace attn::lsp
