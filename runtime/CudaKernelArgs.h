// The cuda launcher's reading of a call through the kernel ABI (attn_kernel_args): its checks, the
// parameter block, and a ragged batch's or paged cache's layout. Host code only: GPU memory (a
// ragged batch's boundaries, a page table) is read through a download callback, so the tests
// check all of it without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "attn/kernel_abi.h"
#include "runtime/CudaLaunch.h"
#include "runtime/CudaRagged.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

/// Copies `bytes` of GPU memory at `src` to the host at `dst` (on the caller's device or stream).
using CudaDownload = std::function<void(void* dst, const void* src, size_t bytes)>;

/// Whether `a` is a paged cache (page_table, kv_lens), or a ragged batch (cu_seqlens) or paged cache.
bool cuda_call_is_paged(const attn_kernel_args* a);
bool cuda_call_is_ragged(const attn_kernel_args* a);

/// The sequences of a ragged batch whose boundaries `cu_seqlens_q` and `cu_seqlens_k` (i32 or i64,
/// in CPU memory or read through `download` from GPU memory) hold over `tq` and `tk` packed rows,
/// checked (check_ragged_layout), into `out`. "" or the message.
std::string read_ragged_layout(const DLTensor* cu_seqlens_q, const DLTensor* cu_seqlens_k, int64_t tq,
                               int64_t tk, std::vector<CudaSequence>& out, const CudaDownload& download);

/// The layout of a ragged or paged call `a`, checked (check_ragged_layout, check_paged_layout):
/// its sequences into `out` (none for a dense call) and a paged cache's table as i32 rows of
/// `max_pages` entries into `table`. The boundaries, table and key counts are read from CPU memory,
/// or through `download` from GPU memory. "" or the message.
std::string read_cuda_layout(const attn_kernel_args* a, std::vector<CudaSequence>& out,
                             std::vector<int32_t>& table, int64_t& max_pages, const CudaDownload& download);

/// The parameter block of a call of `info`'s kernel but its error word, tile plan, page table and
/// split workspace; "" or what does not fit. A ragged batch's or paged cache's block points at the
/// packed tensors' first rows with strides {0, head, token} (a cache's K and V: {0, head, row in a
/// page}, pages k_page_stride apart), its lengths the packed totals (runtime/CudaRagged.h makes
/// each sequence's).
std::string fill_cuda_params(const CudaLaunchInfo& info, const attn_kernel_args* a, attn_cuda_params& p);

}  // namespace attn
