// Split-KV ("flash decoding") for CUDA launches with too few query tiles to fill the GPU
// (decoding, short prompts over long caches): several CTAs share each query tile's keys and
// the last one merges their partial rows (attn_cuda_params::kv_splits; the device side is
// backends/cuda/device/attn_tiles.cuh and attn_split_merge.cuh).
#pragma once

#include <cstdint>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"

namespace attn {

/// How many CTAs should share each query tile's keys: 1 when the launch's `ctas` (query tiles x
/// heads x batch) already fill `sm_count` SMs, otherwise enough to occupy them about twice over,
/// keeping at least 4 key tiles per share and at most 64 shares.
int cuda_kv_splits(int sm_count, int64_t ctas, int64_t kv_tiles);

/// The device memory a split launch writes: partial rows and per-tile counters. Grown on demand,
/// reused across launches (the kernel leaves its counters at 0).
class CudaSplitWorkspace {
 public:
  /// Points `p` at a workspace for `splits` shares (nothing when splits <= 1): `rows` = B Hq Lq,
  /// `value_dim` = Dv, `tiles` = B Hq ceil(Lq / block_m).
  void attach(CudaDevice& device, attn_cuda_params& p, int splits, int64_t rows, int64_t value_dim, int64_t tiles);

 private:
  CudaBuffer partial_, done_;
};

}  // namespace attn
