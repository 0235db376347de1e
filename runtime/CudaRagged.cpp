// Ragged batches on the cuda target: the sequences' boundaries and each sequence's parameter block.
#include "runtime/CudaRagged.h"

namespace attn {

std::string check_sequence_boundaries(const std::vector<int64_t>& cu, const char* name, int64_t total) {
  const std::string n = name;
  if (cu.empty()) return n + " must be 1-D with at least one entry (sequences + 1)";
  if (cu.front() != 0) return n + " starts at " + std::to_string(cu.front()) + ", not 0";
  for (size_t i = 1; i < cu.size(); ++i)
    if (cu[i] < cu[i - 1])
      return n + " decreases at entry " + std::to_string(i) + " (" + std::to_string(cu[i]) + " after " +
             std::to_string(cu[i - 1]) + ")";
  if (cu.back() != total)
    return n + " ends at " + std::to_string(cu.back()) + ", but the packed tensor has " +
           std::to_string(total) + " rows";
  return {};
}

std::string check_ragged_layout(const std::vector<int64_t>& cu_q, const std::vector<int64_t>& cu_k,
                                int64_t tq, int64_t tk, std::vector<CudaSequence>& out) {
  if (std::string why = check_sequence_boundaries(cu_q, "cu_seqlens_q", tq); !why.empty()) return why;
  if (std::string why = check_sequence_boundaries(cu_k, "cu_seqlens_k", tk); !why.empty()) return why;
  if (cu_q.size() != cu_k.size())
    return "cu_seqlens_q has " + std::to_string(cu_q.size()) + " entries and cu_seqlens_k " +
           std::to_string(cu_k.size()) + "; both are sequences + 1";
  out.clear();
  for (size_t b = 0; b + 1 < cu_q.size(); ++b)
    out.push_back({cu_q[b], cu_q[b + 1] - cu_q[b], cu_k[b], cu_k[b + 1] - cu_k[b]});
  return {};
}

std::string check_paged_layout(const std::vector<int64_t>& cu_q, const PagedLayout& layout, int64_t tq,
                               std::vector<CudaSequence>& out) {
  if (std::string why = check_sequence_boundaries(cu_q, "cu_seqlens_q", tq); !why.empty()) return why;
  const size_t n = cu_q.size() - 1;
  if (layout.page_size < 1) return "the cache's pages hold no keys (page_size 0)";
  if (layout.kv_lens.size() != n)
    return "kv_lens must be i32 [" + std::to_string(n) + "] (one per sequence), got " +
           std::to_string(layout.kv_lens.size()) + " entries";
  if (layout.max_pages < 0 || layout.table.size() != n * static_cast<size_t>(layout.max_pages))
    return "page_table must be i32 [" + std::to_string(n) + ", max_pages]";
  out.clear();
  for (size_t b = 0; b < n; ++b) {
    CudaSequence s;
    s.q_row = cu_q[b], s.q_len = cu_q[b + 1] - cu_q[b], s.k_len = layout.kv_lens[b];
    const std::string seq = "sequence " + std::to_string(b);
    const int64_t hold = layout.max_pages * layout.page_size;
    if (s.k_len < 0 || s.k_len > hold)
      return seq + " has " + std::to_string(s.k_len) + " keys, but its " + std::to_string(layout.max_pages) +
             " pages of " + std::to_string(layout.page_size) + " hold " + std::to_string(hold);
    if (s.q_len > s.k_len)
      return seq + " has " + std::to_string(s.q_len) + " queries but " + std::to_string(s.k_len) +
             " keys; a paged sequence's queries are its last tokens, already in the cache";
    s.q_first = s.k_len - s.q_len;
    for (int64_t p = 0; p < (s.k_len + layout.page_size - 1) / layout.page_size; ++p) {
      const int64_t page = layout.table[b * static_cast<size_t>(layout.max_pages) + static_cast<size_t>(p)];
      if (page < 0 || page >= layout.pages)
        return "page_table[" + std::to_string(b) + "][" + std::to_string(p) + "] is " + std::to_string(page) +
               ", outside the cache's " + std::to_string(layout.pages) + " pages";
    }
    out.push_back(s);
  }
  return {};
}

attn_cuda_params cuda_sequence_params(const attn_cuda_params& packed, const CudaSequence& s, int index,
                                      size_t in_bytes, size_t out_bytes, int64_t table_stride) {
  attn_cuda_params p = packed;
  auto rows = [&](const void* base, int64_t row, long long stride, size_t elem_bytes) {
    return static_cast<const char*>(base) + row * stride * static_cast<long long>(elem_bytes);
  };
  // Rows are positions: a paged sequence's rows start q_first before its first query.
  const int64_t q_row = s.q_row - s.q_first;
  p.q = rows(packed.q, q_row, packed.q_stride[2], in_bytes);
  p.out = const_cast<char*>(rows(packed.out, q_row, packed.out_stride[2], out_bytes));
  if (packed.lse) p.lse = packed.lse + q_row * packed.lse_stride[2];
  if (packed.max) p.max = packed.max + q_row * packed.max_stride[2];
  if (packed.page_table) {
    p.page_table = packed.page_table + index * table_stride;  // K and V: the cache's start
  } else {
    // A sequence without keys reads none; its K and V stay at the packed tensors' first row, so
    // that no address past their end (the last sequence's k_row may be Tk) is ever formed.
    const int64_t k_row = s.k_len > 0 ? s.k_row : 0;
    p.k = rows(packed.k, k_row, packed.k_stride[2], in_bytes);
    p.v = rows(packed.v, k_row, packed.v_stride[2], in_bytes);
  }
  p.batch = 1;
  p.q_len = static_cast<int>(s.q_first + s.q_len);
  p.kv_len = static_cast<int>(s.k_len);
  p.q_first = static_cast<int>(s.q_first);
  p.batch_base = index;
  return p;
}

CudaGrid plan_launch_grid(const CudaLaunchInfo& info, int sm_count, attn_cuda_params& p, int64_t grid_ctas) {
  const int64_t tile0 = info.block_m > 0 ? p.q_first / info.block_m : 0;
  // One present row decides on packing heads as a decoding step does; otherwise the grid's tiles
  // run from the first present row's.
  const int64_t rows = p.q_len - p.q_first == 1 ? 1 : p.q_len - tile0 * info.block_m;
  int splits = 0;  // the launch's own count decides
  if (grid_ctas > 0) {
    const int64_t kv_tiles = info.block_n > 0 ? (p.kv_len + info.block_n - 1) / info.block_n : 1;
    splits = cuda_kv_splits(sm_count, grid_ctas, kv_tiles);
  }
  const CudaGrid g = plan_cuda_grid(info, sm_count, p.batch, p.q_heads, p.kv_heads, rows, p.kv_len, splits);
  p.q_tile0 = g.pack_heads ? 0 : static_cast<int>(tile0);
  return g;
}

}  // namespace attn
