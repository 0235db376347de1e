// ---- attnc device library: FP8 inputs (dtype e4m3 or e5m2) -------------------------------------
// Pure arithmetic, also compiled on the host by tests/cuda/test_fp8_loads.cpp, which checks every
// byte against the reference's conversion. An FP8 kernel's Q, K and V are OCP FP8 bytes in global
// memory (attn_in); the tensor-core kernels convert each 8-byte chunk in registers and store it to
// shared memory as bf16, in which every FP8 value is exact, and compute as the bf16 kernel does,
// the descale factors applied to the scores and the output (docs/cuda.md, "FP8 inputs").
#ifndef ATTN_HD
#define ATTN_HD __device__ __forceinline__
#endif
#ifndef ATTN_FP8_E5M2
#define ATTN_FP8_E5M2 0  // 1: E5M2 bytes, else E4M3
#endif

typedef unsigned char attn_in;  ///< Q, K and V in global memory: one FP8 byte each

namespace attn_dev {

/// The value of FP8 byte x: E4M3 (bias 7, 3 mantissa bits, no infinities: S.1111.111 is NaN) or,
/// with ATTN_FP8_E5M2, E5M2 (bias 15, 2 mantissa bits, IEEE infinities and NaNs). Exact.
ATTN_HD float fp8_to_f32(unsigned x) {
  const unsigned sign = (x & 0x80u) << 24;
#if ATTN_FP8_E5M2
  const unsigned e = (x >> 2) & 0x1fu, m = x & 3u;
  if (e == 31) return __int_as_float(static_cast<int>(sign | 0x7f800000u | (m << 21)));  // inf, NaN
  if (e == 0) return (sign ? -1.f : 1.f) * static_cast<float>(m) * (1.f / 65536.f);      // m 2^-16
  return __int_as_float(static_cast<int>(sign | ((e + 112u) << 23) | (m << 21)));
#else
  const unsigned e = (x >> 3) & 0xfu, m = x & 7u;
  if (e == 15 && m == 7) return __int_as_float(0x7fc00000);
  if (e == 0) return (sign ? -1.f : 1.f) * static_cast<float>(m) * (1.f / 512.f);  // m 2^-9
  return __int_as_float(static_cast<int>(sign | ((e + 120u) << 23) | (m << 20)));
#endif
}

/// An element of Q, K or V as f32 (the SIMT kernel's loads).
ATTN_HD float to_f32(attn_in x) { return fp8_to_f32(x); }

/// The bf16 bits of FP8 byte x (exact: the low half of its f32 bits is zero).
ATTN_HD unsigned fp8_to_bf16_bits(unsigned x) { return __float_as_uint(fp8_to_f32(x)) >> 16; }

/// Eight FP8 bytes (`lo` holds bytes 0-3, lowest first) as four bf16 pairs, element 2i in the low
/// half of out[i]: one 16-byte chunk of a bf16 tile row.
ATTN_HD void fp8x8_to_bf16(unsigned lo, unsigned hi, unsigned (&out)[4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const unsigned word = i < 2 ? lo : hi, shift = 16 * (i % 2);
    out[i] =
        fp8_to_bf16_bits((word >> shift) & 0xffu) | (fp8_to_bf16_bits((word >> (shift + 8)) & 0xffu) << 16);
  }
}

}  // namespace attn_dev
