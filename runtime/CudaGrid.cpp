// The launch grid: head packing for decoding, split-KV shares, and their workspace.
#include "runtime/CudaGrid.h"

#include <algorithm>

namespace attn {

int cuda_kv_splits(int sm_count, int64_t ctas, int64_t kv_tiles) {
  if (sm_count <= 0 || ctas <= 0 || ctas >= sm_count) return 1;
  const int64_t wanted = (2 * static_cast<int64_t>(sm_count) + ctas - 1) / ctas;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({wanted, kv_tiles / 4, 64})));
}

CudaGrid plan_cuda_grid(const CudaLaunchInfo& info, int sm_count, int64_t batch, int64_t q_heads,
                        int64_t kv_heads, int64_t q_len, int64_t kv_len, int forced_splits) {
  CudaGrid g;
  const int64_t groups = kv_heads > 0 ? q_heads / kv_heads : 1;
  g.pack_heads = info.pack_heads && q_len == 1 && groups > 1;
  const int64_t rows = g.pack_heads ? groups : q_len;  // rows of a head (or of a group) to tile
  const int64_t q_tiles = (rows + info.block_m - 1) / info.block_m;
  const int64_t heads = g.pack_heads ? kv_heads : q_heads;
  g.tiles = q_tiles * heads * batch;
  const int64_t kv_tiles = info.block_n > 0 ? (kv_len + info.block_n - 1) / info.block_n : 1;
  g.kv_splits = forced_splits > 0 ? forced_splits : cuda_kv_splits(sm_count, g.tiles, kv_tiles);
  g.grid[0] = static_cast<unsigned>(q_tiles * g.kv_splits);
  g.grid[1] = static_cast<unsigned>(heads);
  g.grid[2] = static_cast<unsigned>(batch);
  return g;
}

size_t cuda_split_partial_bytes(const attn_cuda_params& p, const CudaGrid& g, int64_t value_dim) {
  const int64_t rows = static_cast<int64_t>(p.batch) * p.q_heads * (p.q_len - p.q_first);  // present rows
  return static_cast<size_t>(rows * g.kv_splits * (value_dim + 2)) * sizeof(float);
}

size_t cuda_split_done_bytes(const CudaGrid& g) { return static_cast<size_t>(g.tiles) * sizeof(int); }

namespace {

/// Sets the grid's fields of `p` with no split scratch attached; true when the grid splits keys.
bool set_grid_fields(attn_cuda_params& p, const CudaGrid& g) {
  p.pack_heads = g.pack_heads ? 1 : 0;
  p.kv_splits = g.kv_splits > 1 ? g.kv_splits : 0;
  p.partial = nullptr;
  p.split_done = nullptr;
  return g.kv_splits > 1;
}

}  // namespace

void CudaSplitWorkspace::attach(CudaDevice& device, attn_cuda_params& p, const CudaGrid& g,
                                int64_t value_dim) {
  if (!set_grid_fields(p, g)) return;
  const size_t partial_bytes = cuda_split_partial_bytes(p, g, value_dim),
               done_bytes = cuda_split_done_bytes(g);
  if (partial_.size() < partial_bytes) partial_ = device.alloc(partial_bytes);
  if (done_.size() < done_bytes) {
    done_ = device.alloc(done_bytes);
    device.zero(done_);
  }
  p.partial = reinterpret_cast<float*>(partial_.ptr());
  p.split_done = reinterpret_cast<int*>(done_.ptr());
}

}  // namespace attn
