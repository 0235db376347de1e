// The stdio transport: Content-Length framed JSON-RPC. A reader thread queues incoming messages
// so that the server sees what is pending (cancellations, newer edits) while it works.
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "lsp/Framing.h"
#include "lsp/Server.h"

namespace attn::lsp {

namespace {

struct Incoming {
  json message;
  std::string error;  ///< not empty: the body was not JSON, or the framing was broken
  json id;            ///< with an error: the request id seen in the bytes, if any
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
    FrameReader frames([] {
      int ch = std::fgetc(stdin);
      return ch == EOF ? -1 : ch;
    });
    while (std::optional<FrameReader::Frame> frame = frames.next()) {
      Incoming in;
      if (!frame->error.empty()) {
        std::cerr << "attnc lsp: " << frame->error << "\n";
        // Skipped bytes are answered only when they name a request: that request would
        // otherwise wait for ever.
        in.id = guess_request_id(frame->body);
        if (in.id.is_null()) continue;
        in.error = frame->error;
      } else {
        in.message = json::parse(frame->body, nullptr, false);
        if (in.message.is_discarded()) {
          in.message = nullptr;
          in.error = "the body is not valid JSON";
          in.id = guess_request_id(frame->body);
        }
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
      auto has_work = [&] { return !inbox->queue.empty() || inbox->input_done; };
      if (!inbox->ready.wait_for(lock, kIdleAfter, has_work)) {
        // A pause in the editor's messages: the time for work that would slow a burst of edits.
        lock.unlock();
        server.idle();
        lock.lock();
        inbox->ready.wait(lock, has_work);
      }
      if (inbox->queue.empty()) break;
      next = std::move(inbox->queue.front());
      inbox->queue.pop_front();
      // What the server needs to see ahead (cancellations, newer edits) is near; a bounded
      // window keeps a long backlog from costing quadratic copies.
      for (size_t i = 0; i < inbox->queue.size() && i < 256; ++i) later.push_back(inbox->queue[i].message);
    }
    if (!next.error.empty())
      server.reject_unparsable(next.error, next.id);
    else
      server.handle(next.message, later);
  }
  std::fflush(out);
  // The end of input without `exit` counts as an unclean exit.
  return server.exited() ? server.exit_code() : 1;
}

}  // namespace attn::lsp
