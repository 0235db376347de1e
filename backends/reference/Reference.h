// The reference backend: product.md's semantics computed plainly in double precision. Every other
// backend is tested against it.
#pragma once

#include "backends/io/KernelIO.h"

namespace attn {

struct KernelIR;

/// Runs the kernel. Throws InputError or EvalError (a buffer index out of range).
/// `threads` 0 uses every core.
KernelOutputs run_reference(const KernelIR& ir, const KernelInputs& in, int threads = 0);

}  // namespace attn
