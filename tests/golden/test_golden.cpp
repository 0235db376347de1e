// Golden tests: the AST and IR dumps of every sample, compared with tests/golden/expected/ (the
// backends' emitted code: test_golden_<target>.cpp). Regenerate every golden with
// ATTNC_UPDATE_GOLDEN=1 and review the diff.
#define BOOST_TEST_MODULE golden
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "codegen/Lower.h"
#include "frontend/PrintAst.h"
#include "frontend/Program.h"
#include "tests/support/Golden.h"
#include "tests/support/TestSupport.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> samples() {
  std::vector<fs::path> out;
  for (const auto& f : test::files_under(test::source_dir() / "samples", ".attn"))
    out.push_back(fs::relative(f, test::source_dir()));
  return out;
}

}  // namespace

BOOST_DATA_TEST_CASE(sample_dumps, boost::unit_test::data::make(samples()), file) {
  auto p = load_program(file.string());
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  fs::path dir = test::source_dir() / "tests/golden/expected";
  std::string stem = file.stem().string();
  test::check_golden(dir / (stem + ".ast"), print_ast(*p->main(), p->sources));
  std::string ir;
  for (const Decl* k : p->kernels()) {
    DiagnosticEngine diags;
    auto lowered = lower_kernel(*p, *k, diags);
    BOOST_REQUIRE(lowered);
    ir += print_ir(*lowered) + "  hash      " + kernel_hash(*lowered) + "\n";
  }
  test::check_golden(dir / (stem + ".ir"), ir);
}

BOOST_AUTO_TEST_CASE(samples_exist) { BOOST_TEST(samples().size() >= 4u); }
