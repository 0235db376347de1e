// Loading and lowering kernels in tests, where a diagnostic fails the test case with its text.
#pragma once

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <memory>
#include <string>

#include "codegen/Lower.h"
#include "frontend/Program.h"

namespace attn::test {

/// The program in `file`.
inline std::unique_ptr<Program> load_checked(const std::filesystem::path& file) {
  auto p = load_program(file.string());
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  return p;
}

/// The program `text`, named `path` in diagnostics.
inline std::unique_ptr<Program> load_checked_text(const std::string& path, const std::string& text) {
  auto p = load_program_text(path, text);
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  return p;
}

/// Kernel `k` of `p`, lowered.
inline std::shared_ptr<const KernelIR> lower_checked(const Program& p, const Decl& k) {
  DiagnosticEngine diags;
  auto ir = lower_kernel(p, k, diags);
  BOOST_REQUIRE_MESSAGE(ir, render_diagnostics(diags, p.sources));
  return ir;
}

/// The kernel named `name` in `p`, lowered.
inline std::shared_ptr<const KernelIR> lower_checked(const Program& p, const std::string& name) {
  const Decl* k = p.kernel(name);
  BOOST_REQUIRE_MESSAGE(k, "no kernel " << name);
  return lower_checked(p, *k);
}

}  // namespace attn::test
