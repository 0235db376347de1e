// `attnc dump --stage=ast|ir|hash|plan|grad|TARGET FILE [KERNEL]`: print a compiler stage, or a target's
// generated code (the backend registry's dump entries).
#include <algorithm>
#include <iostream>

#include "backends/Backend.h"
#include "cli/Commands.h"
#include "cli/KernelSession.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "frontend/PrintAst.h"
#include "frontend/Program.h"

namespace attn::cli {

std::string dump_stage_names() {
  std::string names;
  for (const char* stage : kCompilerStages) names += stage + std::string(", ");
  return names + backend_names(Capability::Dump);
}

int run_dump(const DumpOptions& o) {
  auto p = load_program(o.file);
  if (report_diagnostics(*p, false)) return 1;
  const Backend* target = nullptr;
  if (std::find(std::begin(kCompilerStages), std::end(kCompilerStages), o.stage) ==
      std::end(kCompilerStages)) {
    try {
      std::string note;
      target = &find_backend(o.stage, Capability::Dump, &note);
      if (!note.empty()) std::cerr << "attnc: note: " << note << "\n";
    } catch (const TargetError& e) {
      std::cerr << "attnc: error: " << e.what() << "\n";
      return 1;
    }
  }
  if (o.stage == "ast") {
    std::cout << print_ast(*p->main(), p->sources);
    return 0;
  }
  std::vector<const Decl*> kernels;
  if (!o.kernel.empty()) {
    const Decl* k = select_kernel(*p, o.file, o.kernel);
    if (!k) return 1;
    kernels.push_back(k);
  } else {
    kernels = p->kernels();
  }
  for (const Decl* k : kernels) {
    DiagnosticEngine diags;
    auto ir = lower_kernel(*p, *k, diags);
    if (!ir) {
      std::cerr << render_diagnostics(diags, p->sources);
      return 1;
    }
    if (target) {
      try {
        std::cout << target->dump(*ir);
      } catch (const std::exception& e) {
        report_kernel_error(e, *p, "kernel '" + k->name + "': ");
        return 1;
      }
    } else if (o.stage == "plan") {
      std::cout << "kernel " << k->name << "\n" << print_tile_plan(*plan_tiles(*ir));
    } else if (o.stage == "grad") {
      std::cout << print_score_gradient(*ir);
    } else if (o.stage == "hash")
      std::cout << kernel_hash(*ir) << "  " << k->name << "\n";
    else
      std::cout << print_ir(*ir) << "  hash      " << kernel_hash(*ir) << "\n";
  }
  return 0;
}

}  // namespace attn::cli
