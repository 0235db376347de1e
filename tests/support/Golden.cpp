// Golden files: fixed blocks shown as markers, the comparison and its first-difference message.
#include "tests/support/Golden.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "tests/support/TestSupport.h"

namespace attn::test {

namespace fs = std::filesystem;

namespace {

size_t line_count(const std::string& block) {
  size_t n = static_cast<size_t>(std::count(block.begin(), block.end(), '\n'));
  return !block.empty() && block.back() != '\n' ? n + 1 : n;
}

// FNV-1a, 64 bits: enough to tell two versions of a block apart in a review.
std::string short_hash(const std::string& block) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : block) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

bool starts_line(const std::string& text, size_t at) { return at == 0 || text[at - 1] == '\n'; }

// The end of a block ending at `end`: past its newline, the text's own or the one after it; npos
// when the block does not end a line.
size_t line_end(const std::string& text, size_t end) {
  if (end > 0 && text[end - 1] == '\n') return end;
  if (end == text.size()) return end;
  return text[end] == '\n' ? end + 1 : std::string::npos;
}

std::string hashed_marker(const std::string& label, const std::string& block) {
  return "// [" + label + ": " + std::to_string(line_count(block)) + " lines, hash " + short_hash(block) +
         "]\n";
}

std::string marker(const std::string& label, const std::string& block, bool with_hash) {
  if (with_hash) return hashed_marker(label, block);
  return "// [fixed text: " + label + ", " + std::to_string(line_count(block)) + " lines]\n";
}

std::string replace_span(std::string text, const FixedSpan& span) {
  for (size_t at = text.find(span.first); at != std::string::npos; at = text.find(span.first, at + 1)) {
    if (!starts_line(text, at)) continue;
    size_t last = text.find(span.last, at + span.first.size());
    size_t end = last == std::string::npos ? last : line_end(text, last + span.last.size());
    if (end == std::string::npos) return text;
    if (span.between) {
      // The marker takes the lines strictly between the two, which stay.
      if (!starts_line(text, last)) continue;
      at += span.first.size();
      end = last;
      if (at == end) continue;
    }
    std::string m = marker(span.label, text.substr(at, end - at), true);
    text.replace(at, end - at, m);
    at += m.size() - 1;
  }
  return text;
}

std::string replace_text(std::string text, const FixedText& fixed) {
  if (fixed.text.empty()) return text;
  for (size_t at = text.find(fixed.text); at != std::string::npos; at = text.find(fixed.text, at + 1)) {
    size_t end = line_end(text, at + fixed.text.size());
    if (!starts_line(text, at) || end == std::string::npos) continue;
    text.replace(at, end - at, marker(fixed.label, fixed.text, fixed.hashed));
  }
  return text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string first_difference(const std::string& expected, const std::string& actual) {
  std::vector<std::string> want = lines_of(expected), got = lines_of(actual);
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  auto show = [](const std::vector<std::string>& lines, size_t i) {
    return i < lines.size() ? "\"" + lines[i] + "\"" : std::string("(end of text)");
  };
  if (i == want.size() && i == got.size()) return "they differ only in the final newline";
  return "first difference at line " + std::to_string(i + 1) + ":\n  expected: " + show(want, i) +
         "\n  actual:   " + show(got, i);
}

}  // namespace

std::string lean_golden_text(std::string text, const std::vector<FixedText>& fixed,
                             const std::vector<FixedSpan>& spans) {
  for (const FixedSpan& span : spans) text = replace_span(std::move(text), span);
  // Longest first: a short block must not break up a longer one that contains it.
  std::vector<const FixedText*> order;
  for (const FixedText& f : fixed) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const FixedText* a, const FixedText* b) { return a->text.size() > b->text.size(); });
  for (const FixedText* f : order) text = replace_text(std::move(text), *f);
  return text;
}

std::string hash_marker(const std::string& label, const std::string& text) {
  return hashed_marker(label, text);
}

std::string golden_mismatch(const fs::path& expected_file, const std::string& actual) {
  const std::string name = fs::relative(expected_file, source_dir()).string();
  // Only ATTNC_UPDATE_GOLDEN=1 rewrites: an empty or stray value (ATTNC_UPDATE_GOLDEN= in a shell)
  // must not turn every golden test into a pass.
  const char* update = std::getenv("ATTNC_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    write_file(expected_file, actual);
    return "";
  }
  if (!fs::exists(expected_file)) return name + " is missing (ATTNC_UPDATE_GOLDEN=1 writes it)";
  const std::string expected = read_file(expected_file);
  if (expected == actual) return "";
  const fs::path copy = fs::temp_directory_path() / (expected_file.filename().string() + ".actual");
  write_file(copy, actual);
  return name + " differs from the output, " + first_difference(expected, actual) + "\nThe output is in " +
         copy.string() + "; ATTNC_UPDATE_GOLDEN=1 rewrites the golden (review the diff).";
}

}  // namespace attn::test
