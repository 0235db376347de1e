// Halide 14's C++ code generator, shaped for the CPU backend at the source: its own vector types
// (fixed/HalideVectorOps.h), vector booleans as 0/1 lanes, no uninitialized vectors.
#pragma once

#include <Halide.h>

#include <string>

namespace attn::cpu {

/// `module` as C++ (Halide's CPlusPlusImplementation) for `target`, printed by a CodeGen_C
/// subclass: vector types from backends/cpu/fixed/HalideVectorOps.h, a vector Not as a comparison
/// with 0, vectors built lane by lane value-initialized first. Throws std::logic_error when Halide's
/// output lacks what the vector types need or leaves a vector uninitialized.
std::string print_halide_cpp(const Halide::Module& module, const Halide::Target& target);

}  // namespace attn::cpu
