// ---- attnc device library: element types, math helpers, bounds-checked buffer loads ----------
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

namespace attn_dev {

/// +infinity without <math.h> (absent under NVRTC).
__device__ __forceinline__ float inf() { return __int_as_float(0x7f800000); }
__device__ __forceinline__ float nan() { return __int_as_float(0x7fc00000); }

/// 2^x with the hardware approximation; 2^-inf is exactly 0.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/// Integer division and modulo as in the IR (Euclidean; x / 0 == 0 and x % 0 == 0).
__device__ __forceinline__ int div_i32(int a, int b) {
  if (b == 0) return 0;
  int q = a / b, r = a % b;
  if (r < 0) q += b > 0 ? -1 : 1;
  return q;
}
__device__ __forceinline__ int mod_i32(int a, int b) {
  if (b == 0) return 0;
  int r = a % b;
  if (r < 0) r += b > 0 ? b : -b;
  return r;
}
__device__ __forceinline__ float mod_f32(float a, float b) { return a - b * floorf(a / b); }

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ void from_f32(float x, float* out) { *out = x; }
__device__ __forceinline__ void from_f32(float x, __nv_bfloat16* out) { *out = __float2bfloat16_rn(x); }
__device__ __forceinline__ void from_f32(float x, __half* out) { *out = __float2half_rn(x); }

/// Records the first out-of-range access of the launch in the device error word.
__device__ __forceinline__ void report_out_of_range(const attn_cuda_params& p, int buf, int dim, long long index) {
  if (p.error && atomicCAS(&p.error->flag, 0, 1) == 0) {
    p.error->buffer = buf;
    p.error->dim = dim;
    p.error->index = index;
  }
}

/// Element `idx` of tensor argument `buf`, or 0 (and an error report) when an index is out of
/// range: a kernel never reads outside a buffer.
template <typename T, int N>
__device__ __forceinline__ T load(const attn_cuda_params& p, int buf, const long long (&idx)[N]) {
  const attn_cuda_buffer& t = p.buffers[buf];
  long long offset = 0;
#pragma unroll
  for (int d = 0; d < N; ++d) {
    if (idx[d] < 0 || idx[d] >= t.shape[d]) {
      report_out_of_range(p, buf, d, idx[d]);
      return T(0);
    }
    offset += idx[d] * t.stride[d];
  }
  return static_cast<const T*>(t.data)[offset];
}
template <typename T>
__device__ __forceinline__ T load1(const attn_cuda_params& p, int buf, long long i0) {
  const long long idx[1] = {i0};
  return load<T, 1>(p, buf, idx);
}
template <typename T>
__device__ __forceinline__ T load2(const attn_cuda_params& p, int buf, long long i0, long long i1) {
  const long long idx[2] = {i0, i1};
  return load<T, 2>(p, buf, idx);
}
template <typename T>
__device__ __forceinline__ T load3(const attn_cuda_params& p, int buf, long long i0, long long i1, long long i2) {
  const long long idx[3] = {i0, i1, i2};
  return load<T, 3>(p, buf, idx);
}
template <typename T>
__device__ __forceinline__ T load4(const attn_cuda_params& p, int buf, long long i0, long long i1, long long i2,
                                   long long i3) {
  const long long idx[4] = {i0, i1, i2, i3};
  return load<T, 4>(p, buf, idx);
}

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
