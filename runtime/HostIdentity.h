// What about this machine and its toolchain changes a compiled kernel: parts of every cpu cache key.
#pragma once

#include <string>
#include <vector>

namespace attn {

/// The host CPU's model name and feature flags (/proc/cpuinfo, else __builtin_cpu_supports);
/// computed once per process.
const std::string& host_cpu_description();

/// The C++ compiler to use: ATTNC_CXX split on blanks (so "ccache g++" works), else {"clang++"}
/// when it is on PATH (the generated kernels run up to 2x faster than with GCC 12), else {"c++"}.
std::vector<std::string> host_compiler_command();

/// What identifies the compiler a command runs, for cache keys: each word that names an executable
/// (directly or on PATH) with its real path, size and modification time. Computed once per process
/// per command, without starting a process; throws std::system_error when the first word names no
/// executable.
std::string compiler_identity(const std::vector<std::string>& compiler);

}  // namespace attn
