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
