// Content-Length framing: headers, bodies, and getting back in step after malformed input.
#include "lsp/Framing.h"

#include <algorithm>
#include <cctype>

namespace attn::lsp {

namespace {

constexpr size_t kMaxSkippedKept = 64 << 10;
constexpr size_t kMaxHeaderLine = 64 << 10;
const std::string kKey = "content-length:";

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `Name: value` with a token for the name: a header this server ignores (Content-Type, ...).
bool is_other_header(const std::string& line) {
  size_t colon = line.find(':');
  if (colon == 0 || colon == std::string::npos) return false;
  for (size_t i = 0; i < colon; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (!std::isalnum(c) && c != '-' && c != '_') return false;
  }
  return true;
}

// The length in `Content-Length: N`, or nothing when N is not a plain number within the limit.
std::optional<size_t> parse_length(const std::string& value) {
  size_t a = value.find_first_not_of(" \t"), b = value.find_last_not_of(" \t");
  if (a == std::string::npos) return std::nullopt;
  std::string digits = value.substr(a, b - a + 1);
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  size_t n = std::stoull(digits);
  if (n > kMaxMessageBytes) return std::nullopt;
  return n;
}

// Where a `Content-Length: N` header line starts inside `bytes` (a body that ran into the next
// message: raw CR/LF after a header cannot be part of valid JSON), or npos.
size_t embedded_header(const std::string& bytes) {
  std::string low = lower(bytes);
  for (size_t at = low.find(kKey); at != std::string::npos; at = low.find(kKey, at + 1)) {
    size_t p = at + kKey.size();
    while (p < low.size() && low[p] == ' ') ++p;
    size_t digits = p;
    while (p < low.size() && std::isdigit(static_cast<unsigned char>(low[p]))) ++p;
    if (p > digits && p < low.size() && (low[p] == '\r' || low[p] == '\n')) return at;
  }
  return std::string::npos;
}

}  // namespace

int FrameReader::get() {
  if (pending_at_ < pending_.size()) return static_cast<unsigned char>(pending_[pending_at_++]);
  return next_byte_();
}

void FrameReader::unget(std::string bytes) {
  pending_ = std::move(bytes) + pending_.substr(pending_at_);
  pending_at_ = 0;
}

std::optional<FrameReader::Frame> FrameReader::next() {
  std::string skipped, error;
  auto skip = [&](const std::string& bytes, const std::string& why) {
    if (error.empty()) error = why;
    skipped += bytes.substr(0, kMaxSkippedKept - std::min(kMaxSkippedKept, skipped.size()));
  };
  bool have_length = false;
  size_t length = 0;
  std::string line;
  while (true) {
    line.clear();
    int ch;
    while ((ch = get()) != -1 && ch != '\n') {
      line += static_cast<char>(ch);
      // A huge line without a newline: keep from its last header on, or only its tail (where a
      // header may begin), and never more than half the limit, so each byte is looked at twice.
      if (line.size() > kMaxHeaderLine) {
        size_t keep = lower(line).rfind(kKey);
        if (keep == std::string::npos || keep == 0 || line.size() - keep > kMaxHeaderLine / 2)
          keep = line.size() - kKey.size();
        skip(line.substr(0, keep), "stray bytes between messages");
        line.erase(0, keep);
      }
    }
    if (ch == -1 && line.empty()) {
      if (!error.empty()) return Frame{skipped, error};
      return std::nullopt;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (have_length) break;
      continue;  // blank lines between messages
    }
    size_t at = lower(line).find(kKey);
    if (at == std::string::npos) {
      if (!is_other_header(line) || !skipped.empty()) skip(line + "\n", "stray bytes between messages");
      if (ch == -1) return Frame{skipped, error};
      continue;
    }
    if (at > 0) skip(line.substr(0, at), "stray bytes between messages");
    std::optional<size_t> n = parse_length(line.substr(at + kKey.size()));
    if (!n) {
      // Without a length the body cannot be found: skip to the next header.
      skip(line.substr(at) + "\n", "bad Content-Length header '" + line.substr(at, 80) + "'");
      have_length = false;
      continue;
    }
    if (!error.empty()) {
      // Report what was skipped first; this header starts the next frame.
      unget(line.substr(at) + "\r\n");
      return Frame{skipped, error};
    }
    have_length = true;
    length = *n;
  }
  std::string body(length, '\0');
  for (size_t i = 0; i < body.size(); ++i) {
    int ch = get();
    if (ch == -1) return std::nullopt;
    body[i] = static_cast<char>(ch);
  }
  // A length too large swallowed the start of the next message: give that back. A message is
  // one JSON object or array, so a header (or its beginning) after its last `}` or `]` is not
  // part of it.
  size_t at = embedded_header(body);
  if (at == std::string::npos) {
    size_t close = body.find_last_of("}]");
    size_t tail =
        close == std::string::npos ? std::string::npos : body.find_first_not_of(" \t\r\n", close + 1);
    if (tail != std::string::npos) {
      std::string rest = lower(body.substr(tail, kKey.size()));
      if (kKey.compare(0, rest.size(), rest) == 0) at = tail;
    }
  }
  if (at != std::string::npos) {
    unget(body.substr(at));
    body.erase(at);
  }
  return Frame{body, ""};
}

json guess_request_id(const std::string& body) {
  const std::string head = body.substr(0, kMaxSkippedKept);
  auto space = [&](size_t p) {
    while (p < head.size() && std::isspace(static_cast<unsigned char>(head[p]))) ++p;
    return p;
  };
  for (size_t at = head.find("\"id\""); at != std::string::npos; at = head.find("\"id\"", at + 1)) {
    size_t p = space(at + 4);
    if (p >= head.size() || head[p] != ':') continue;
    p = space(p + 1);
    size_t start = p;
    if (p < head.size() && head[p] == '"') {
      size_t end = head.find('"', p + 1);
      if (end == std::string::npos || end - p > 256) continue;
      std::string id = head.substr(p + 1, end - p - 1);
      bool plain = true;
      for (unsigned char c : id) plain = plain && c >= 0x20 && c != '\\' && c < 0x7f;
      if (plain) return id;
      continue;
    }
    if (p < head.size() && head[p] == '-') ++p;
    size_t digits = p;
    while (p < head.size() && std::isdigit(static_cast<unsigned char>(head[p]))) ++p;
    if (p > digits && p - digits <= 18) return std::stoll(head.substr(start, p - start));
  }
  return nullptr;
}

}  // namespace attn::lsp
