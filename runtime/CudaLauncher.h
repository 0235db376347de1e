// Runs a generated CUDA kernel on host tensors: uploads, fills the parameter block, launches,
// downloads, and turns the device error word into a clear error.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaGrid.h"
#include "runtime/CudaLaunch.h"
#include "runtime/HostTensor.h"
#include "runtime/TilePlanner.h"

namespace attn {

/// A tensor argument of the kernel, in declaration order.
struct CudaTensorArg {
  std::string name;
  const HostTensor* tensor = nullptr;
};

struct CudaLaunchRequest {
  const HostTensor* q = nullptr;  ///< [B, Hq, Lq, D] in the kernel's dtype
  const HostTensor* k = nullptr;  ///< [B, Hkv, Lkv, D]
  const HostTensor* v = nullptr;  ///< [B, Hkv, Lkv, Dv]
  /// An FP8 kernel's descale factors of Q, K and V: f32 [1] or [B, Hkv] (or more rows, for a launch
  /// whose batch_base the caller sets); null: 1.
  const HostTensor* descale[3] = {nullptr, nullptr, nullptr};
  std::vector<CudaTensorArg> buffers;
  std::vector<double> scalars;  ///< scalar arguments in declaration order
  double scale = 0;             ///< softmax scale
  bool lse = false;             ///< also return the log-sum-exp
  bool max = false;             ///< also return each row's largest kept score (return_max kernels)
  int timed_repeats = 0;        ///< launches timed after the first (results unchanged)
  int kv_splits = 0;            ///< CTAs sharing a query tile's keys: 0 chosen for the device, 1 none
};

struct CudaLaunchResult {
  HostTensor out;               ///< [B, Hq, Lq, Dv], cuda_out_type(dtype)
  HostTensor lse;               ///< [B, Hq, Lq] f32 when requested
  HostTensor max;               ///< [B, Hq, Lq] f32 when requested
  std::vector<float> times_ms;  ///< one per timed repeat
};

/// Device copies of a request's tensors and the parameter block that points at them.
struct CudaPreparedLaunch {
  /// q, k, v, out, lse, max, error word, descales, buffers, tile plan: a deque, so that the block's
  /// pointers into it stay valid as it grows.
  std::deque<CudaBuffer> memory;
  CudaSplitWorkspace split;  ///< partial rows and counters of a split-KV launch
  attn_cuda_params params{};
  unsigned grid[3] = {1, 1, 1};
  HostTensor out, lse, max;  ///< host tensors of the right shape for the results
  const CudaBuffer* out_memory = nullptr;
  const CudaBuffer* lse_memory = nullptr;
  const CudaBuffer* max_memory = nullptr;
  const CudaBuffer* error_memory = nullptr;
};

/// A plan as CUDA kernels read it (attn_cuda_params::tile_rows and tile_runs): the runs of tile
/// row t are runs[3 r .. 3 r + 2] = {begin, end, kind (1 partial, 2 full)} for r in
/// [rows[t], rows[t + 1]); one empty run when there is none, so that an upload is never empty.
struct CudaTileRuns {
  std::vector<int> rows, runs;
};
CudaTileRuns cuda_tile_runs(const TileGrid& grid);

/// The run-time tile plan of kernels whose source carries one (masks that read buffers), planned
/// from host copies of the buffers (O(tiles)) as p.tile_rows and p.tile_runs read it: `rows` and
/// `runs`. Returns false (nothing planned) when the kernel has no such plan.
bool plan_tile_runs(const CudaLaunchInfo& info, int64_t q_len, int64_t kv_len,
                    const std::vector<double>& scalars, const std::vector<CudaTensorArg>& buffers,
                    std::vector<int>& rows, std::vector<int>& runs);

/// For kernels whose source carries a run-time tile plan (masks that read buffers): plans the
/// tiles from host copies of the buffers (O(tiles)) and uploads the runs for p.tile_rows and
/// p.tile_runs. Returns false (nothing uploaded) when the kernel has no such plan.
bool upload_tile_plan(CudaDevice& device, const CudaLaunchInfo& info, int64_t q_len, int64_t kv_len,
                      const std::vector<double>& scalars, const std::vector<CudaTensorArg>& buffers,
                      CudaBuffer& rows_memory, CudaBuffer& runs_memory);

/// Uploads `request`'s tensors and fills the parameter block (for callers that launch more than
/// the kernel itself, e.g. a GPU reference). Throws CudaError.
CudaPreparedLaunch prepare_cuda_launch(CudaDevice& device, const CudaLaunchInfo& info,
                                       const CudaLaunchRequest& request);

/// Launches `info.entry` of `module` on a prepared launch (whose device copies another launch, e.g.
/// a GPU reference, may have read first: its error word must still be clear). Throws as
/// launch_cuda_kernel.
CudaLaunchResult launch_prepared(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                                 CudaPreparedLaunch& L, const CudaLaunchRequest& request);

/// Launches `info.entry` of `module`. Throws CudaError on a driver failure, and with
/// "buffer 'NAME' index I is out of range [0, N) in dimension D" when the kernel reported one.
CudaLaunchResult launch_cuda_kernel(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                                    const CudaLaunchRequest& request);

}  // namespace attn
