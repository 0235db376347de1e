// cuda_tile_variants: writes, for every kernel of an .attn file, the CUDA source of each tile
// shape the autotuner tries (backends/cuda cuda_tile_candidates; the table's choice first) as
// OUT/<kernel>/NN.cu, and their names one per line in OUT/<kernel>/names.txt. bench/gpu/make_kit.sh
// runs it so that kit_check --tune can search the shapes on a GPU machine without attnc's build.
//   cuda_tile_variants FILE.attn OUT [SM]   (SM: compute capability, default 90)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "backends/cuda/CudaPrinter.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"

using namespace attn;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: cuda_tile_variants FILE.attn OUT [SM]\n";
    return 2;
  }
  const int sm = argc > 3 ? std::stoi(argv[3]) : 90;
  auto program = load_program(argv[1]);
  if (program->diags.has_errors()) {
    std::cerr << render_diagnostics(program->diags, program->sources);
    return 1;
  }
  for (const Decl* decl : program->kernels()) {
    DiagnosticEngine diags;
    auto ir = lower_kernel(*program, *decl, diags);
    if (!ir) {
      std::cerr << render_diagnostics(diags, program->sources);
      return 1;
    }
    KernelIR specialized = *ir;
    if (!specialized.options.head_dim) specialized.options.head_dim = 128;
    if (!specialized.options.value_dim) specialized.options.value_dim = specialized.options.head_dim;
    const int d = specialized.options.head_dim, dv = specialized.options.value_dim;
    const fs::path dir = fs::path(argv[2]) / decl->name;
    fs::create_directories(dir);
    std::ofstream names(dir / "names.txt");
    int i = 0;
    for (const CudaTileConfig& c : cuda_tile_candidates(sm, specialized.options.dtype, d, dv)) {
      CudaPrintOptions po;
      po.sm = sm, po.head_dim = d, po.value_dim = dv, po.tiles = c;
      char file[16];
      std::snprintf(file, sizeof file, "%02d.cu", i++);
      std::ofstream(dir / file, std::ios::binary) << print_cuda_kernel(specialized, po).cu;
      names << describe(c) << "\n";
    }
    std::cout << decl->name << ": " << i << " tile shapes\n";
  }
  return 0;
}
