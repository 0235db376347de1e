// The golden tests' inputs: every kernel of the .attn files in one folder of tests/golden/.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "codegen/KernelIR.h"

namespace attn::test {

/// tests/golden/`target` ("cpu", "cuda", "spirv"): the inputs and their expected outputs.
std::filesystem::path golden_dir(const std::string& target);

/// Every kernel of every .attn file in golden_dir(`target`), lowered; fails the test on diagnostics.
std::vector<std::shared_ptr<const KernelIR>> golden_kernels(const std::string& target);

}  // namespace attn::test
