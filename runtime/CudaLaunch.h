// What a launcher needs to know about a generated CUDA kernel besides its cubin: the entry
// point, the launch shape and the tensor layout it expects.
#pragma once

#include <string>
#include <vector>

#include "runtime/HostTensor.h"

namespace attn {

/// Written by the CUDA printer next to the source; read by CudaLauncher (and by generated host
/// code, as macros in the header).
struct CudaLaunchInfo {
  std::string entry;                      ///< the extern "C" __global__ function
  int threads = 0;                        ///< block size
  int block_m = 0;                        ///< query rows per CTA: grid.x = ceil(Lq / block_m)
  int smem_bytes = 0;                     ///< dynamic shared memory per CTA
  int head_dim = 0;                       ///< D the kernel was specialized for
  int value_dim = 0;                      ///< Dv
  ScalarType dtype = ScalarType::F32;     ///< Q/K/V element type; Out's is cuda_out_type(dtype)
  double scale = 0;                       ///< the softmax scale (a kernel option, fixed at compile time)
  int block_n = 0;                        ///< keys per tile
  std::vector<std::string> buffer_names;  ///< tensor arguments in order, for error messages
  std::vector<std::string> scalar_names;  ///< scalar arguments in order
  std::string tile_plan;        ///< the run-time planner's program (masks that read buffers), or empty
  bool needs_16b_rows = false;  ///< rows (and bases) of Q/K/V must be 16-byte aligned (cp.async)
  bool pack_heads = false;      ///< decoding may pack a group's query heads into a tile (p.pack_heads)
  /// Built with kCudaOneGridFlag (ATTN_VARLEN 1): every call runs as one grid over its planned
  /// launches (attn_cuda_params::work; runtime/CudaLaunchPlan.h). Set by the loader from the
  /// request's flags, not written with the rest.
  bool one_grid = false;
};

/// The NVRTC flag that builds a kernel to run a planned call's launches as one grid (ATTN_VARLEN).
inline constexpr const char* kCudaOneGridFlag = "-DATTN_VARLEN=1";

/// `info` as one line of JSON: what the printer hands the loader (KernelRequest::info) and
/// `attnc compile` writes into manifest.json ("cuda_launch").
std::string write_cuda_launch_info(const CudaLaunchInfo& info);

/// The inverse of write_cuda_launch_info; throws std::invalid_argument for text it did not write.
CudaLaunchInfo read_cuda_launch_info(const std::string& json);

/// For a .cu given without its description (checked-in sources loaded through the C API): the
/// launch shape its configuration macros declare for nvcc; throws std::invalid_argument when the
/// source does not carry them.
CudaLaunchInfo parse_cuda_launch_info(const std::string& source);

/// The element type of a kernel's Out given that of its Q, K and V: bf16 for FP8 inputs, else the same.
inline ScalarType cuda_out_type(ScalarType in) {
  return in == ScalarType::F8E4M3 || in == ScalarType::F8E5M2 ? ScalarType::BF16 : in;
}

/// How to launch a generated backward's four entry points (the order of attn/cuda_backward_abi.h).
/// Written by the backward's printer; read by launch_cuda_backward_module.
struct CudaBackwardInfo {
  std::string pre, dkdv, dq, grad;  ///< entry points (attn_bwd_{pre,dkdv,dq,grad}_<kernel>)
  int threads = 0;                  ///< block size of dkdv and dq
  int block_m = 0, block_n = 0;     ///< queries per dq CTA, keys per dkdv CTA (and the plan's tiles)
  int dkdv_smem = 0, dq_smem = 0;   ///< dynamic shared memory, bytes
  int head_dim = 0, value_dim = 0;
  ScalarType dtype = ScalarType::BF16;    ///< Q/K/V/Out/dOut/dQ/dK/dV element type (bf16 or f16)
  double scale = 0;                       ///< the softmax scale
  std::vector<std::string> site_buffers;  ///< the buffer each read site reads: the score's, then the sink's
  /// The kernel has a sink (option `sink`): rows of a sequence without keys still reach attn_bwd_dq,
  /// whose sink gradient they give.
  bool sink = false;
};

/// `info` as one line of JSON: `attnc compile` writes it into manifest.json
/// ("cuda_backward_launch").
std::string write_cuda_backward_info(const CudaBackwardInfo& info);

/// The inverse of write_cuda_backward_info; throws std::invalid_argument for text it did not write.
CudaBackwardInfo read_cuda_backward_info(const std::string& json);

/// For a NAME_backward.cu given without its description (a folder from an older attnc): what its
/// macros (ATTN_BWD_*, ATTN_D, ATTN_DV, ATTN_WARPS, ATTN_SCALE, ATTN_DTYPE_*) declare; throws
/// std::invalid_argument when the source does not carry them.
CudaBackwardInfo parse_cuda_backward_info(const std::string& source);

}  // namespace attn
