// One generated kernel per stdlib mask and score definition, so that every backend's tests cover
// a new definition without a hand-written list.
#pragma once

#include <string>
#include <vector>

namespace attn::test {

/// The values the generated kernels give the definitions' parameters, and their options. The
/// defaults suit sequences of a few dozen positions: windows and blocks of 7 cut them into several
/// pieces, and t5_bias(table, 7, 7, ...) puts no bucket boundary on an integer distance but the
/// last one, where min() gives both sides the same bucket (elsewhere a key's bucket would depend on
/// how the backend rounds the logarithms).
struct StdlibKernelOptions {
  std::vector<std::string> dtypes = {"f32"};  ///< one kernel per dtype ("bf16", "f16", "f32")
  int head_dim = 0;                           ///< 0: no head_dim option
  std::string int_value = "7";                ///< every int parameter
  std::string float_value = "1.5";            ///< every float parameter
};

/// The generated kernels of one stdlib module.
struct StdlibKernelProgram {
  std::string module;  ///< "std.masks"
  std::string path;    ///< the name to load `text` under: "<std.masks kernels>" (not the module's own)
  std::string text;
};

/// Per stdlib module, in name order: one kernel per mask and score definition and per dtype,
/// `std_<definition>_<dtype>`. A mask parameter gets `causal`, a bool `true`, a tensor a kernel
/// argument of the same type and dimensions; a score runs under `causal`.
std::vector<StdlibKernelProgram> stdlib_kernel_programs(const StdlibKernelOptions& options);

}  // namespace attn::test
