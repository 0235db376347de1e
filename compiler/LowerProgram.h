// A loaded program's kernels lowered to IR, or its diagnostics as a SourceError: what the compiler
// library and the Python package do with .attn text before a backend runs.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace attn {

struct KernelIR;
struct Program;

/// Every kernel of `p`, lowered, in file order. Throws SourceError with the program's diagnostics,
/// or with every kernel's lowering errors at once (as `attnc check` lists them).
std::vector<std::shared_ptr<const KernelIR>> lower_program(const Program& p);

/// The kernel `name` of `p` (empty: the only one), lowered. Throws SourceError for the program's
/// diagnostics, its lowering errors, or a kernel that is not there (naming those that are).
std::shared_ptr<const KernelIR> lower_program_kernel(const Program& p, const std::string& file,
                                                     const std::string& name);

}  // namespace attn
