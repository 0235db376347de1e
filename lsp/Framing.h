// Content-Length framing of JSON-RPC messages, resynchronising after malformed input.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "lsp/Protocol.h"

namespace attn::lsp {

/// Splits a byte stream into message bodies. A malformed header, a wrong length or stray bytes
/// cost only the message they hit: reading resumes at the next `Content-Length:` header.
class FrameReader {
 public:
  /// `next_byte` returns the next input byte (0-255), or -1 at the end of input.
  explicit FrameReader(std::function<int()> next_byte) : next_byte_(std::move(next_byte)) {}

  /// One message body, or (with `error` set) the bytes skipped to get back in step.
  struct Frame {
    std::string body;   ///< the body; for an error, the skipped bytes (the first 64 KiB)
    std::string error;  ///< empty for a message; otherwise what was wrong
  };

  /// The next frame; nothing at the end of input (a truncated last message included).
  std::optional<Frame> next();

 private:
  int get();
  void unget(std::string bytes);

  std::function<int()> next_byte_;
  std::string pending_;  // bytes given back, read before next_byte_
  size_t pending_at_ = 0;
};

/// The largest message body accepted.
constexpr size_t kMaxMessageBytes = size_t{512} << 20;

/// The request id in a body that is not valid JSON (`"id": 7` or `"id": "x"`), when one can be
/// seen; null otherwise. A parse error is answered with it so that the client's request ends.
json guess_request_id(const std::string& body);

}  // namespace attn::lsp
