// lower_program / lower_program_kernel: a checked program's kernels as IR, errors as SourceError.
#include "compiler/LowerProgram.h"

#include "attn/compile.hpp"
#include "codegen/Lower.h"
#include "compiler/SelectKernel.h"
#include "frontend/Program.h"

namespace attn {

std::vector<std::shared_ptr<const KernelIR>> lower_program(const Program& p) {
  if (p.diags.has_errors()) throw SourceError(render_diagnostics(p.diags, p.sources));
  std::vector<std::shared_ptr<const KernelIR>> kernels;
  DiagnosticEngine diags;
  for (const Decl* k : p.kernels())
    if (auto ir = lower_kernel(p, *k, diags)) kernels.push_back(std::move(ir));
  if (diags.has_errors()) throw SourceError(render_diagnostics(diags, p.sources));
  return kernels;
}

std::shared_ptr<const KernelIR> lower_program_kernel(const Program& p, const std::string& file,
                                                     const std::string& name) {
  if (p.diags.has_errors()) throw SourceError(render_diagnostics(p.diags, p.sources));
  std::string why;
  const Decl* k = select_kernel(p, file, name, why);
  if (!k) throw SourceError("error: " + why + "\n");
  DiagnosticEngine diags;
  auto ir = lower_kernel(p, *k, diags);
  if (!ir) throw SourceError(render_diagnostics(diags, p.sources));
  return ir;
}

}  // namespace attn
