// cuda_stdlib_kernels: prints the .attn wrappers of every stdlib definition (bf16, f16, f32) that
// the CUDA tests use, for bench/gpu/make_kit.sh.
#include <iostream>

#include "tests/cuda/CudaTestKernels.h"

int main() {
  for (const auto& [module, _] : attn::stdlib_modules()) {
    auto probe = attn::load_program_text("<" + module + ">", "import " + module + ";\n");
    std::cout << "// " << module << "\n"
              << attn::test::stdlib_kernels_text(module, *probe, {"bf16", "f16", "f32"}) << "\n";
  }
  return 0;
}
