// The launch grid of a generated CUDA kernel: one CTA per query tile of each head, except for
// launches with too few of those to fill the GPU. Decoding with grouped heads packs the query
// heads of a key/value head into one tile (attn_cuda_params::pack_heads), and split-KV ("flash
// decoding") gives each query tile several CTAs that share its keys, the last one merging their
// partial rows (attn_cuda_params::kv_splits). The device side is
// backends/cuda/device/attn_tiles.cuh and attn_split_merge.cuh.
#pragma once

#include <cstdint>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaLaunch.h"

namespace attn {

/// How many CTAs should share each query tile's keys: 1 when the launch's `ctas` already fill
/// `sm_count` SMs, otherwise enough to occupy them about twice over, keeping at least 4 key
/// tiles per share and at most 64 shares.
int cuda_kv_splits(int sm_count, int64_t ctas, int64_t kv_tiles);

/// A launch's grid and what the parameter block must say about it.
struct CudaGrid {
  unsigned grid[3] = {1, 1, 1};
  bool pack_heads = false;  ///< rows of a tile are query heads (decoding, grouped heads)
  int kv_splits = 1;        ///< CTAs per query tile
  int64_t tiles = 0;        ///< query tiles over all heads and batch entries (split counters)
};

/// The grid for `info`'s kernel on a device of `sm_count` SMs: packs heads when the kernel allows
/// it, Lq is 1 and heads are grouped; splits the keys as cuda_kv_splits says, or into
/// `forced_splits` shares when that is positive.
CudaGrid plan_cuda_grid(const CudaLaunchInfo& info, int sm_count, int64_t batch, int64_t q_heads,
                        int64_t kv_heads, int64_t q_len, int64_t kv_len, int forced_splits = 0);

/// Bytes of the partial rows and of the counters a split launch of `g` writes.
size_t cuda_split_partial_bytes(const attn_cuda_params& p, const CudaGrid& g, int64_t value_dim);
size_t cuda_split_done_bytes(const CudaGrid& g);

/// The device memory a split launch writes: partial rows and per-tile counters. Grown on demand,
/// reused across launches (the kernel leaves its counters at 0).
class CudaSplitWorkspace {
 public:
  /// Sets p.pack_heads and p.kv_splits from `g` and points p.partial and p.split_done at a
  /// workspace when g splits (rows: B Hq Lq of Dv + 2 floats per share).
  void attach(CudaDevice& device, attn_cuda_params& p, const CudaGrid& g, int64_t value_dim);

 private:
  CudaBuffer partial_, done_;
};

}  // namespace attn
