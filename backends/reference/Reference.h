// The reference backend: docs/language.md's semantics computed plainly in double precision. Every
// other backend is tested against it.
#pragma once

#include "backends/io/KernelIO.h"
#include "backends/io/PerSequence.h"

namespace attn {

struct KernelIR;

/// Runs the kernel. Throws InputError or EvalError (a buffer index out of range).
/// `threads` 0 uses every core. `place`: where a dense batch sits in the kernel's coordinates (one
/// sequence of a ragged batch or paged cache run as a batch of one); null: {0, 0, Lq}.
KernelOutputs run_reference(const KernelIR& ir, const KernelInputs& in, int threads = 0,
                            const SequencePlace* place = nullptr);

/// The backward pass (docs/language.md, "Backward"): the gradients of loss = sum(dOut * Out)
/// (+ sum(dLSE * LSE)) with respect to Q, K, V and the requested buffers, computed in double from
/// the score's derivatives (codegen/ScoreGradient.h). Every sum has a fixed order, whatever
/// `threads`: two runs are bit-identical. Throws InputError or EvalError like run_reference.
KernelGradients run_reference_backward(const KernelIR& ir, const KernelInputs& in,
                                       const GradientRequest& request, int threads = 0);

/// Adds to `grads`' buffer gradients what flows through the kernel's sink (docs/language.md, "Sinks
/// and row maxima") given the forward's `out` and `lse` (the sink included): for targets whose
/// kernels compute the other gradients. Row by row in order, in double; nothing without a sink.
/// `b0`: `b` of the dense batch's entry 0 (one sequence of a ragged batch).
void add_sink_gradients(const KernelIR& ir, const KernelInputs& in, const HostTensor& out,
                        const HostTensor& lse, const GradientRequest& request, KernelGradients& grads,
                        int64_t b0 = 0);

}  // namespace attn
