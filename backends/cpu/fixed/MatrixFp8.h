// FP8 to bf16 for the matrix paths: the exact table, and the AVX-512BW lookup that converts 32
// elements in registers, for the staging (fixed/MatrixStaging.h) and for the decoding layout's
// products reading FP8 rows in place (fixed/MatrixDecode.h).
namespace {

/// Every FP8 value's bf16 bits (exact: bf16 has FP8's exponents and more mantissa).
struct Fp8Bf16 {
  uint16_t bits[256];
  Fp8Bf16() {
    const Fp8Values fp8;
    for (int i = 0; i < 256; ++i) bits[i] = float_to_bf16(fp8.value[i]);
  }
  /// The table, built once per source.
  static const Fp8Bf16& get() {
    static const Fp8Bf16 table;
    return table;
  }
};

/// FP8 elements as bf16, 32 at a time in registers (the staging, and the decoding layout's products
/// reading FP8 rows in place): two vpermt2w look up the low six bits in the table's first 64 and
/// next 64 entries, bit 6 picks one, and the sign moves to bit 15 (the table's upper half is its
/// lower half signed). The table is loaded once per object; a bf16 kernel's is zero (unused).
struct Fp8Lookup {
  __m512i t0, t1, t2, t3;
  Fp8Lookup() {
    t0 = t1 = t2 = t3 = _mm512_setzero_si512();
    if (!kFp8) return;
    const Fp8Bf16& fp8 = Fp8Bf16::get();
    t0 = _mm512_loadu_si512(fp8.bits), t1 = _mm512_loadu_si512(fp8.bits + 32);
    t2 = _mm512_loadu_si512(fp8.bits + 64), t3 = _mm512_loadu_si512(fp8.bits + 96);
  }
  __m512i convert(const uint8_t* src) const {
    const __m512i x = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src)));
    const __mmask32 upper = _mm512_test_epi16_mask(x, _mm512_set1_epi16(0x40));
    const __m512i bits = _mm512_mask_blend_epi16(upper, _mm512_permutex2var_epi16(t0, x, t1),
                                                 _mm512_permutex2var_epi16(t2, x, t3));
    return _mm512_or_si512(bits, _mm512_slli_epi16(_mm512_and_si512(x, _mm512_set1_epi16(0x80)), 8));
  }
};

}  // namespace
