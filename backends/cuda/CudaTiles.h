// Tile sizes and pipeline depth of the CUDA kernels, per architecture, dtype and head dims: a
// table, and the candidates the on-device autotuner (runtime/CudaTuner.h) times against it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/KernelOptions.h"

namespace attn {

/// Which forward kernel a shape is for.
enum class CudaKernelKind {
  Simt,   ///< plain FMA loops: any dtype and head dim, any architecture
  Mma,    ///< tensor cores through warp-level mma.sync (sm_80 and newer; bf16/f16, head dims
          ///< multiples of 64 up to 256)
  Wgmma,  ///< Hopper warpgroup MMA (wgmma.mma_async from shared memory; sm_90a only, same dtypes
          ///< and head dims as Mma)
};

/// One kernel shape.
struct CudaTileConfig {
  CudaKernelKind kind = CudaKernelKind::Simt;
  int block_m = 0;         ///< query rows per CTA
  int block_n = 0;         ///< keys per tile
  int warps = 0;           ///< warps per CTA (Wgmma: 4 per warpgroup, each group 64 rows)
  int stages = 1;          ///< cp.async pipeline depth (Mma, Wgmma)
  int rows_per_warp = 0;   ///< query rows per warp (SIMT)
  bool q_in_regs = false;  ///< Q fragments stay in registers (Mma, head dim <= 128)
  bool overlap = false;    ///< Wgmma: the next tile's Q K^T and softmax overlap the previous P V
                           ///< (FlashAttention-3's intra-warpgroup pipelining; fetches STAGES - 2 ahead)

  /// True for the kernels that run on tensor cores (and need 16-byte aligned rows).
  bool tensor_cores() const { return kind != CudaKernelKind::Simt; }
};

/// Largest dynamic shared memory per block on compute capability `sm` (80, 86, 89, 90, ...): the
/// opt-in limit less 2 KB of static shared memory for the one-grid parameter block.
int cuda_max_shared_bytes(int sm);

/// The dynamic shared memory a kernel of this shape needs (Wgmma: with 1 KB to align the tiles
/// to the 1024-byte boundary its 128-byte swizzle assumes).
int cuda_shared_bytes(const CudaTileConfig& c, DType dtype, int head_dim, int value_dim);

/// True when the tensor-core kernel supports this dtype and these head dims.
bool cuda_mma_supported(DType dtype, int head_dim, int value_dim);

/// The table's choice for compute capability `sm`.
CudaTileConfig choose_cuda_tiles(int sm, DType dtype, int head_dim, int value_dim);

/// The warpgroup (wgmma) kernel's shape on Hopper (sm 90, bf16/f16, head dims the tensor-core
/// kernel takes); nullopt elsewhere. The table's choice on sm_90 up to head dim 128 (measured
/// fastest there); at 256 the autotuner times it against the table's mma.sync shape.
std::optional<CudaTileConfig> cuda_wgmma_tiles(int sm, DType dtype, int head_dim, int value_dim);

/// Shapes worth timing on `sm`: the table's choice first, then the other rows per CTA, keys per
/// tile, pipeline depths (and Q in registers at head dim 64) whose shared memory fits, and on
/// sm_90 the warpgroup (wgmma) kernel's shapes. Whether one spills, whether it is right and
/// whether it is faster, the autotuner finds out on the device.
std::vector<CudaTileConfig> cuda_tile_candidates(int sm, DType dtype, int head_dim, int value_dim);

/// "mma 128x64 warps=8 stages=3", "wgmma 128x128 warpgroups=2 stages=2", "simt 32x32 warps=4",
/// for banners, reports, `--cuda-tiles` and the autotuner's cache.
std::string describe(const CudaTileConfig& c);

/// The inverse of `describe`; nullopt for text it did not write.
std::optional<CudaTileConfig> parse_cuda_tiles(const std::string& text);

bool operator==(const CudaTileConfig& a, const CudaTileConfig& b);

}  // namespace attn
