// Loading and lowering the golden tests' .attn inputs.
#include "tests/golden/GoldenKernels.h"

#include <boost/test/unit_test.hpp>

#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "tests/support/TestSupport.h"

namespace attn::test {

std::filesystem::path golden_dir(const std::string& target) { return source_dir() / "tests/golden" / target; }

std::vector<std::shared_ptr<const KernelIR>> golden_kernels(const std::string& target) {
  std::vector<std::shared_ptr<const KernelIR>> out;
  for (const auto& file : files_under(golden_dir(target), ".attn")) {
    auto p = load_program(file.string());
    BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
    for (const Decl* k : p->kernels()) {
      DiagnosticEngine diags;
      auto ir = lower_kernel(*p, *k, diags);
      BOOST_REQUIRE_MESSAGE(ir, file << ":" << k->name << ":\n" << render_diagnostics(diags, p->sources));
      out.push_back(ir);
    }
  }
  BOOST_TEST(!out.empty(), "no kernels in " << golden_dir(target));
  return out;
}

}  // namespace attn::test
