// ---- attnc device library: what printed expressions call (math, bounds-checked loads) -------
// Also compiled on the host by tests/cuda/test_cuda.cpp, which checks printed masks and scores
// against the reference evaluator.
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif

namespace attn_dev {

/// +infinity without <math.h> (absent under NVRTC).
ATTN_HD float inf() { return __int_as_float(0x7f800000); }
ATTN_HD float nan() { return __int_as_float(0x7fc00000); }

/// Integer division and modulo as in the IR (Euclidean; x / 0 == 0 and x % 0 == 0).
ATTN_HD int div_i32(int a, int b) {
  if (b == 0) return 0;
  int q = a / b, r = a % b;
  if (r < 0) q += b > 0 ? -1 : 1;
  return q;
}
ATTN_HD int mod_i32(int a, int b) {
  if (b == 0) return 0;
  int r = a % b;
  if (r < 0) r += b > 0 ? b : -b;
  return r;
}
ATTN_HD float mod_f32(float a, float b) { return a - b * floorf(a / b); }

/// Records the first out-of-range access of the launch in the device error word.
ATTN_HD void report_out_of_range(const attn_cuda_params& p, int buf, int dim, long long index) {
  if (p.error && atomicCAS(&p.error->flag, 0, 1) == 0) {
    p.error->buffer = buf;
    p.error->dim = dim;
    p.error->index = index;
  }
}

/// Element `idx` of tensor argument `buf`, or 0 (and an error report) when an index is out of
/// range: a kernel never reads outside a buffer.
template <typename T, int N>
ATTN_HD T load(const attn_cuda_params& p, int buf, const long long (&idx)[N]) {
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
ATTN_HD T load1(const attn_cuda_params& p, int buf, long long i0) {
  const long long idx[1] = {i0};
  return load<T, 1>(p, buf, idx);
}
template <typename T>
ATTN_HD T load2(const attn_cuda_params& p, int buf, long long i0, long long i1) {
  const long long idx[2] = {i0, i1};
  return load<T, 2>(p, buf, idx);
}
template <typename T>
ATTN_HD T load3(const attn_cuda_params& p, int buf, long long i0, long long i1, long long i2) {
  const long long idx[3] = {i0, i1, i2};
  return load<T, 3>(p, buf, idx);
}
template <typename T>
ATTN_HD T load4(const attn_cuda_params& p, int buf, long long i0, long long i1, long long i2,
                                   long long i3) {
  const long long idx[4] = {i0, i1, i2, i3};
  return load<T, 4>(p, buf, idx);
}

}  // namespace attn_dev
