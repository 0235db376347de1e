// The wgmma instructions of the Hopper kernel (backends/cuda/device/attn_fwd_wgmma.cuh) as
// device functions. Their operand lists grow with the tile (one f32 register per two
// accumulator elements), so they are printed per kernel rather than written out for every shape.
#pragma once

#include <string>

#include "codegen/KernelOptions.h"

namespace attn {

/// CUDA text defining attn_dev::wgmma_qk (S += Q K^T over 16 head dims: wgmma m64n{block_n}k16,
/// both operands from shared memory, K-major) and attn_dev::wgmma_pv (O += P V over 16 keys:
/// wgmma m64n{value_dim}k16, P from registers, V from shared memory read transposed). `dtype` is
/// BF16 or F16; block_n and value_dim are multiples of 8 up to 256.
std::string print_wgmma_instructions(DType dtype, int block_n, int value_dim);

}  // namespace attn
