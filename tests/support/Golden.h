// Golden files: emitted text compared with a checked-in file (or rewritten with
// ATTNC_UPDATE_GOLDEN=1), with fixed text the backends embed shown as one marker line.
#pragma once

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace attn::test {

/// Text that every kernel's output carries unchanged (a device library, runtime glue): a golden
/// shows each occurrence that starts a line as `// [fixed text: LABEL, N lines]`, or with `hashed`
/// as `// [LABEL: N lines, hash H]`.
struct FixedText {
  std::string label;
  std::string text;
  /// Whether the marker carries the text's hash: for text taken from the output itself, which the
  /// golden would not pin otherwise.
  bool hashed = false;
};

/// A fixed block known by its first and last lines rather than its exact text (Halide's runtime
/// header, which carries names renamed per kernel): shown as `// [LABEL: N lines, hash H]`, the hash
/// keeping a change inside it visible in the golden.
struct FixedSpan {
  std::string label;
  std::string first;  ///< the block's first line(s), starting a line
  std::string last;   ///< its last line(s), ending a line: the first match after `first`
  /// Whether `first` and `last` stay in the text (section headers around the block): then only the
  /// lines between them become the marker.
  bool between = false;
};

/// `text` with the fixed blocks replaced by their markers (spans first, then texts, longest first).
std::string lean_golden_text(std::string text, const std::vector<FixedText>& fixed,
                             const std::vector<FixedSpan>& spans = {});

/// `// [LABEL: N lines, hash H]`: a whole text a golden pins without showing it.
std::string hash_marker(const std::string& label, const std::string& text);

/// Empty when `expected_file` holds `actual`; else a message naming the first line that differs
/// (`actual` then goes to $TMPDIR/<file name>.actual for a full diff). With ATTNC_UPDATE_GOLDEN
/// set, writes `actual` to `expected_file` instead and returns empty.
std::string golden_mismatch(const std::filesystem::path& expected_file, const std::string& actual);

/// Fails the current test case when `expected_file` does not hold `actual` (see golden_mismatch).
inline void check_golden(const std::filesystem::path& expected_file, const std::string& actual) {
  const std::string why = golden_mismatch(expected_file, actual);
  BOOST_CHECK_MESSAGE(why.empty(), why);
}

}  // namespace attn::test
