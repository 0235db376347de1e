// Ragged batches: the boundary tensors' checks, shared by every backend and the command line.
#include "backends/io/RaggedBatch.h"

#include "backends/io/KernelIO.h"
#include "runtime/CudaRagged.h"

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
  if (std::string why = check_sequence_boundaries(cu, name, total); !why.empty()) throw InputError(why);
  return cu;
}

/// A paged cache's sequences: the queries' boundaries, kv_lens and the page table, checked.
std::vector<Sequence> paged_sequences(const KernelInputs& in) {
  if (in.cu_seqlens_q.shape.empty())
    throw InputError("a paged KV cache's queries come packed: cu_seqlens_q is missing");
  if (!in.cu_seqlens_k.shape.empty())
    throw InputError("a paged KV cache takes its key lengths from kv_lens, not cu_seqlens_k");
  if (in.page_table.shape.empty() || in.kv_lens.shape.empty())
    throw InputError("a paged KV cache needs both page_table and kv_lens");
  if (in.q.shape.size() != 3 || in.k.shape.size() != 4)
    throw InputError("a paged call's q must be 3-D [T, H, D] and k 4-D [pages, page_size, H, D], got q " +
                     in.q.shape_string() + ", k " + in.k.shape_string());
  const std::vector<int64_t> q = boundaries(in.cu_seqlens_q, "cu_seqlens_q", in.q.shape[0]);
  const int64_t n = int64_t(q.size()) - 1, pages = in.k.shape[0], page_size = in.k.shape[1];
  if (page_size < 1) throw InputError("the cache's pages hold no keys (page_size 0)");
  if (in.kv_lens.type != ScalarType::I32 || in.kv_lens.shape != std::vector<int64_t>{n})
    throw InputError("kv_lens must be i32 [" + std::to_string(n) + "] (one per sequence), got " +
                     scalar_type_name(in.kv_lens.type) + " " + in.kv_lens.shape_string());
  if (in.page_table.type != ScalarType::I32 || in.page_table.shape.size() != 2 || in.page_table.shape[0] != n)
    throw InputError("page_table must be i32 [" + std::to_string(n) + ", max_pages], got " +
                     scalar_type_name(in.page_table.type) + " " + in.page_table.shape_string());
  // The rules every target's paged call follows (runtime/CudaRagged.h), on host copies.
  PagedLayout layout;
  layout.max_pages = in.page_table.shape[1], layout.pages = pages, layout.page_size = page_size;
  for (int64_t i = 0; i < in.page_table.numel(); ++i)
    layout.table.push_back(static_cast<int32_t>(in.page_table.get(i)));
  for (int64_t b = 0; b < n; ++b) layout.kv_lens.push_back(static_cast<int32_t>(in.kv_lens.get(b)));
  std::vector<CudaSequence> checked;
  if (std::string why = check_paged_layout(q, layout, in.q.shape[0], checked); !why.empty())
    throw InputError(why);
  std::vector<Sequence> out(static_cast<size_t>(n));
  for (int64_t b = 0; b < n; ++b) {
    const CudaSequence& c = checked[size_t(b)];
    Sequence& s = out[size_t(b)];
    s.q_first = c.q_row, s.q_len = c.q_len, s.kv_len = c.k_len, s.q_pos = c.q_first;
    for (int64_t p = 0; p < (s.kv_len + page_size - 1) / page_size; ++p)
      s.pages.push_back(layout.table[size_t(b * layout.max_pages + p)]);
  }
  return out;
}

}  // namespace

std::vector<Sequence> ragged_sequences(const KernelInputs& in) {
  if (in.paged()) return paged_sequences(in);
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
  for (size_t b = 0; b < out.size(); ++b)
    out[b].q_first = q[b], out[b].q_len = q[b + 1] - q[b], out[b].kv_first = k[b],
    out[b].kv_len = k[b + 1] - k[b];
  return out;
}

void require_dense(const KernelInputs& in, const std::string& what) {
  if (in.ragged())
    throw InputError(
        what +
        " does not take ragged batches (cu_seqlens) or paged KV caches yet; the reference and cpu "
        "targets do");
}

}  // namespace attn
