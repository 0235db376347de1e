// The fixed device library (backends/cuda/device/*.cuh) and the parameter block header
// (runtime/include/attn/cuda_abi.h), embedded at build time as text.
#pragma once

#include <string>

namespace attn {

/// The text of `name` ("attn_common.cuh", "attn_expr.cuh", "attn_tiles.cuh", "attn_mma_layout.cuh",
/// "attn_wgmma_layout.cuh", "attn_split_merge.cuh", "attn_tc_common.cuh", "attn_mma_ops.cuh",
/// "attn_fwd_mma.cuh", "attn_fwd_wgmma.cuh", "attn_fwd_simt.cuh", "attn_bwd_expr.cuh",
/// "attn_bwd_rows.cuh", "attn_bwd_tiles.cuh", "attn_bwd_mma.cuh", "attn_fp8.cuh", "cuda_abi.h",
/// "cuda_backward_abi.h"); throws std::logic_error otherwise.
const std::string& cuda_device_text(const std::string& name);

}  // namespace attn
