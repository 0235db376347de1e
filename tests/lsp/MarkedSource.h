// Test sources with markers: `^` is a cursor position, `[[...]]` a range; both are removed.
#pragma once

#include <string>
#include <vector>

#include "lsp/Positions.h"

namespace attn::test {

struct MarkedSource {
  std::string text;                                   ///< without the markers
  std::vector<uint32_t> points;                       ///< byte offsets of `^`, in order
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  ///< byte ranges of `[[...]]`, in order

  /// The protocol position of point `i` / range `i`.
  lsp::Position point(size_t i = 0) const { return lsp::LineTable(text).position(points.at(i)); }
  lsp::Range range(size_t i) const {
    return lsp::LineTable(text).range(ranges.at(i).first, ranges.at(i).second);
  }
};

inline MarkedSource parse_marked(const std::string& marked) {
  MarkedSource m;
  std::vector<uint32_t> open;
  for (size_t i = 0; i < marked.size(); ++i) {
    uint32_t here = static_cast<uint32_t>(m.text.size());
    if (marked[i] == '^') {
      m.points.push_back(here);
    } else if (marked.compare(i, 2, "[[") == 0) {
      open.push_back(here);
      ++i;
    } else if (marked.compare(i, 2, "]]") == 0 && !open.empty()) {
      m.ranges.push_back({open.back(), here});
      open.pop_back();
      ++i;
    } else {
      m.text += marked[i];
    }
  }
  return m;
}

}  // namespace attn::test
