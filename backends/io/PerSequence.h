// A ragged batch or paged KV cache as one dense call per sequence: the seam through which a target
// whose kernels take dense batches serves the packed layouts (backends/io/RaggedBatch.h). Each
// sequence becomes a batch of one (its rows copied, a paged sequence's keys gathered from its
// pages) with its place in the kernel's coordinates; the outputs are packed back.
#pragma once

#include <cstdint>
#include <functional>

#include "backends/io/KernelIO.h"
#include "backends/io/RaggedBatch.h"

namespace attn {

/// Where a sequence's batch of one sits in the kernel's coordinates (docs/language.md, section 8):
/// `b` of its entry, the position `q` of its first query row (a paged sequence's queries are its
/// last tokens), and the value of `q_len` (a paged sequence's is its key count). A dense call's is
/// {0, 0, Lq}.
struct SequencePlace {
  int64_t b = 0, q0 = 0, q_len = 0;
};

/// Rows [first, first + rows) of a packed [T, H, C] or [T, H] tensor as a dense batch of one,
/// [1, H, rows, C] or [1, H, rows] (copied).
HostTensor unpack_rows(const HostTensor& packed, int64_t first, int64_t rows);
/// The inverse of unpack_rows: `dense` [1, H, rows, C] or [1, H, rows] into the rows of `packed`
/// from `first` on.
void pack_rows(const HostTensor& dense, int64_t first, HostTensor& packed);

/// Sequence `s` of the ragged batch or paged cache `in` as a dense batch of one, copied: Q
/// [1, Hq, q_len, D], K [1, Hkv, kv_len, D], V [1, Hkv, kv_len, Dv] (gathered from its pages), the
/// same arguments (and an FP8 kernel's descale factors, whose row b is the sequence's: its place's
/// `b`).
KernelInputs sequence_inputs(const KernelInputs& in, const Sequence& s);
/// Sequence `b`'s place (SequencePlace).
SequencePlace sequence_place(const KernelInputs& in, const Sequence& s, int64_t b);

/// The forward of a ragged batch or paged cache `in`: `dense(one, place)` runs each sequence with
/// queries as a batch of one; its Out, LSE and row maxima go to the sequence's rows of the packed
/// outputs (make_outputs).
using DenseForward = std::function<KernelOutputs(const KernelInputs&, const SequencePlace&)>;
KernelOutputs run_by_sequence(const KernelIR& ir, const KernelInputs& in, const DenseForward& dense);

/// The backward of a ragged batch `in` (a paged cache has none): `dense(one, request, place)` per
/// sequence; dQ, dK and dV go to its rows (a sequence without queries runs too: its dK and dV are
/// zero), each buffer's gradient is the sum over the sequences in order.
using DenseBackward =
    std::function<KernelGradients(const KernelInputs&, const GradientRequest&, const SequencePlace&)>;
KernelGradients backward_by_sequence(const KernelIR& ir, const KernelInputs& in,
                                     const GradientRequest& request, const DenseBackward& dense);

}  // namespace attn
