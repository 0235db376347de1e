// The few Halide runtime entry points the emitted C++ calls, written out as C++17 in the emitted
// file itself (a thread pool, an allocation cache, error messages), renamed per kernel.
#pragma once

#include <set>
#include <string>

namespace attn::cpu {

/// C++ defining `prefix + name` for every name in `used` (minus the `halide_` prefix), plus the
/// helpers the wrapper shares (`Context`, `parallel_for`, `fail`). Throws std::runtime_error for a
/// runtime function it does not provide.
std::string emit_runtime_glue(const std::string& prefix, const std::set<std::string>& used);

}  // namespace attn::cpu
