// fuzz_lsp_framing_one: Content-Length framing and the server behind it, on arbitrary bytes.
#include "lsp/Framing.h"
#include "lsp/Server.h"
#include "tests/fuzz/FuzzTarget.h"

namespace attn::test {

void fuzz_lsp_framing_one(const uint8_t* data, size_t size) {
  size_t at = 0;
  lsp::FrameReader frames([&]() -> int { return at < size ? data[at++] : -1; });
  size_t replies = 0;
  lsp::Server server([&](const lsp::json& m) {
    (void)lsp::dump_message(m);
    ++replies;
  });
  while (auto frame = frames.next()) {
    if (!frame->error.empty()) {
      lsp::json id = lsp::guess_request_id(frame->body);
      if (!id.is_null()) server.reject_unparsable(frame->error, id);
      continue;
    }
    lsp::json message = lsp::json::parse(frame->body, nullptr, false);
    if (message.is_discarded())
      server.reject_unparsable("not JSON", lsp::guess_request_id(frame->body));
    else
      server.handle(message);
    if (server.exited()) break;
  }
}

}  // namespace attn::test
