// JSON-RPC transcripts (tests/lsp/transcripts/*.json) against the server in-process, and the
// stdio transport of `attnc lsp` (framing, malformed input, exit codes).
//
// A transcript is {"files": {name: text},
//                  "steps": [{"send": msg} | {"raw": text} | {"expect": msg} | {"delete": name}]}.
// Files are written to a temporary folder; "${ROOT}" in any string is that folder's file:// URI and
// "${STDLIB}" the folder holding the stdlib's files, "${DIR}" the folder's path. An expected message matches
// the next one the server sent structurally (same keys, same values); the string "<any>" matches any value
// and is how volatile fields (the version in serverInfo, long capability lists, the parser's lists of
// expected tokens in syntax errors) are left out.
// ATTNC_UPDATE_TRANSCRIPTS=1 rewrites the expectations from what the server sends (nested "<any>"
// kept; an expectation that is "<any>" as a whole is filled in).
#include <boost/test/unit_test.hpp>
#include <deque>
#include <fstream>

#include "lsp/Server.h"
#include "lsp/Uri.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::lsp;
namespace fs = std::filesystem;

namespace {

void substitute(json& j, const std::string& from, const std::string& to) {
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
    j = s;
  } else if (j.is_structured()) {
    for (auto& x : j) substitute(x, from, to);
  }
}

// Object keys are substituted too (WorkspaceEdit changes are keyed by URI).
void substitute_keys(json& j, const std::string& from, const std::string& to) {
  if (j.is_object()) {
    json out = json::object();
    for (auto& [k, v] : j.items()) {
      std::string key = k;
      if (size_t at = key.find(from); at != std::string::npos) key.replace(at, from.size(), to);
      json value = v;
      substitute_keys(value, from, to);
      out[key] = value;
    }
    j = out;
  } else if (j.is_array()) {
    for (auto& x : j) substitute_keys(x, from, to);
  }
}

bool matches(const json& expected, const json& actual, std::string path, std::string& why) {
  if (expected.is_string() && expected == "<any>") return true;
  if (expected.is_object() && actual.is_object()) {
    for (auto& [k, v] : expected.items()) {
      if (!actual.contains(k)) return (why = path + "." + k + " is missing"), false;
      if (!matches(v, actual[k], path + "." + k, why)) return false;
    }
    for (auto& [k, v] : actual.items())
      if (!expected.contains(k)) return (why = path + "." + k + " is not expected"), false;
    return true;
  }
  if (expected.is_array() && actual.is_array()) {
    if (expected.size() != actual.size())
      return (why = path + ": " + std::to_string(actual.size()) + " elements, expected " +
                    std::to_string(expected.size())),
             false;
    for (size_t i = 0; i < expected.size(); ++i)
      if (!matches(expected[i], actual[i], path + "[" + std::to_string(i) + "]", why)) return false;
    return true;
  }
  if (expected != actual) return (why = path + ": " + actual.dump() + ", expected " + expected.dump()), false;
  return true;
}

// Keeps "<any>" of the old expectation where the new one has the actual value.
json merge_any(const json& old, const json& actual) {
  if (old.is_string() && old == "<any>") return old;
  if (old.is_object() && actual.is_object()) {
    json out = actual;
    for (auto& [k, v] : old.items())
      if (out.contains(k)) out[k] = merge_any(v, out[k]);
    return out;
  }
  if (old.is_array() && actual.is_array() && old.size() == actual.size()) {
    json out = json::array();
    for (size_t i = 0; i < old.size(); ++i) out.push_back(merge_any(old[i], actual[i]));
    return out;
  }
  return actual;
}

void run_transcript(const fs::path& file) {
  json t = json::parse(attn::test::read_file(file));
  attn::test::TempDir dir;
  std::string root = path_to_uri(dir.path().string());
  std::string stdlib = path_to_uri(fs::path(stdlib_file("std.masks")).parent_path().string());
  json files = t.value("files", json::object());
  for (auto& [name, text] : files.items()) attn::test::write_file(dir.path() / name, text.get<std::string>());
  std::deque<json> sent;
  Server server([&](const json& m) { sent.push_back(json::parse(dump_message(m))); });
  bool update = std::getenv("ATTNC_UPDATE_TRANSCRIPTS") != nullptr;
  json& steps = t["steps"];
  for (size_t i = 0; i < steps.size(); ++i) {
    json step = steps[i];
    substitute(step, "${ROOT}", root);
    substitute(step, "${STDLIB}", stdlib);
    substitute_keys(step, "${ROOT}", root);
    substitute_keys(step, "${STDLIB}", stdlib);
    substitute(step, "${DIR}", dir.path().string());
    if (step.contains("send")) {
      server.handle(step["send"]);
    } else if (step.contains("delete")) {
      fs::remove(dir.path() / step["delete"].get<std::string>());
    } else if (step.contains("raw")) {
      json parsed = json::parse(step["raw"].get<std::string>(), nullptr, false);
      if (parsed.is_discarded())
        server.reject_unparsable("the body is not valid JSON");
      else
        server.handle(parsed);
    } else if (step.contains("expect")) {
      BOOST_TEST_CONTEXT(file.filename().string() << " step " << i) {
        BOOST_REQUIRE_MESSAGE(!sent.empty(), "the server sent nothing; expected " << step["expect"].dump());
        json actual = sent.front();
        sent.pop_front();
        if (update) {
          json back = actual;
          substitute(back, root, "${ROOT}");
          substitute(back, stdlib, "${STDLIB}");
          substitute_keys(back, root, "${ROOT}");
          substitute_keys(back, stdlib, "${STDLIB}");
          substitute(back, dir.path().string(), "${DIR}");
          // A whole expectation of "<any>" is a placeholder for a new transcript: fill it in.
          json& old = steps[i]["expect"];
          old = old == "<any>" ? back : merge_any(old, back);
          continue;
        }
        std::string why;
        BOOST_TEST(matches(step["expect"], actual, "", why), why << "\n  actual: " << actual.dump());
      }
    }
  }
  BOOST_TEST(sent.empty(), file.filename().string()
                               << ": unexpected message " << (sent.empty() ? "" : sent.front().dump()));
  if (update) attn::test::write_file(file, t.dump(2) + "\n");
}

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// The framed messages of `attnc lsp`'s output.
std::vector<json> unframe(const std::string& out) {
  std::vector<json> msgs;
  size_t at = 0;
  while ((at = out.find("Content-Length: ", at)) != std::string::npos) {
    size_t len = std::stoul(out.substr(at + 16));
    size_t body = out.find("\r\n\r\n", at) + 4;
    msgs.push_back(json::parse(out.substr(body, len)));
    at = body + len;
  }
  return msgs;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(transcripts)

BOOST_AUTO_TEST_CASE(every_transcript) {
  auto files = attn::test::files_under(attn::test::source_dir() / "tests/lsp/transcripts", ".json");
  BOOST_TEST(files.size() >= 6u);
  for (const fs::path& f : files) {
    BOOST_TEST_MESSAGE("transcript " << f.filename().string());
    run_transcript(f);
  }
}

BOOST_AUTO_TEST_CASE(a_cancel_already_queued_cancels_the_request) {
  std::vector<json> sent;
  Server server([&](const json& m) { sent.push_back(m); });
  server.handle({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}});
  std::deque<json> later = {{{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", "r2"}}}}};
  server.handle({{"jsonrpc", "2.0"},
                 {"id", "r2"},
                 {"method", "textDocument/documentSymbol"},
                 {"params", json::object()}},
                later);
  BOOST_REQUIRE_EQUAL(sent.size(), 2u);
  BOOST_TEST(sent[1]["error"]["code"] == -32800);
  BOOST_TEST(sent[1]["id"] == "r2");
}

BOOST_AUTO_TEST_CASE(queued_changes_publish_once) {
  std::vector<json> sent;
  Server server([&](const json& m) { sent.push_back(m); });
  server.handle({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}});
  auto change = [](int version, const std::string& text) {
    return json{{"jsonrpc", "2.0"},
                {"method", "textDocument/didChange"},
                {"params",
                 {{"textDocument", {{"uri", "file:///tmp/q.attn"}, {"version", version}}},
                  {"contentChanges", {{{"text", text}}}}}}};
  };
  server.handle(
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/didOpen"},
       {"params", {{"textDocument", {{"uri", "file:///tmp/q.attn"}, {"version", 1}, {"text", ""}}}}}});
  server.handle(change(2, "mask m = q >= k;"), std::deque<json>{change(3, "mask m = q >= kv;")});
  server.handle(change(3, "mask m = q >= kv;"));
  BOOST_REQUIRE_EQUAL(sent.size(), 3u);  // initialize, didOpen's publication, version 3's
  BOOST_TEST(sent[2]["params"]["version"] == 3);
  BOOST_TEST(sent[2]["params"]["diagnostics"].empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(stdio)

BOOST_AUTO_TEST_CASE(framing_malformed_input_and_exit_codes) {
  attn::test::TempDir dir;
  std::string uri = path_to_uri((dir.path() / "a.attn").string());
  std::string in;
  in += frame(R"({"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}})");
  in += frame(R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{}}})");
  in += frame(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  in += frame("{not json");
  in += frame(
      "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"x\",\"params\":{\"s\":\"\xff\xfe\"}}");  // invalid UTF-8
  in += "X-Unknown: 1\r\n" + frame("[1, 2]");
  in += frame(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" + uri +
              R"(","languageId":"attn","version":1,"text":"mask m = q >= k;"}}})");
  in += frame(R"({"jsonrpc":"2.0","id":3,"method":"workspace/unknownThing","params":{}})");
  in += frame(R"({"jsonrpc":"2.0","id":4,"method":"shutdown"})");
  in += frame(R"({"jsonrpc":"2.0","method":"exit"})");
  attn::test::write_file(dir.path() / "in", in);
  auto r = attn::test::run_command(attn::test::attnc_binary() + " lsp < " + (dir.path() / "in").string() +
                                   " > " + (dir.path() / "out").string());
  BOOST_TEST(r.status == 0, r.output);
  auto msgs = unframe(attn::test::read_file(dir.path() / "out"));
  BOOST_REQUIRE_EQUAL(msgs.size(), 8u);
  BOOST_TEST(msgs[0]["error"]["code"] == -32002);
  BOOST_TEST(msgs[1]["result"]["capabilities"]["textDocumentSync"]["change"] == 2);
  BOOST_TEST(msgs[2]["error"]["code"] == -32700);
  BOOST_TEST(msgs[3]["error"]["code"] == -32700);
  BOOST_TEST(msgs[4]["error"]["code"] == -32600);
  BOOST_TEST(msgs[5]["method"] == "textDocument/publishDiagnostics");
  BOOST_TEST(msgs[5]["params"]["diagnostics"][0]["message"].get<std::string>().find("unknown name 'k'") ==
             0u);
  BOOST_TEST(msgs[6]["error"]["code"] == -32601);
  BOOST_TEST(msgs[7]["result"].is_null());
}

BOOST_AUTO_TEST_CASE(end_of_input_without_exit_is_unclean_and_does_not_hang) {
  attn::test::TempDir dir;
  attn::test::write_file(dir.path() / "in",
                         frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})") +
                             "Content-Length: 99\r\n\r\n{\"trunc");
  auto r = attn::test::run_command(attn::test::attnc_binary() + " lsp < " + (dir.path() / "in").string() +
                                   " > /dev/null");
  BOOST_TEST(r.status != 0);
}

BOOST_AUTO_TEST_CASE(check_all_features_runs_clean) {
  attn::test::TempDir dir;
  attn::test::write_file(dir.path() / "k.attn",
                         "import std.masks;\n/// doc é\nmask w(n: int) = causal && q - kv < n;\n"
                         "score s(c: float) = let t = score / c; c * tanh(t);\n"
                         "kernel k { mask = w(n = 8); score = s(30.0); dtype = bf16; }\nmask broken = w(;\n");
  auto r = attn::test::run_command(attn::test::attnc_binary() + " check --all-features " +
                                   (dir.path() / "k.attn").string());
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find(" 0 failures") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(check_all_features_on_every_error_case) {
  // Broken code is where editors spend their time: every feature on every erroneous example.
  std::string files;
  for (const auto& f : attn::test::files_under(attn::test::source_dir() / "tests/errors/cases", ".attn"))
    files += " " + f.string();
  BOOST_REQUIRE(!files.empty());
  auto r = attn::test::run_command(attn::test::attnc_binary() + " check --all-features" + files);
  BOOST_TEST(r.status == 0, r.output);
}

BOOST_AUTO_TEST_CASE(textmate_grammar_is_valid_json) {
  json g = json::parse(attn::test::read_file(attn::test::source_dir() / "editors/attn.tmLanguage.json"));
  BOOST_TEST(g["scopeName"] == "source.attn");
  BOOST_TEST(g["repository"].contains("comments"));
  json pkg = json::parse(attn::test::read_file(attn::test::source_dir() / "editors/vscode/package.json"));
  BOOST_TEST(pkg["contributes"]["grammars"][0]["scopeName"] == "source.attn");
}

BOOST_AUTO_TEST_SUITE_END()
