// The stdio transport: Content-Length framed JSON-RPC. A reader thread queues incoming messages
// so that the server sees what is pending (cancellations, newer edits) while it works.
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "lsp/Server.h"

namespace attn::lsp {

namespace {

constexpr size_t kMaxMessageBytes = size_t{512} << 20;

// One framed message body from `in`; false at the end of input.
bool read_message(std::FILE* in, std::string& body) {
  long long length = -1;
  std::string line;
  while (true) {
    line.clear();
    int ch;
    while ((ch = std::fgetc(in)) != EOF && ch != '\n') line += static_cast<char>(ch);
    if (ch == EOF) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (length >= 0) break;
      continue;  // stray blank line before the headers
    }
    const std::string key = "content-length:";
    std::string lower;
    for (char c : line.substr(0, key.size()))
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == key) {
      try {
        length = std::stoll(line.substr(key.size()));
      } catch (const std::exception&) {
        length = -1;
      }
      if (length < 0 || static_cast<size_t>(length) > kMaxMessageBytes) {
        std::cerr << "attnc lsp: bad Content-Length header: " << line << "\n";
        length = -1;
      }
    }
  }
  body.resize(static_cast<size_t>(length));
  return std::fread(body.data(), 1, body.size(), in) == body.size();
}

struct Incoming {
  json message;
  std::string error;  ///< not empty: the body was not JSON
};

// Shared with the reader thread, which may outlive serve_stdio() (blocked in a read).
struct Inbox {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<Incoming> queue;
  bool input_done = false;
};

}  // namespace

int serve_stdio() {
  // The protocol gets its own descriptor; whatever else writes to stdout lands on stderr.
  std::fflush(stdout);
  int proto_fd = ::dup(1);
  ::dup2(2, 1);
  std::FILE* out = ::fdopen(proto_fd, "wb");
  if (!out) {
    std::cerr << "attnc lsp: cannot open the output channel\n";
    return 1;
  }

  auto inbox = std::make_shared<Inbox>();
  std::thread reader([inbox] {
    std::string body;
    while (read_message(stdin, body)) {
      Incoming in;
      in.message = json::parse(body, nullptr, false);
      if (in.message.is_discarded()) {
        in.message = nullptr;
        in.error = "the body is not valid JSON";
      }
      std::lock_guard<std::mutex> lock(inbox->mutex);
      inbox->queue.push_back(std::move(in));
      inbox->ready.notify_one();
    }
    std::lock_guard<std::mutex> lock(inbox->mutex);
    inbox->input_done = true;
    inbox->ready.notify_one();
  });
  reader.detach();  // it may be blocked in a read when `exit` arrives

  Server server([&](const json& m) {
    std::string body = dump_message(m);
    std::fprintf(out, "Content-Length: %zu\r\n\r\n", body.size());
    std::fwrite(body.data(), 1, body.size(), out);
    std::fflush(out);
  });
  while (!server.exited()) {
    Incoming next;
    std::deque<json> later;
    {
      std::unique_lock<std::mutex> lock(inbox->mutex);
      inbox->ready.wait(lock, [&] { return !inbox->queue.empty() || inbox->input_done; });
      if (inbox->queue.empty()) break;
      next = std::move(inbox->queue.front());
      inbox->queue.pop_front();
      // What the server needs to see ahead (cancellations, newer edits) is near; a bounded
      // window keeps a long backlog from costing quadratic copies.
      for (size_t i = 0; i < inbox->queue.size() && i < 256; ++i) later.push_back(inbox->queue[i].message);
    }
    if (!next.error.empty())
      server.reject_unparsable(next.error);
    else
      server.handle(next.message, later);
  }
  std::fflush(out);
  // The end of input without `exit` counts as an unclean exit.
  return server.exited() ? server.exit_code() : 1;
}

}  // namespace attn::lsp
