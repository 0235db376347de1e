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

/// The bf16 bits of FP8 byte x, exact: E4M3 (bias 7, 3 mantissa bits, no infinities:
/// S.1111.111 is NaN) or, with ATTN_FP8_E5M2, E5M2 (bias 15, 2 mantissa bits, IEEE infinities and
/// NaNs). A normal value moves its exponent and mantissa fields over as they are (rebiased); the
/// rare others (zeros and subnormals through an exact f32 product of normal numbers, so that no
/// flush to zero can touch them; infinities and NaNs) take a branch of their own.
ATTN_HD unsigned fp8_to_bf16_bits(unsigned x) {
  const unsigned sign = (x & 0x80u) << 8, em = x & 0x7fu;
#if ATTN_FP8_E5M2
  unsigned mag = (em << 5) + (112u << 7);  // bias 15 -> 127
  if (em < 4u || em >= 0x7cu)
    mag = em >= 0x7cu ? 0x7f80u | ((em & 3u) << 5)                                        // infinity, NaN
                      : __float_as_uint(static_cast<float>(em) * (1.f / 65536.f)) >> 16;  // m 2^-16
#else
  unsigned mag = (em << 4) + (120u << 7);  // bias 7 -> 127
  if (em < 8u || em == 0x7fu)
    mag =
        em == 0x7fu ? 0x7fc0u : __float_as_uint(static_cast<float>(em) * (1.f / 512.f)) >> 16;  // NaN; m 2^-9
#endif
  return sign | mag;
}

/// The value of FP8 byte x (exact).
ATTN_HD float fp8_to_f32(unsigned x) { return __int_as_float(static_cast<int>(fp8_to_bf16_bits(x) << 16)); }

/// An element of Q, K or V as f32 (the SIMT kernel's loads).
ATTN_HD float to_f32(attn_in x) { return fp8_to_f32(x); }

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
