// What `attnc run` and `attnc bench` share: loading one kernel, binding its --arg values, and
// running it on a target.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/reference/Reference.h"

namespace attn {
struct KernelIR;
}

namespace attn::cli {

/// Loads FILE and lowers KERNEL; prints diagnostics and returns null on any error.
std::shared_ptr<const KernelIR> load_kernel(const std::string& file, const std::string& kernel);

/// The element type of the kernel's Q, K, V and Out.
ScalarType io_scalar_type(const KernelIR& ir);

/// Binds `--arg NAME=FILE.npy` (tensors) and `--arg NAME=VALUE` (scalars) into `in`.
/// Throws InputError naming the argument.
void bind_kernel_args(const KernelIR& ir, const std::vector<std::string>& args, KernelInputs& in);

/// The targets `run` and `bench` accept in this build.
std::vector<std::string> run_targets();

/// Runs the kernel on `target` (reference, cpu, cuda).
KernelOutputs run_on_target(const std::string& target, const KernelIR& ir, const KernelInputs& in,
                            int threads);

}  // namespace attn::cli
