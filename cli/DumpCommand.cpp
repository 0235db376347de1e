// `attnc dump --stage=ast|ir|hash|plan|cpu|cuda|spirv FILE [KERNEL]`: print a compiler stage.
#include <iostream>

#include "cli/Commands.h"
#include "cli/CompileTargets.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "frontend/PrintAst.h"
#include "frontend/Program.h"

namespace attn::cli {

int run_dump(const DumpOptions& o) {
  auto p = load_program(o.file);
  if (report_diagnostics(*p, false)) return 1;
  if (o.stage == "ast") {
    std::cout << print_ast(*p->main(), p->sources);
    return 0;
  }
  std::vector<const Decl*> kernels;
  if (!o.kernel.empty()) {
    const Decl* k = p->kernel(o.kernel);
    if (!k) {
      std::cerr << "attnc: error: " << o.file << " has no kernel '" << o.kernel << "'\n";
      return 1;
    }
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
    if (o.stage == "cuda") {
#ifdef ATTNC_HAVE_CUDA
      try {
        std::cout << dump_cuda_target(*ir);
      } catch (const std::exception& e) {
        std::cerr << "attnc: error: kernel '" << k->name << "': " << e.what() << "\n";
        return 1;
      }
#else
      std::cerr << "attnc: error: this attnc was built without the CUDA target\n";
      return 1;
#endif
    } else if (o.stage == "cpu") {
      std::cout << dump_cpu_target(*ir);
    } else if (o.stage == "spirv") {
      try {
        std::cout << "; kernel " << k->name << "\n" << dump_spirv_target(*ir);
      } catch (const std::exception& e) {
        std::cerr << "attnc: error: kernel '" << k->name << "': " << e.what() << "\n";
        return 1;
      }
    } else if (o.stage == "plan") {
      std::cout << "kernel " << k->name << "\n" << print_tile_plan(*plan_tiles(*ir));
    } else if (o.stage == "hash")
      std::cout << kernel_hash(*ir) << "  " << k->name << "\n";
    else
      std::cout << print_ir(*ir) << "  hash      " << kernel_hash(*ir) << "\n";
  }
  return 0;
}

}  // namespace attn::cli
