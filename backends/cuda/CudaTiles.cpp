// The CUDA tile table: shapes that keep the accumulators in registers without spills and the
// key/value ring within the architecture's shared memory.
#include "backends/cuda/CudaTiles.h"

#include <algorithm>

namespace attn {

int cuda_max_shared_bytes(int sm) {
  switch (sm) {
    case 80:
    case 87: return 166912;  // A100 / Orin: 163 KB
    case 86:
    case 89:
    case 120: return 101376;                    // consumer Ampere/Ada/Blackwell: 99 KB
    default: return sm >= 90 ? 232448 : 49152;  // Hopper and datacenter Blackwell: 227 KB
  }
}

bool cuda_mma_supported(DType dtype, int head_dim, int value_dim) {
  auto ok = [](int d) { return d > 0 && d % 64 == 0 && d <= 256; };
  return dtype != DType::F32 && ok(head_dim) && ok(value_dim);
}

int cuda_shared_bytes(const CudaTileConfig& c, DType dtype, int head_dim, int value_dim) {
  if (c.mma) return 2 * (c.block_m * head_dim + c.stages * c.block_n * (head_dim + value_dim));
  return 4 * (c.block_m * head_dim + 32 * (head_dim + 1) + 32 * value_dim);
}

CudaTileConfig choose_cuda_tiles(int sm, DType dtype, int head_dim, int value_dim) {
  CudaTileConfig c;
  const int d = std::max(head_dim, value_dim);
  if (cuda_mma_supported(dtype, head_dim, value_dim)) {
    c.mma = true;
    c.block_n = 64;
    if (d <= 128) {
      c.block_m = 128;
      c.warps = 8;
      c.q_in_regs = d <= 64;  // at 128, 32 more registers per thread would spill
      c.stages = d <= 64 || sm >= 90 ? 3 : 2;
    } else {
      // 16 x 256 f32 of O per warp already fills half the register file: 4 warps, Q from smem,
      // 16-key tiles (32 keys spill a few bytes), a deeper ring to hide their latency.
      c.block_m = 64;
      c.warps = 4;
      c.stages = 3;
      c.block_n = 16;
    }
    while (c.stages > 1 && cuda_shared_bytes(c, dtype, head_dim, value_dim) > cuda_max_shared_bytes(sm))
      --c.stages;
    return c;
  }
  c.warps = 4;
  c.block_n = 32;
  for (int rows : {8, 4, 2, 1}) {
    c.rows_per_warp = rows;
    c.block_m = c.warps * rows;
    if (cuda_shared_bytes(c, dtype, head_dim, value_dim) <= cuda_max_shared_bytes(sm)) break;
  }
  return c;
}

std::string describe(const CudaTileConfig& c) {
  std::string s = c.mma ? "mma" : "simt";
  s +=
      " " + std::to_string(c.block_m) + "x" + std::to_string(c.block_n) + " warps=" + std::to_string(c.warps);
  if (c.mma) s += " stages=" + std::to_string(c.stages) + (c.q_in_regs ? " q-in-regs" : "");
  return s;
}

}  // namespace attn
