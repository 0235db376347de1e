// One dense call per sequence of a ragged batch or paged cache, and the row copies between the
// packed and the dense layouts.
#include "backends/io/PerSequence.h"

#include <cstring>

namespace attn {

namespace {

/// Row r (of `rows`) of head h of a dense [1, H, rows, C] tensor, and row (first + r) of head h of
/// a packed [T, H, C] one, each `bytes` long: the copies between the layouts.
template <class Copy>
void for_each_row(const HostTensor& dense, int64_t rows, const Copy& copy) {
  const int64_t H = dense.shape[1];
  for (int64_t h = 0; h < H; ++h)
    for (int64_t r = 0; r < rows; ++r) copy(h * rows + r, r * H + h);
}

size_t row_bytes(const HostTensor& t, int64_t last_dims_from) {
  int64_t n = 1;
  for (size_t d = static_cast<size_t>(last_dims_from); d < t.shape.size(); ++d) n *= t.shape[d];
  return static_cast<size_t>(n) * scalar_type_size(t.type);
}

}  // namespace

HostTensor unpack_rows(const HostTensor& packed, int64_t first, int64_t rows) {
  std::vector<int64_t> shape{1, packed.shape[1], rows};
  if (packed.shape.size() == 3) shape.push_back(packed.shape[2]);
  HostTensor dense(packed.type, shape);
  const size_t bytes = row_bytes(packed, 2), start = static_cast<size_t>(first * packed.shape[1]) * bytes;
  for_each_row(dense, rows, [&](int64_t d, int64_t p) {
    std::memcpy(dense.bytes.data() + static_cast<size_t>(d) * bytes,
                packed.bytes.data() + start + static_cast<size_t>(p) * bytes, bytes);
  });
  return dense;
}

void pack_rows(const HostTensor& dense, int64_t first, HostTensor& packed) {
  const size_t bytes = row_bytes(packed, 2), start = static_cast<size_t>(first * packed.shape[1]) * bytes;
  for_each_row(dense, dense.shape[2], [&](int64_t d, int64_t p) {
    std::memcpy(packed.bytes.data() + start + static_cast<size_t>(p) * bytes,
                dense.bytes.data() + static_cast<size_t>(d) * bytes, bytes);
  });
}

KernelInputs sequence_inputs(const KernelInputs& in, const Sequence& s) {
  KernelInputs one;
  one.q = unpack_rows(in.q, s.q_first, s.q_len);
  if (in.paged()) {
    // Key j of the sequence is row j % page_size of page pages[j / page_size] of [P, page_size, H, C].
    for (auto [from, to] : {std::pair{&in.k, &one.k}, {&in.v, &one.v}}) {
      const int64_t page_size = from->shape[1], H = from->shape[2];
      *to = HostTensor(from->type, {1, H, s.kv_len, from->shape[3]});
      const size_t bytes = row_bytes(*from, 3);
      for (int64_t h = 0; h < H; ++h)
        for (int64_t j = 0; j < s.kv_len; ++j) {
          const int64_t row = (s.pages[size_t(j / page_size)] * page_size + j % page_size) * H + h;
          std::memcpy(to->bytes.data() + static_cast<size_t>(h * s.kv_len + j) * bytes,
                      from->bytes.data() + static_cast<size_t>(row) * bytes, bytes);
        }
    }
  } else {
    one.k = unpack_rows(in.k, s.kv_first, s.kv_len);
    one.v = unpack_rows(in.v, s.kv_first, s.kv_len);
  }
  one.buffers = in.buffers, one.scalars = in.scalars;
  // An FP8 kernel's factors, by sequence: the batch of one reads row `b` of its place.
  one.q_descale = in.q_descale, one.k_descale = in.k_descale, one.v_descale = in.v_descale;
  return one;
}

SequencePlace sequence_place(const KernelInputs& in, const Sequence& s, int64_t b) {
  return {b, s.q_pos, in.paged() ? s.kv_len : s.q_len};
}

KernelOutputs run_by_sequence(const KernelIR& ir, const KernelInputs& in, const DenseForward& dense) {
  KernelOutputs out = make_outputs(ir, in);
  const std::vector<Sequence> sequences = ragged_sequences(in);
  for (size_t b = 0; b < sequences.size(); ++b) {
    const Sequence& s = sequences[b];
    if (s.q_len == 0) continue;  // nothing to write
    const KernelOutputs one = dense(sequence_inputs(in, s), sequence_place(in, s, static_cast<int64_t>(b)));
    pack_rows(one.out, s.q_first, out.out);
    if (!out.lse.shape.empty()) pack_rows(one.lse, s.q_first, out.lse);
    if (!out.max.shape.empty()) pack_rows(one.max, s.q_first, out.max);
  }
  return out;
}

KernelGradients backward_by_sequence(const KernelIR& ir, const KernelInputs& in,
                                     const GradientRequest& request, const DenseBackward& dense) {
  KernelGradients out = make_gradients(ir, in, request);
  const std::vector<Sequence> sequences = ragged_sequences(in);
  for (size_t b = 0; b < sequences.size(); ++b) {
    const Sequence& s = sequences[b];
    GradientRequest one;
    one.dout = unpack_rows(request.dout, s.q_first, s.q_len);
    if (!request.dlse.shape.empty()) one.dlse = unpack_rows(request.dlse, s.q_first, s.q_len);
    one.buffers = request.buffers;
    const KernelGradients g =
        dense(sequence_inputs(in, s), one, sequence_place(in, s, static_cast<int64_t>(b)));
    pack_rows(g.dq, s.q_first, out.dq);
    pack_rows(g.dk, s.kv_first, out.dk);
    pack_rows(g.dv, s.kv_first, out.dv);
    for (auto& [name, sum] : out.buffers) {
      const HostTensor& part = g.buffers.at(name);
      for (int64_t e = 0; e < sum.numel(); ++e) sum.set(e, sum.get(e) + part.get(e));
    }
  }
  return out;
}

}  // namespace attn
