// A call's launches, planned on the host before anything is launched: a dense call's one launch, or
// one per sequence of a ragged batch or paged cache, each with its grid, its share of one split-KV
// workspace and its run-time tile plan (masks that read buffers), beside the page table. A plan
// depends on the layout (boundaries, page table, key counts), the tensors' shapes and the mask's
// buffers, never on the tensors' values or addresses. Placed in device memory once
// (CudaPlanMemory), it is launched with any call's tensors of the same shapes: filling the
// parameter blocks is arithmetic, so a launch of a plan allocates, copies and waits for nothing,
// and a CUDA graph can capture it (FlashInfer's plan()/run() split). The loader's invoke and
// launch_on plan each call and launch it at once; CudaKernelModule::plan keeps one for many calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaGrid.h"
#include "runtime/CudaLaunch.h"
#include "runtime/CudaLauncher.h"
#include "runtime/CudaRagged.h"

namespace attn {

/// One launch of a plan.
struct CudaPlannedLaunch {
  int sequence = -1;                       ///< the sequence's index (the kernel's `b`); -1 for a dense call
  CudaSequence rows;                       ///< the sequence's rows and lengths (a dense call: unused)
  CudaGrid grid;                           ///< its grid, head packing and split-KV shares
  int q_tile0 = 0;                         ///< attn_cuda_params::q_tile0
  size_t partial_at = 0, done_at = 0;      ///< bytes into the plan's split workspace (split launches)
  int64_t tile_rows = -1, tile_runs = -1;  ///< ints into CudaLaunchPlan::tile_ints; -1: no run-time tile plan
};

/// The shapes a plan was made for: a planned call's tensors must have them.
struct CudaPlanShape {
  int batch = 0, q_heads = 0, kv_heads = 0;
  int64_t q_rows = 0;   ///< Lq of a dense call, Tq of a ragged or paged one
  int64_t kv_rows = 0;  ///< Lkv of a dense call, Tk of a ragged one, the cache's pages of a paged one
  int page_size = 0;    ///< a paged cache's, else 0
  bool lse = false;
  bool max = false;  ///< row maxima (return_max)
};

struct CudaLaunchPlan {
  std::vector<CudaPlannedLaunch> launches;  ///< in sequence order; none when no row has a query
  /// A kernel built to run them as one grid (CudaLaunchInfo::one_grid): each launch's changes to
  /// the call's block (attn_cuda_launch), and each CTA's {launch, block x, y, z}, the CTAs with
  /// the most key tiles first. Empty otherwise.
  std::vector<attn_cuda_launch> one_grid;
  std::vector<int> work;
  std::vector<int32_t> table;  ///< a paged cache's page table, rows of table_stride entries
  int64_t table_stride = 0;
  std::vector<int> tile_ints;                ///< every launch's tile rows and runs (CudaTileRuns), one upload
  size_t partial_bytes = 0, done_bytes = 0;  ///< the split workspace: partial rows, then counters
  CudaPlanShape shape;
};

/// Device addresses of a placed plan's data (0 where the plan has none).
struct CudaPlanMemory {
  uint64_t table = 0, tiles = 0, partial = 0, done = 0;
  uint64_t launches = 0, work = 0;  ///< one grid's (CudaLaunchPlan::one_grid, work)
};

/// Plans the launches of `info`'s kernel for the call whose parameter block is `packed`
/// (fill_cuda_params: the packed tensors' shapes and strides) and whose layout is `sequences` (none
/// for a dense call; a paged cache's `table`, rows of `table_stride` entries, from
/// read_cuda_layout), on a device of `sm_count` SMs, with the tile plans of masks that read
/// buffers from the host copies `buffers` and `scalars`. Sequences without queries get no launch.
/// Throws std::invalid_argument for a buffer the tile planner cannot read.
CudaLaunchPlan plan_cuda_launches(const CudaLaunchInfo& info, int sm_count, const attn_cuda_params& packed,
                                  const std::vector<CudaSequence>& sequences, std::vector<int32_t> table,
                                  int64_t table_stride, const std::vector<double>& scalars,
                                  const std::vector<CudaTensorArg>& buffers);

/// "" when the call `packed` has the shapes `plan` was made for, else what differs.
std::string check_planned_call(const CudaLaunchPlan& plan, const attn_cuda_params& packed);

/// The parameter block of `launch` of `plan` for the call `packed`, the plan's data at `memory`.
attn_cuda_params planned_params(const CudaLaunchInfo& info, const attn_cuda_params& packed,
                                const CudaLaunchPlan& plan, const CudaPlannedLaunch& launch,
                                const CudaPlanMemory& memory);

/// The parameter block of `plan`'s one grid (a plan with work) for the call `packed`: the call's
/// block pointing at the plan's data, from which each CTA makes its launch's as planned_params
/// would (attn_dev::enter_launch, attn_tiles.cuh).
attn_cuda_params one_grid_params(const attn_cuda_params& packed, const CudaPlanMemory& memory);

/// Launches every launch of `plan` (placed at `memory`) for the call `packed` on `stream`, in order
/// (or all of them as one grid, for a kernel built for it), and returns: no allocation, copy or
/// wait.
void launch_cuda_plan(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                      const attn_cuda_params& packed, const CudaLaunchPlan& plan,
                      const CudaPlanMemory& memory, void* stream = nullptr);

/// A plan's data in device memory owned by this object: the page table and the tile runs uploaded,
/// the split workspace's counters zeroed (the kernels leave them at 0, so the workspace serves
/// every later launch of the plan, one stream at a time).
class CudaPlacedPlan {
 public:
  CudaPlacedPlan(CudaDevice& device, CudaLaunchPlan plan);
  const CudaLaunchPlan& plan() const { return plan_; }
  const CudaPlanMemory& memory() const { return memory_; }

 private:
  CudaLaunchPlan plan_;
  CudaBuffer table_, tiles_, workspace_, one_grid_;
  CudaPlanMemory memory_;
};

/// Places `plan`'s data in `scratch` (allocated and filled in its stream's order).
CudaPlanMemory place_cuda_plan(CudaStreamScratch& scratch, const CudaLaunchPlan& plan);

/// Launches `info`'s kernel of `module` on `p` (dense, or ragged or paged over `sequences`, a
/// paged table `table_stride` entries a row) and waits: planned with
/// the run-time tile plan from the host copies `buffers` and `scalars`, placed in memory of its
/// own, every launch enqueued, then one wait. p.error is the caller's. Throws CudaError, or
/// std::invalid_argument for a buffer the tile plan cannot read.
void launch_cuda_sequences(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                           const attn_cuda_params& p, const std::vector<CudaSequence>& sequences,
                           std::vector<int32_t> table, int64_t table_stride,
                           const std::vector<double>& scalars, const std::vector<CudaTensorArg>& buffers);

}  // namespace attn
