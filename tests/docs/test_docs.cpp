// Every ```attn example in README.md and docs/*.md is a complete program that checks cleanly,
// lowers, and is stable under the formatter.
#define BOOST_TEST_MODULE docs
#include <boost/test/unit_test.hpp>

#include "codegen/Lower.h"
#include "frontend/Format.h"
#include "frontend/Program.h"
#include "tests/support/TestSupport.h"

using namespace attn;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_CASE(every_attn_example_checks) {
  std::vector<fs::path> docs = {test::source_dir() / "README.md"};
  for (const auto& f : test::files_under(test::source_dir() / "docs", ".md")) docs.push_back(f);
  size_t examples = 0;
  for (const fs::path& md : docs) {
    for (const test::CodeBlock& block : test::attn_code_blocks(md)) {
      ++examples;
      std::string where = md.filename().string() + ":" + std::to_string(block.line);
      auto p = load_program_text((md.parent_path() / "example.attn").string(), block.code);
      BOOST_TEST(!p->diags.has_errors(), where << "\n" << render_diagnostics(p->diags, p->sources));
      if (p->diags.has_errors()) continue;
      for (const Decl* k : p->kernels()) {
        DiagnosticEngine diags;
        BOOST_TEST(lower_kernel(*p, *k, diags) != nullptr, where << " kernel " << k->name);
      }
      SourceManager sm;
      DiagnosticEngine diags;
      auto once = format_source(sm, sm.add(where, block.code), diags);
      BOOST_REQUIRE(once);
      auto twice = format_source(sm, sm.add(where, *once), diags);
      BOOST_TEST(*twice == *once, where << " is not stable under formatting");
    }
  }
  BOOST_TEST(examples >= 1u);
}
