// Buffer indices computed in 64 bits in the emitted C++.
#pragma once

namespace Halide {
class Module;
}

namespace attn::cpu {

/// Rewrites every scalar int32 buffer index (and the base of every dense vector index) of
/// `module`'s functions into int64 arithmetic on the same terms, the sign extension pushed down to
/// the leaves: the loop variables and the values computed outside the loop.
///
/// Halide computes indices in int32, so the emitted C++ indexed memory with `int32_t` temporaries
/// that the C++ compiler sign-extended at every access: clang 14 kept a `lea` + `movslq` before
/// each broadcast of the avx2 path's P·V loop, a third of its instructions. Widened at the leaves,
/// the compiler sees induction variables and hoists the rest, and the loop is loads and FMAs.
///
/// The value is unchanged wherever the int32 arithmetic does not overflow, which Halide (and C++,
/// for the emitted int32_t) already assume of every index. Divisions and modulos, loads and calls
/// are widened as a whole, never looked into.
void widen_buffer_indices(Halide::Module& module);

}  // namespace attn::cpu
