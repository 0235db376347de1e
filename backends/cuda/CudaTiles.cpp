// The CUDA tile table: shapes that keep the accumulators in registers without spills and the
// key/value ring within the architecture's shared memory.
#include "backends/cuda/CudaTiles.h"

#include <algorithm>
#include <sstream>

namespace attn {

int cuda_max_shared_bytes(int sm) {
  // A kernel run as one grid over a planned call's launches (ATTN_VARLEN) keeps its launch's
  // parameter block in 2 KB of static shared memory, which the dynamic share leaves free.
  constexpr int kStatic = 2048;
  switch (sm) {
    case 80:
    case 87: return 166912 - kStatic;  // A100 / Orin: 163 KB
    case 86:
    case 89:
    case 120: return 101376 - kStatic;                      // consumer Ampere/Ada/Blackwell: 99 KB
    default: return (sm >= 90 ? 232448 : 49152) - kStatic;  // Hopper and datacenter Blackwell: 227 KB
  }
}

bool cuda_mma_supported(DType dtype, int head_dim, int value_dim) {
  auto ok = [](int d) { return d > 0 && d % 64 == 0 && d <= 256; };
  return dtype != DType::F32 && ok(head_dim) && ok(value_dim);
}

int cuda_shared_bytes(const CudaTileConfig& c, DType dtype, int head_dim, int value_dim) {
  const int tiles = 2 * (c.block_m * head_dim + c.stages * c.block_n * (head_dim + value_dim));
  if (c.kind == CudaKernelKind::Wgmma) return tiles + 1024;
  if (c.kind == CudaKernelKind::Mma) return tiles;
  return 4 * (c.block_m * head_dim + 32 * (head_dim + 1) + 32 * value_dim);
}

CudaTileConfig choose_cuda_tiles(int sm, DType dtype, int head_dim, int value_dim) {
  CudaTileConfig c;
  const int d = std::max(head_dim, value_dim);
  // Hopper, head dims up to 128: the warpgroup kernel. On the first H200 run (2026-12-04)
  // every row's tuned winner was a wgmma shape, 1.3-1.6x the mma.sync table's time; 256 is unmeasured.
  if (d <= 128)
    if (const std::optional<CudaTileConfig> w = cuda_wgmma_tiles(sm, dtype, head_dim, value_dim)) return *w;
  if (cuda_mma_supported(dtype, head_dim, value_dim)) {
    c.kind = CudaKernelKind::Mma;
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

std::optional<CudaTileConfig> cuda_wgmma_tiles(int sm, DType dtype, int head_dim, int value_dim) {
  if (sm != 90 || !cuda_mma_supported(dtype, head_dim, value_dim)) return std::nullopt;
  // Two warpgroups of 64 rows; S (block_n / 2 floats a thread) and O (value_dim / 2) both live
  // in registers: 128-key tiles up to head dim 128, 64 at 256 (with 2 stages, 197 KB of smem).
  CudaTileConfig c;
  c.kind = CudaKernelKind::Wgmma;
  c.warps = 8;
  c.block_m = 128;
  c.block_n = std::max(head_dim, value_dim) <= 128 ? 128 : 64;
  c.stages = 2;
  return c;
}

std::vector<CudaTileConfig> cuda_tile_candidates(int sm, DType dtype, int head_dim, int value_dim) {
  const CudaTileConfig table = choose_cuda_tiles(sm, dtype, head_dim, value_dim);
  std::vector<CudaTileConfig> out = {table};
  auto add = [&](const CudaTileConfig& c) {
    if (cuda_shared_bytes(c, dtype, head_dim, value_dim) > cuda_max_shared_bytes(sm)) return;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  const int d = std::max(head_dim, value_dim);
  if (table.tensor_cores()) {
    // 16 query rows per warp; keys per tile a multiple of 16 (the P·V MMA's k).
    for (int warps : {4, 8})
      for (int block_n : d <= 128 ? std::vector<int>{32, 64, 128} : std::vector<int>{16, 32, 64})
        for (int stages : {2, 3, 4})
          for (bool q_in_regs : {false, true}) {
            if (q_in_regs && d > 64) continue;  // table: Q fragments spill above head dim 64
            CudaTileConfig c;
            c.kind = CudaKernelKind::Mma, c.warps = warps, c.block_m = 16 * warps, c.block_n = block_n;
            c.stages = stages, c.q_in_regs = q_in_regs;
            add(c);
          }
    // Hopper's warpgroup kernel: its own shape first, then 1 or 2 warpgroups of 64 rows, narrower
    // key tiles, a deeper ring.
    if (const std::optional<CudaTileConfig> w = cuda_wgmma_tiles(sm, dtype, head_dim, value_dim)) {
      add(*w);
      for (int groups : {1, 2})
        for (int block_n : d <= 128 ? std::vector<int>{64, 128} : std::vector<int>{32, 64})
          for (int stages : {2, 3})
            for (bool overlap : {false, true}) {
              CudaTileConfig c;
              c.kind = CudaKernelKind::Wgmma, c.warps = 4 * groups, c.block_m = 64 * groups;
              c.block_n = block_n, c.stages = stages, c.overlap = overlap;
              if (!overlap || stages >= 3) add(c);  // overlapped with 2 stages fetches nothing ahead
            }
    }
    return out;
  }
  for (int warps : {4, 8})
    for (int rows : {1, 2, 4, 8}) {
      CudaTileConfig c;
      c.warps = warps, c.rows_per_warp = rows, c.block_m = warps * rows, c.block_n = 32;
      add(c);
    }
  return out;
}

std::string describe(const CudaTileConfig& c) {
  const std::string shape = std::to_string(c.block_m) + "x" + std::to_string(c.block_n);
  switch (c.kind) {
    case CudaKernelKind::Simt: return "simt " + shape + " warps=" + std::to_string(c.warps);
    case CudaKernelKind::Mma:
      return "mma " + shape + " warps=" + std::to_string(c.warps) + " stages=" + std::to_string(c.stages) +
             (c.q_in_regs ? " q-in-regs" : "");
    case CudaKernelKind::Wgmma:
      return "wgmma " + shape + " warpgroups=" + std::to_string(c.warps / 4) +
             " stages=" + std::to_string(c.stages) + (c.overlap ? " overlap" : "");
  }
  return "";
}

std::optional<CudaTileConfig> parse_cuda_tiles(const std::string& text) {
  std::istringstream in(text);
  std::string kind, shape, word;
  CudaTileConfig c;
  if (!(in >> kind >> shape)) return std::nullopt;
  if (kind == "mma")
    c.kind = CudaKernelKind::Mma;
  else if (kind == "wgmma")
    c.kind = CudaKernelKind::Wgmma;
  else if (kind != "simt")
    return std::nullopt;
  const bool staged = c.tensor_cores();
  const size_t x = shape.find('x');
  if (x == std::string::npos) return std::nullopt;
  try {
    c.block_m = std::stoi(shape.substr(0, x));
    c.block_n = std::stoi(shape.substr(x + 1));
    while (in >> word) {
      if (word.rfind("warps=", 0) == 0 && c.kind != CudaKernelKind::Wgmma)
        c.warps = std::stoi(word.substr(6));
      else if (word.rfind("warpgroups=", 0) == 0 && c.kind == CudaKernelKind::Wgmma)
        c.warps = 4 * std::stoi(word.substr(11));
      else if (word.rfind("stages=", 0) == 0 && staged)
        c.stages = std::stoi(word.substr(7));
      else if (word == "q-in-regs" && c.kind == CudaKernelKind::Mma)
        c.q_in_regs = true;
      else if (word == "overlap" && c.kind == CudaKernelKind::Wgmma)
        c.overlap = true;
      else
        return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (c.warps <= 0 || c.block_m <= 0 || c.block_n <= 0) return std::nullopt;
  if (!staged) {
    if (c.block_m % c.warps) return std::nullopt;
    c.rows_per_warp = c.block_m / c.warps;
  } else if (c.block_m != 16 * c.warps || c.block_n % 16 || c.stages < 1) {
    return std::nullopt;
  } else if (c.kind == CudaKernelKind::Wgmma && (c.block_n > 256 || c.stages < 2)) {
    return std::nullopt;  // one wgmma spans the key tile (n <= 256); a ring of at least 2
  }
  if (describe(c) != text) return std::nullopt;
  return c;
}

bool operator==(const CudaTileConfig& a, const CudaTileConfig& b) {
  return a.kind == b.kind && a.block_m == b.block_m && a.block_n == b.block_n && a.warps == b.warps &&
         a.stages == b.stages && a.rows_per_warp == b.rows_per_warp && a.q_in_regs == b.q_in_regs &&
         a.overlap == b.overlap;
}

}  // namespace attn
