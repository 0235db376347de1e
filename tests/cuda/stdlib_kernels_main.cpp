// cuda_stdlib_kernels: prints the .attn wrappers of every stdlib definition (bf16, f16, f32) that
// the CUDA tests use, for bench/gpu/make_kit.sh.
#include <iostream>

#include "tests/cuda/CudaTestKernels.h"

int main() {
  for (const auto& p :
       attn::test::stdlib_kernel_programs(attn::test::cuda_stdlib_kernel_options({"bf16", "f16", "f32"})))
    std::cout << "// " << p.module << "\n" << p.text << "\n";
  return 0;
}
