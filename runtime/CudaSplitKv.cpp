// Split-KV: the share count and the workspace of a launch.
#include "runtime/CudaSplitKv.h"

#include <algorithm>

namespace attn {

int cuda_kv_splits(int sm_count, int64_t ctas, int64_t kv_tiles) {
  if (sm_count <= 0 || ctas <= 0 || ctas >= sm_count) return 1;
  const int64_t wanted = (2 * static_cast<int64_t>(sm_count) + ctas - 1) / ctas;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({wanted, kv_tiles / 4, 64})));
}

void CudaSplitWorkspace::attach(CudaDevice& device, attn_cuda_params& p, int splits, int64_t rows,
                                int64_t value_dim, int64_t tiles) {
  p.kv_splits = splits > 1 ? splits : 0;
  p.partial = nullptr;
  p.split_done = nullptr;
  if (splits <= 1) return;
  const size_t partial_bytes = static_cast<size_t>(rows * splits * (value_dim + 2)) * sizeof(float);
  const size_t done_bytes = static_cast<size_t>(tiles) * sizeof(int);
  if (partial_.size() < partial_bytes) partial_ = device.alloc(partial_bytes);
  if (done_.size() < done_bytes) {
    done_ = device.alloc(done_bytes);
    device.zero(done_);
  }
  p.partial = reinterpret_cast<float*>(partial_.ptr());
  p.split_done = reinterpret_cast<int*>(done_.ptr());
}

}  // namespace attn
