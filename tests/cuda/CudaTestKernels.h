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

/// Every test kernel; a file that does not lower fails the calling test via the returned errors.
std::vector<TestKernel> cuda_test_kernels(std::vector<std::string>& errors);

/// The .attn text of one kernel per definition of the stdlib module `module` (e.g. std.masks).
std::string stdlib_kernels_text(const std::string& module, const Program& program);

}  // namespace attn::test
