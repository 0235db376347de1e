// The one place where the CPU backend patches Halide 14's C++ text (CodeGen_C's output) rather than
// printing it: each patch names the text it expects and throws std::logic_error ("Halide's C++ output
// no longer ...") when that text is missing, so a Halide upgrade fails every CPU test at once instead
// of emitting something else.
#pragma once

#include <Halide.h>

#include <set>
#include <string>
#include <vector>

namespace attn::cpu {

/// Adds `#include <utility>` after CodeGen_C's `<type_traits>` (the native ramp's index_sequence).
std::string include_utility(std::string code);

/// Throws when `code` builds a vector lane by lane from an uninitialized declaration (a CodeGen_C
/// path that HalideCppCodeGen does not override).
void check_no_uninitialized_vectors(const std::string& code);

/// `code` independent of what the process generated before: the Func names' generation prefixes
/// (fresh_name_prefix) dropped, the variants of names Halide made unique per process (`probs$3`,
/// closure structs `s7`) numbered in order of appearance, and Halide's temporaries `_123` renumbered
/// from zero.
std::string canonical_halide_names(const std::string& code);

/// The Halide runtime functions (`halide_error_*`, `halide_malloc`, ...) that the code after the
/// runtime header calls, minus `halide_`.
std::set<std::string> called_runtime_functions(const std::string& code);

/// `code` with the calls and declarations of the runtime functions `used` renamed from `halide_X` to
/// `prefix + X`.
std::string rename_runtime_functions(std::string code, const std::set<std::string>& used,
                                     const std::string& prefix);

/// The scalar and buffer arguments of the pipeline `pipeline` read once at the top of its body
/// (`(void)_x;`, `(void)_t_buffer;`): arguments a kernel ends up not reading (a scalar, a tensor only
/// the wrapper reads, as a sink's) would be -Wunused-parameter warnings.
std::string use_every_scalar(std::string code, const std::string& pipeline,
                             const std::vector<Halide::Argument>& args);

/// The line HalideCppCodeGen writes where the vector typedefs go, vectors or not: where a path's
/// own code begins.
inline constexpr const char* kPathCodeMarker = "// ---- The path's own code: vector classes, pipeline ----\n";

/// Halide's C++ of one vector path in three: `shared`, what comes before kPathCodeMarker (includes,
/// helpers, runtime header, attribute macros), the same for every path; `helpers`, what comes
/// before the runtime header less the includes; `body`, the marker on (the vector classes of
/// fixed/HalideVectorOps.h when the pipeline has vectors, then the path's own code).
struct HalideCppParts {
  std::string shared, helpers, body;
};
HalideCppParts split_halide_cpp(const std::string& code);

/// The C declaration of the pipeline `pipeline` that Halide's C++ `code` defines, for a part of the
/// source that calls it without holding it (GenerateCpuKernel.cpp, the source's parts).
std::string pipeline_declaration(const std::string& code, const std::string& pipeline);

}  // namespace attn::cpu
