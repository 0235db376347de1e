// Ragged batches: the boundary tensors' checks, shared by every backend and the command line.
#include "backends/io/RaggedBatch.h"

#include "backends/io/KernelIO.h"

namespace attn {

namespace {

/// The boundaries in `t` (named `name`), checked against `total` packed rows.
std::vector<int64_t> boundaries(const HostTensor& t, const char* name, int64_t total) {
  if (t.type != ScalarType::I32 && t.type != ScalarType::I64)
    throw InputError(std::string(name) + " must be i32, got " + scalar_type_name(t.type));
  if (t.shape.size() != 1 || t.shape[0] < 1)
    throw InputError(std::string(name) + " must be 1-D with sequences + 1 entries, got shape " +
                     t.shape_string());
  std::vector<int64_t> cu(static_cast<size_t>(t.shape[0]));
  for (size_t i = 0; i < cu.size(); ++i) cu[i] = static_cast<int64_t>(t.get(static_cast<int64_t>(i)));
  if (cu[0] != 0) throw InputError(std::string(name) + " must start at 0, got " + std::to_string(cu[0]));
  for (size_t i = 1; i < cu.size(); ++i)
    if (cu[i] < cu[i - 1])
      throw InputError(std::string(name) + " decreases at entry " + std::to_string(i) + " (" +
                       std::to_string(cu[i]) + " after " + std::to_string(cu[i - 1]) + ")");
  if (cu.back() != total)
    throw InputError(std::string(name) + " ends at " + std::to_string(cu.back()) +
                     ", but the packed tensor has " + std::to_string(total) + " rows");
  return cu;
}

}  // namespace

std::vector<Sequence> ragged_sequences(const KernelInputs& in) {
  if (in.cu_seqlens_q.shape.empty() || in.cu_seqlens_k.shape.empty())
    throw InputError("a ragged batch needs both cu_seqlens_q and cu_seqlens_k");
  if (in.q.shape.size() != 3 || in.k.shape.size() != 3)
    throw InputError("a ragged batch's q and k must be 3-D [T, H, D], got q " + in.q.shape_string() + ", k " +
                     in.k.shape_string());
  const std::vector<int64_t> q = boundaries(in.cu_seqlens_q, "cu_seqlens_q", in.q.shape[0]);
  const std::vector<int64_t> k = boundaries(in.cu_seqlens_k, "cu_seqlens_k", in.k.shape[0]);
  if (q.size() != k.size())
    throw InputError("cu_seqlens_q has " + std::to_string(q.size()) + " entries and cu_seqlens_k " +
                     std::to_string(k.size()) + "; both are sequences + 1");
  std::vector<Sequence> out(q.size() - 1);
  for (size_t b = 0; b < out.size(); ++b) out[b] = {q[b], q[b + 1] - q[b], k[b], k[b + 1] - k[b]};
  return out;
}

void require_dense(const KernelInputs& in, const std::string& what) {
  if (in.ragged())
    throw InputError(what +
                     " does not take ragged batches (cu_seqlens) yet; the reference and cpu targets do");
}

}  // namespace attn
