// The CUDA backend: a kernel's IR -> one self-contained CUDA C++ translation unit (for NVRTC or
// nvcc) and a C header. Light header (no Halide.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/cuda/CudaTiles.h"
#include "runtime/CudaLaunch.h"

namespace attn {

struct KernelIR;

/// The head dim of kernels that leave it open and whose options name none (the cuda backend's
/// default_head_dim).
inline constexpr int kCudaDefaultHeadDim = 128;

/// What to specialize the kernel for.
struct CudaPrintOptions {
  int sm = 80;                          ///< compute capability the tile table targets (80, 86, 89, 90, ...)
  int head_dim = 0;                     ///< D when the kernel leaves it open (0: kCudaDefaultHeadDim)
  int value_dim = 0;                    ///< Dv when the kernel leaves it open (0: head_dim)
  std::optional<CudaTileConfig> tiles;  ///< the autotuner's choice; unset: the table's
  bool prefer_wgmma = false;            ///< unset tiles: Hopper's warpgroup kernel where it applies
  std::string source_name;              ///< the .attn file as named in banners (no absolute paths)
  std::string source_hash;              ///< the kernel's content hash, for the banner
};

/// One generated kernel.
struct CudaKernelSource {
  std::string cu;      ///< the translation unit: kernel, device functions, host launcher (nvcc only)
  std::string header;  ///< C declarations: parameter block, launch macros, launcher
  CudaTileConfig tiles;
  CudaLaunchInfo launch;
};

/// Prints `ir` as CUDA. Throws std::invalid_argument when the kernel cannot be expressed (more
/// arguments than the parameter block holds, an unsupported head dimension).
CudaKernelSource print_cuda_kernel(const KernelIR& ir, const CudaPrintOptions& options);

/// The score's and the sink's derivatives (codegen/ScoreGradient) as CUDA device functions:
/// attn_score_grad (d score'/d score), per read site of an f32 buffer in the score
/// attn_site_partial (d score'/d element) and attn_site_offset (the element's row-major position,
/// -1 when out of range), and per read site in the sink attn_sink_site_partial and
/// attn_sink_site_offset. They call attn_bwd_expr.cuh. For the backward kernels and tests.
struct CudaGradientFunctions {
  std::string text;
  /// The buffer each read site reads: the score's sites, then the sink's.
  std::vector<std::string> site_buffers;
  size_t score_sites = 0;  ///< how many of them are the score's
};

/// Throws KernelLimitError past ATTN_CUDA_MAX_SITES read sites.
CudaGradientFunctions print_cuda_gradient_functions(const KernelIR& ir);

/// The mask and score as CUDA device functions only, with the tile plan's conditions and key-tile
/// runs for `block_m` x `block_n` tiles (64 x 64: the backward's; others for tests). `tile_plan`,
/// when given, receives the run-time planner's program (runtime/TilePlanText.h) for masks that read
/// buffers, and is left empty for the others.
std::string print_cuda_device_functions(const KernelIR& ir, std::string* tile_plan = nullptr,
                                        int block_m = 64, int block_n = 64);

}  // namespace attn
