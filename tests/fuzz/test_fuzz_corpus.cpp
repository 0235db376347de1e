// Replays the fuzz corpus (tests/fuzz/corpus, plus every sample, stdlib module and error case)
// through the fuzz target, and a deterministic batch of byte-level mutations of each.
#define BOOST_TEST_MODULE fuzz_corpus
#include <boost/test/unit_test.hpp>
#include <random>

#include "tests/fuzz/FuzzTarget.h"
#include "tests/support/TestSupport.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> seeds() {
  std::vector<std::string> out;
  for (const char* dir : {"tests/fuzz/corpus", "samples", "stdlib", "tests/errors/cases"})
    for (const auto& f : test::files_under(test::source_dir() / dir, ""))
      if (fs::is_regular_file(f)) out.push_back(test::read_file(f));
  return out;
}

void run(const std::string& s) {
  test::fuzz_frontend_one(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

}  // namespace

BOOST_AUTO_TEST_CASE(corpus_replays_without_crashing) {
  auto all = seeds();
  BOOST_TEST(all.size() > 50u);
  for (const std::string& s : all) run(s);
}

BOOST_AUTO_TEST_CASE(mutations_do_not_crash) {
  std::mt19937 rng(2026);
  const std::string alphabet =
      "()[]{}<>;,.:=!?|&+-*/%\"' \n\tqkvbhscore0123456789maskletfnkerneltensorimportinf";
  auto all = seeds();
  for (const std::string& seed : all) {
    for (int i = 0; i < 30; ++i) {
      std::string s = seed;
      int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !s.empty(); ++e) {
        size_t at = rng() % s.size();
        switch (rng() % 4) {
          case 0: s.erase(at, 1 + rng() % 8); break;
          case 1: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
          case 2: s[at] = alphabet[rng() % alphabet.size()]; break;
          case 3: s.insert(at, s.substr(rng() % s.size(), rng() % 16)); break;
        }
      }
      run(s);
    }
  }
  BOOST_TEST(true);
}

namespace {

std::string npy(const std::string& descr, const std::string& shape, size_t data_bytes) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string s = std::string("\x93NUMPY\x01\x00", 8);
  s += static_cast<char>(header.size() & 0xff);
  s += static_cast<char>(header.size() >> 8);
  return s + header + std::string(data_bytes, '\x01');
}

// A version 1.0 file with the header dict `dict` as written, padded as NumPy pads it.
std::string npy_header(const std::string& dict, size_t data_bytes) {
  std::string header = dict + std::string((64 - (10 + dict.size() + 1) % 64) % 64, ' ') + "\n";
  std::string s = std::string("\x93NUMPY\x01\x00", 8);
  s += static_cast<char>(header.size() & 0xff);
  s += static_cast<char>(header.size() >> 8);
  return s + header + std::string(data_bytes, '\x01');
}

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Byte-level mutations of `seed`, deterministic.
template <class F>
void mutate(const std::string& seed, int count, std::mt19937& rng, F run_one) {
  for (int i = 0; i < count; ++i) {
    std::string s = seed;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t at = rng() % s.size();
      switch (rng() % 4) {
        case 0: s.erase(at, 1 + rng() % 8); break;
        case 1: s.insert(at, 1, static_cast<char>(rng() % 256)); break;
        case 2: s[at] = static_cast<char>(rng() % 256); break;
        case 3: s.insert(at, s.substr(rng() % s.size(), rng() % 16)); break;
      }
    }
    run_one(s);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(npy_reader_seeds_and_mutations) {
  std::vector<std::string> seeds = {
      npy("<f4", "(2, 3)", 24),
      npy("<i4", "(4,)", 16),
      npy("|b1", "(1, 1, 2, 2)", 4),
      npy("<f4", "(1, 2, 2305843009213693952, 16)", 64),  // 2^61: the product overflows
      npy("<f4", "(1, 4611686018427387904, 0, 16)", 0),   // 2^62 heads, no rows
      npy("<f8", "(1099511627776, 1099511627776)", 8),
      // Headers NumPy refuses or reads otherwise (issue 31): each a clear error.
      npy_header("{'descr': '<f4', 'fortran_order': 1, 'shape': (2, 3), }", 24),
      npy_header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24),
      npy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,2,1e3,8), }", 64),
      npy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (0x10,), }", 64),
      npy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (16abc,), }", 64),
      npy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (8.5,), }", 64),
      npy_header("{'descr': '<i8', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 16),
      npy_header("{'shape': (2,), \"descr\": \"<f4\", 'fortran_order': False}", 8),
  };
  std::mt19937 rng(7);
  auto run_one = [](const std::string& s) {
    test::fuzz_npy_one(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  for (const std::string& s : seeds) {
    run_one(s);
    mutate(s, 300, rng, run_one);
  }
  BOOST_TEST(true);
}

BOOST_AUTO_TEST_CASE(lsp_framing_seeds_and_mutations) {
  const std::string init = frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  const std::string open = frame(
      R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///f/a.attn","languageId":"attn","version":1,"text":"mask m = q >= kv;"}}})");
  const std::string hover = frame(
      R"({"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///f/a.attn"},"position":{"line":0,"character":6}}})");
  std::vector<std::string> seeds = {
      init + open + hover,
      "Content-Length: abc\r\n\r\n{\"id\":5}" + init + hover,
      "garbage" + init + "\r\n\r\nmore" + hover,
      "Content-Length: 9999\r\n\r\n" + init + hover,
      "Content-Length: 3\r\n\r\n" + init.substr(22) + hover,
      // Reversed and negative change ranges (issue 31): refused, the document still answers.
      init + open +
          frame(
              R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///f/a.attn","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":9},"end":{"line":0,"character":2}},"text":"x"}]}})") +
          frame(
              R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///f/a.attn","version":3},"contentChanges":[{"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":-5}},"text":"x"}]}})") +
          hover,
  };
  std::mt19937 rng(11);
  auto run_one = [](const std::string& s) {
    test::fuzz_lsp_framing_one(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  for (const std::string& s : seeds) {
    run_one(s);
    mutate(s, 200, rng, run_one);
  }
  BOOST_TEST(true);
}
