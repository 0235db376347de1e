// Ragged batches (cu_seqlens) on the cuda target: each sequence of the packed batch is launched on
// its own, as a dense batch of one on views of the packed tensors, with attn_cuda_params::batch_base
// set to its index so that the kernel's `b` is the sequence's. No copies: rows [r, r + L) of a
// packed Q [Tq, Hq, D] are the dense [1, Hq, L, D] whose base is row r and whose strides are
// {0, head stride, token stride}. The layout's checks (check_sequence_boundaries, check_ragged_layout,
// check_paged_layout) are every target's: backends/io/RaggedBatch.cpp calls them for the
// reference, the cpu target's runner and the command line (the generated CPU sources carry their
// own copy, backends/cpu/fixed/PackedSequences.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaGrid.h"
#include "runtime/CudaLauncher.h"

namespace attn {

/// One sequence of a ragged batch or paged cache: its first rows in the packed Q and K/V, and its
/// lengths. A paged sequence's keys are in pages (k_row unused) and its queries are its last
/// tokens: the first is at position q_first = k_len - q_len.
struct CudaSequence {
  int64_t q_row = 0, q_len = 0;
  int64_t k_row = 0, k_len = 0;
  int64_t q_first = 0;
};

/// A paged cache's layout on the host: the page table [N, max_pages] row-major, the key counts
/// [N], and the cache's page count and size.
struct PagedLayout {
  std::vector<int32_t> table;
  std::vector<int32_t> kv_lens;
  int64_t max_pages = 0, pages = 0, page_size = 0;
};

/// Checks the boundaries `cu` of `name` (cu_seqlens_q or cu_seqlens_k) against `total` packed
/// rows: at least one entry, 0 first, non-decreasing, `total` last. "" when they hold, else the
/// message.
std::string check_sequence_boundaries(const std::vector<int64_t>& cu, const char* name, int64_t total);

/// The sequences of a ragged batch whose boundaries `cu_q` and `cu_k` hold over `tq` query and `tk`
/// key rows, into `out`. "" when they do, else the message (check_sequence_boundaries', or entry counts
/// that differ).
std::string check_ragged_layout(const std::vector<int64_t>& cu_q, const std::vector<int64_t>& cu_k,
                                int64_t tq, int64_t tk, std::vector<CudaSequence>& out);

/// The sequences of a paged cache whose queries' boundaries `cu_q` hold over `tq` rows, into
/// `out`: each sequence's key count is at most what its pages hold, its queries at most its keys,
/// and every page it uses is in the cache. "" when they hold, else the message (naming the
/// sequence and entry).
std::string check_paged_layout(const std::vector<int64_t>& cu_q, const PagedLayout& layout, int64_t tq,
                               std::vector<CudaSequence>& out);

/// The parameter block of sequence `index`, `s`, of a ragged launch. `packed` points at the packed
/// tensors' first rows, with strides {0, head stride, token stride} (an lse [Tq, Hq] likewise) and
/// everything else of the launch filled in; `in_bytes` is the size of a Q/K/V element, `out_bytes`
/// of an Out element (they differ for FP8 kernels: bf16 Out). The
/// result is a dense batch of one at the sequence's rows, its lengths, and batch_base = index (a
/// sequence without keys keeps K and V at row 0). With a paged cache (packed.page_table: the
/// table's first row in device memory, `table_stride` entries a row), K and V stay at the cache's
/// start, page_table is the sequence's row, and Q, Out and the LSE point s.q_first rows before the
/// sequence's first query: its rows are its positions (attn_cuda_params::q_first).
attn_cuda_params cuda_sequence_params(const attn_cuda_params& packed, const CudaSequence& s, int index,
                                      size_t in_bytes, size_t out_bytes, int64_t table_stride = 0);

/// The grid of the launch `p` (plan_cuda_grid over its present rows), setting p.q_tile0: the
/// query tile of its first present row, 0 when heads are packed. Its split-KV shares fill the GPU
/// as its own CTAs would, or with `grid_ctas` > 0 as that many CTAs (the launch one part of a
/// larger grid: runtime/CudaLaunchPlan.h's one grid) would.
CudaGrid plan_launch_grid(const CudaLaunchInfo& info, int sm_count, attn_cuda_params& p,
                          int64_t grid_ctas = 0);

}  // namespace attn
