// The kernels the CUDA tests compile and run: tests/cuda/*.attn, samples/*.attn, and one kernel
// per stdlib mask/score definition (generated, with fixed argument values).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "tests/support/StdlibKernels.h"

namespace attn::test {

/// One lowered kernel and where it came from ("tests/cuda/kernels.attn:causal_bf16_128").
struct TestKernel {
  std::string label;
  std::shared_ptr<const KernelIR> ir;
};

/// Every test kernel; lowering errors are appended to `errors`. Stdlib definitions are wrapped
/// once per dtype in `stdlib_dtypes` ("bf16", "f16", "f32"), with head_dim 128.
std::vector<TestKernel> cuda_test_kernels(std::vector<std::string>& errors,
                                          const std::vector<std::string>& stdlib_dtypes = {"bf16"});

/// The generated stdlib kernels of the CUDA tests: head_dim 128, windows of 64, `dtypes`.
StdlibKernelOptions cuda_stdlib_kernel_options(const std::vector<std::string>& dtypes);

}  // namespace attn::test
