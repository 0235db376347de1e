// ---- attnc device library: element types, hardware math, warp reductions ---------------------
// (Fixed text shared by every generated kernel; the kernel-specific parts come before it.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#if ATTN_DTYPE_BF16
typedef __nv_bfloat16 attn_elem;
typedef __nv_bfloat162 attn_elem2;
#elif ATTN_DTYPE_F16
typedef __half attn_elem;
typedef __half2 attn_elem2;
#else
typedef float attn_elem;
#endif
#ifndef ATTN_FP8
#define ATTN_FP8 0  // 1: Q, K and V are FP8 bytes (attn_fp8.cuh follows), computed as bf16
#endif
#if !ATTN_FP8
typedef attn_elem attn_in;  ///< Q, K and V in global memory
#endif

namespace attn_dev {

/// 2^x with the hardware approximation; 2^-inf is exactly 0.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ void from_f32(float x, float* out) { *out = x; }
__device__ __forceinline__ void from_f32(float x, __nv_bfloat16* out) { *out = __float2bfloat16_rn(x); }
__device__ __forceinline__ void from_f32(float x, __half* out) { *out = __float2half_rn(x); }

/// Reductions over the four threads of an MMA quad (lanes 4i..4i+3) and over a warp.
__device__ __forceinline__ float quad_max(float x) {
  x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
  return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ __forceinline__ float quad_sum(float x) {
  x += __shfl_xor_sync(0xffffffffu, x, 1);
  return x + __shfl_xor_sync(0xffffffffu, x, 2);
}
__device__ __forceinline__ float warp_max(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
  return x;
}
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

}  // namespace attn_dev
