// Content-Length framing under malformed input: a bad header, stray bytes or a wrong length costs
// only the message it hits; the server answers a parse error for a request whose id it can see.
#include <boost/test/unit_test.hpp>

#include "lsp/Framing.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::lsp;

namespace {

std::string frame(const std::string& body, long delta = 0) {
  return "Content-Length: " + std::to_string(static_cast<long>(body.size()) + delta) + "\r\n\r\n" + body;
}

std::vector<FrameReader::Frame> frames_of(const std::string& input) {
  size_t at = 0;
  FrameReader reader(
      [&]() -> int { return at < input.size() ? static_cast<unsigned char>(input[at++]) : -1; });
  std::vector<FrameReader::Frame> out;
  while (auto f = reader.next()) out.push_back(*f);
  return out;
}

const std::string kA = R"({"jsonrpc":"2.0","id":7,"method":"a"})";
const std::string kB = R"({"jsonrpc":"2.0","id":8,"method":"b"})";

// The frames of `attnc lsp`'s output.
std::vector<json> unframe(const std::string& out) {
  std::vector<json> msgs;
  for (const auto& f : frames_of(out)) msgs.push_back(json::parse(f.body));
  return msgs;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(framing)

BOOST_AUTO_TEST_CASE(well_formed_input_with_other_headers) {
  auto f = frames_of(frame(kA) + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(kB));
  BOOST_REQUIRE_EQUAL(f.size(), 2u);
  BOOST_TEST(f[0].body == kA);
  BOOST_TEST(f[1].body == kB);
  BOOST_TEST(f[1].error.empty());
}

BOOST_AUTO_TEST_CASE(a_bad_content_length_costs_one_message) {
  for (const char* bad : {"abc", "-5", "99999999999999999999", "1e3", ""}) {
    auto f = frames_of(std::string("Content-Length: ") + bad + "\r\n\r\n" + kA + frame(kB));
    BOOST_REQUIRE_EQUAL(f.size(), 2u);
    BOOST_TEST(f[0].error.find("bad Content-Length header") == 0u, f[0].error);
    BOOST_TEST(guess_request_id(f[0].body) == 7);
    BOOST_TEST(f[1].body == kB);
  }
}

BOOST_AUTO_TEST_CASE(stray_bytes_before_a_header) {
  auto f = frames_of("garbage without a newline" + frame(kA) + "\r\nmore junk\r\n" + frame(kB));
  BOOST_REQUIRE_EQUAL(f.size(), 4u);
  BOOST_TEST(f[0].error == "stray bytes between messages");
  BOOST_TEST(f[1].body == kA);
  BOOST_TEST(!f[2].error.empty());
  BOOST_TEST(guess_request_id(f[2].body).is_null());
  BOOST_TEST(f[3].body == kB);
}

BOOST_AUTO_TEST_CASE(a_length_too_large_gives_the_next_message_back) {
  for (long delta : {3, 12, 30}) {
    auto f = frames_of(frame(kA, delta) + frame(kB));
    BOOST_REQUIRE_EQUAL(f.size(), 2u);
    BOOST_TEST(f[0].body == kA);
    BOOST_TEST(f[1].body == kB);
  }
}

BOOST_AUTO_TEST_CASE(a_length_too_small_costs_one_message) {
  auto f = frames_of(frame(kA, -10) + frame(kB));
  BOOST_REQUIRE_EQUAL(f.size(), 3u);
  BOOST_TEST(json::parse(f[0].body, nullptr, false).is_discarded());
  BOOST_TEST(f[1].error == "stray bytes between messages");
  BOOST_TEST(f[2].body == kB);
}

BOOST_AUTO_TEST_CASE(request_ids_in_broken_bodies) {
  BOOST_TEST(guess_request_id(R"({"id" : "r-1", "method":)") == "r-1");
  BOOST_TEST(guess_request_id(R"({"jsonrpc":"2.0","id":-3,)") == -3);
  BOOST_TEST(guess_request_id(R"({"id":)").is_null());
  BOOST_TEST(guess_request_id(std::string(100000, ' ')).is_null());
}

BOOST_AUTO_TEST_CASE(the_server_keeps_answering_after_malformed_input) {
  test::TempDir dir;
  std::string in;
  in += frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
  in += "Content-Length: abc\r\n\r\n" + std::string(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})");
  in += "stray" + frame(R"({"jsonrpc":"2.0","id":3,"method":"workspace/unknownThing","params":{}})");
  in += frame(R"({"jsonrpc":"2.0","id":4,"method":"shutd)");
  in += frame(R"({"jsonrpc":"2.0","id":5,"method":"shutdown"})");
  in += frame(R"({"jsonrpc":"2.0","method":"exit"})");
  test::write_file(dir.path() / "in", in);
  // The server's complaints go to stderr, apart from the protocol.
  auto r = test::run_command("(" + test::attnc_binary() + " lsp < " + (dir.path() / "in").string() + " > " +
                             (dir.path() / "out").string() + " 2> " + (dir.path() / "err").string() + ")");
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(test::read_file(dir.path() / "err").find("bad Content-Length header") != std::string::npos);
  auto msgs = unframe(test::read_file(dir.path() / "out"));
  BOOST_REQUIRE_EQUAL(msgs.size(), 5u);
  BOOST_TEST(msgs[0]["id"] == 1);
  BOOST_TEST(msgs[1]["id"] == 2);
  BOOST_TEST(msgs[1]["error"]["code"] == -32700);
  BOOST_TEST(msgs[2]["id"] == 3);
  BOOST_TEST(msgs[2]["error"]["code"] == -32601);
  BOOST_TEST(msgs[3]["id"] == 4);
  BOOST_TEST(msgs[3]["error"]["code"] == -32700);
  BOOST_TEST(msgs[4]["id"] == 5);
  BOOST_TEST(msgs[4]["result"].is_null());
}

BOOST_AUTO_TEST_SUITE_END()
