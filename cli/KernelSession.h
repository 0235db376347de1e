// What the commands that lower kernels share: loading one kernel, binding its --arg values,
// random inputs, and reporting a backend's failure (a located diagnostic for a backend limit).
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backends/io/KernelIO.h"

namespace attn {
struct Decl;
struct KernelIR;
struct Program;
}  // namespace attn

namespace attn::cli {

/// A lowered kernel and the program it came from (its sources locate diagnostics).
struct LoadedKernel {
  std::shared_ptr<const Program> program;
  std::shared_ptr<const KernelIR> ir;  ///< null when loading or lowering failed
};

/// The kernel of `p` named `name`, or with `name` empty the file's only kernel. Otherwise prints
/// an error that lists the kernels `file` defines and returns nullptr.
const Decl* select_kernel(const Program& p, const std::string& file, const std::string& name);

/// Loads FILE and lowers KERNEL (empty: the file's only kernel); prints diagnostics and returns a
/// null `ir` on any error.
LoadedKernel load_kernel(const std::string& file, const std::string& kernel);

/// Prints a failure while a backend generated or ran a kernel of `p`: a backend limit
/// (KernelLimitError) as `file:line:col: error: ...` at the kernel, anything else as
/// `attnc: error: <context><message>`.
void report_kernel_error(const std::exception& e, const Program& p, const std::string& context = "");

/// The tensor argument `--arg NAME=VALUE` names: the .npy file VALUE. A number there is an error
/// that says NAME is a tensor. Throws InputError or NpyError.
HostTensor read_tensor_arg(const std::string& name, const std::string& value);

/// Binds `--arg NAME=FILE.npy` (tensors) and `--arg NAME=VALUE` (scalars) into `in`.
/// Throws InputError naming the argument.
void bind_kernel_args(const KernelIR& ir, const std::vector<std::string>& args, KernelInputs& in);

/// A tensor of standard normal values from `rng` (attnc bench's inputs).
HostTensor random_tensor(ScalarType type, std::vector<int64_t> shape, std::mt19937& rng);

}  // namespace attn::cli
