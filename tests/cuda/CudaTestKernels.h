// The kernels the CUDA tests compile and run: tests/cuda/*.attn, samples/*.attn, and one kernel
// per stdlib mask/score definition (generated, with fixed argument values).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/Lower.h"
#include "frontend/Program.h"

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

/// The .attn text of one kernel per definition of the stdlib module `module` (e.g. std.masks)
/// and per dtype.
std::string stdlib_kernels_text(const std::string& module, const Program& program,
                                const std::vector<std::string>& dtypes);

}  // namespace attn::test
