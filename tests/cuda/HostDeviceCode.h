// Device-library text compiled for the host, for the tests that check printed and fixed device code
// without a GPU: a prelude standing in for CUDA, a kernel's arguments with the parameter block over
// them, and building text into a shared library.
#pragma once

#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "backends/reference/EvalExpr.h"

namespace attn::test {

/// C++ that lets device text compile on the host: CUDA's qualifiers as `inline`, ATTN_HD, and the
/// intrinsics and built-in variables the text names as single-threaded stand-ins; then cuda_abi.h,
/// cuda_backward_abi.h and attn_expr.cuh.
std::string host_device_prelude();

/// The arguments of a kernel on the host and the parameter block over them: buffers of `extent`
/// elements per dimension (`heads` for a dimension named heads, `dims[name]` for those it names, a
/// literal dimension its value),
/// i32 element j = j / 37, f32 in [-1, 1) from `rng`, bool 1 in 7; scalars 16. Not copyable:
/// `params` points into it.
struct HostArguments {
  HostArguments(const KernelIR& ir, std::mt19937& rng, int64_t extent = 400, int64_t heads = 4,
                const std::map<std::string, int64_t>& dims = {});
  HostArguments(const HostArguments&) = delete;
  HostArguments& operator=(const HostArguments&) = delete;

  std::vector<HostTensor> tensors;  ///< the tensor arguments, in order
  ArgValues values;                 ///< the same for the reference evaluator
  attn_cuda_params params{};
  attn_cuda_error error{};  ///< params.error: the first out-of-range read
};

/// Compiles C++17 `source` with the host compiler into a shared library in `dir` and opens it;
/// fails the test case with the compiler's output when it does not build.
void* load_host_library(const std::filesystem::path& dir, const std::string& source);

}  // namespace attn::test
