// Tile sizes and pipeline depth of the CUDA kernels, per architecture, dtype and head dims.
// A small table today; the seam for an on-device autotuner (which would pass its own choice
// through CudaPrintOptions::tiles and cache it with the loader).
#pragma once

#include <string>

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

/// "mma 128x64 w8 s2" etc., for banners and reports.
std::string describe(const CudaTileConfig& c);

}  // namespace attn
