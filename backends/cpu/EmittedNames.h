// The names kernel arguments get in generated C++: never a reserved name or a C macro.
#pragma once

#include <string>

#include "codegen/KernelIR.h"

namespace attn::cpu {

/// The identifier a kernel argument gets in generated C++. Halide's C printer prefixes `_` to
/// names that start with a letter and prints the others as they are, so `__LINE__` or `_X` would
/// meet a macro or a reserved name: a name that starts with `_` (or with `u_`) gets a `u_`
/// prefix. Ordinary names keep their spelling; the mapping is one-to-one.
std::string emitted_name(const std::string& user_name);

/// `ir` with a Parameter of its own for every argument (what the printed code names), renamed by
/// emitted_name; `KernelArg::name` stays the user's name, for messages. Its own: a generation
/// relaxes its buffers' stride constraints, and a Parameter is a handle to shared, mutable
/// contents, so two generations of one kernel (a forward's and its backward's, on two threads)
/// must not share them.
KernelIR with_emitted_names(const KernelIR& ir);

}  // namespace attn::cpu
