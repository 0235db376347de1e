// Tile sizes and pipeline depth of the CUDA kernels, per architecture, dtype and head dims: a
// table, and the candidates the on-device autotuner (runtime/CudaTuner.h) times against it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/KernelOptions.h"

namespace attn {

/// One kernel shape. `mma`: the tensor-core kernel (bf16/f16, head dims multiples of 64 up to
/// 256); otherwise the SIMT kernel (any dtype and head dim).
struct CudaTileConfig {
  bool mma = false;
  int block_m = 0;         ///< query rows per CTA
  int block_n = 0;         ///< keys per tile
  int warps = 0;           ///< warps per CTA
  int stages = 1;          ///< cp.async pipeline depth (mma)
  int rows_per_warp = 0;   ///< query rows per warp (SIMT)
  bool q_in_regs = false;  ///< Q fragments stay in registers (mma, head dim <= 128)
};

/// Largest dynamic shared memory per block on compute capability `sm` (80, 86, 89, 90, ...).
int cuda_max_shared_bytes(int sm);

/// The dynamic shared memory a kernel of this shape needs.
int cuda_shared_bytes(const CudaTileConfig& c, DType dtype, int head_dim, int value_dim);

/// True when the tensor-core kernel supports this dtype and these head dims.
bool cuda_mma_supported(DType dtype, int head_dim, int value_dim);

/// The table's choice for compute capability `sm`.
CudaTileConfig choose_cuda_tiles(int sm, DType dtype, int head_dim, int value_dim);

/// Shapes worth timing on `sm`: the table's choice first, then the other rows per CTA, keys per
/// tile, pipeline depths (and Q in registers at head dim 64) whose shared memory fits. Whether
/// one spills, and whether it is faster, the autotuner finds out on the device.
std::vector<CudaTileConfig> cuda_tile_candidates(int sm, DType dtype, int head_dim, int value_dim);

/// "mma 128x64 warps=8 stages=3" etc., for banners, reports and the autotuner's cache.
std::string describe(const CudaTileConfig& c);

/// The inverse of `describe`; nullopt for text it did not write.
std::optional<CudaTileConfig> parse_cuda_tiles(const std::string& text);

bool operator==(const CudaTileConfig& a, const CudaTileConfig& b);

}  // namespace attn
