// Each tests/errors/cases/*.attn is a malformed program with its expected diagnostics written
// inline: `// expected-error {{message}}` (this line) or `// expected-error@+N {{message}}` (N lines
// below; @-N above). Every diagnostic must be expected and every expectation met, exactly.
#define BOOST_TEST_MODULE errors
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "frontend/Program.h"
#include "tests/support/TestSupport.h"

namespace fs = std::filesystem;
using namespace attn;

namespace {

// "path:line: error: message" for one expectation or diagnostic.
using Key = std::string;

std::multiset<Key> expectations(const std::string& path, const std::string& text) {
  std::multiset<Key> out;
  static const std::regex re(R"(expected-(error|warning)(@([+-]\d+))? \{\{(.*)\}\}\s*$)");
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::smatch m;
    if (!std::regex_search(line, m, re)) continue;
    int target = n + (m[3].matched ? std::stoi(m[3].str()) : 0);
    out.insert(path + ":" + std::to_string(target) + ": " + m[1].str() + ": " + m[4].str());
  }
  return out;
}

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(test::source_dir() / "tests/errors/cases"))
    if (e.path().extension() == ".attn") out.push_back(fs::relative(e.path(), test::source_dir()));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(there_are_at_least_forty_cases) { BOOST_TEST(cases().size() >= 40u); }

BOOST_DATA_TEST_CASE(expected_diagnostics, boost::unit_test::data::make(cases()), file) {
  auto program = load_program(file.string());
  std::multiset<Key> expected, actual;
  for (size_t f = 0; f < program->sources.size(); ++f) {
    const std::string& path = program->sources.path(static_cast<FileId>(f));
    if (path.rfind("stdlib/", 0) == 0) continue;
    for (const Key& k : expectations(path, program->sources.text(static_cast<FileId>(f)))) expected.insert(k);
  }
  for (const Diagnostic& d : program->diags.all()) {
    LineCol lc = program->sources.line_col(d.range.file, d.range.begin);
    actual.insert(program->sources.path(d.range.file) + ":" + std::to_string(lc.line) + ": " +
                  (d.severity == Severity::Error ? "error" : "warning") + ": " + d.message);
  }
  BOOST_TEST(!expected.empty(), file << " has no expectations");
  for (const Key& k : expected)
    BOOST_TEST(actual.count(k) >= expected.count(k), "expected but not reported: " << k);
  for (const Key& k : actual)
    BOOST_TEST(expected.count(k) >= actual.count(k), "reported but not expected: " << k);
  // Nothing may crash further down either: the whole rendering path runs.
  BOOST_TEST(!render_diagnostics(program->diags, program->sources).empty());
}
