// The avx512bf16 path's products (fixed/MatrixExterns.h calls them): vdpbf16ps, each lane the dot
// product of a pair of bf16 with f32 accumulation. Compiled for avx512bf16 by the path's target region.
namespace {

/// Nothing to set up: the products use ordinary vector registers.
struct MatrixUnit {};

/// C[m][0, 32) (+)= sum over k of A[m][k] B[k][0, 32), m < M (a multiple of 16), k < K (a multiple of
/// 32): A bf16, a k-step of 32 of its rows `lda` elements apart and the next k-step `a_step`
/// elements on (32 for plain rows), B pairs-interleaved [K / 2][32][2], C f32 rows `ldc` floats
/// apart; `accumulate` adds to C, else overwrites it. Eight rows at a time: 16 accumulators, each B
/// pair-row loaded once for the eight broadcast A pairs.
void matrix_product(const uint16_t* A, int64_t lda, int64_t a_step, const uint16_t* B, int64_t K, float* C,
                    int64_t ldc, int64_t M, bool accumulate) {
  for (int64_t m = 0; m < M; m += 8) {
    __m512 acc[8][2];
    for (int r = 0; r < 8; ++r)
      for (int h = 0; h < 2; ++h)
        acc[r][h] = accumulate ? _mm512_loadu_ps(C + (m + r) * ldc + 16 * h) : _mm512_setzero_ps();
    for (int64_t k = 0; k < K; k += 2) {
      const __m512bh b0 = (__m512bh)_mm512_loadu_si512(B + k * 32), b1 = (__m512bh)_mm512_loadu_si512(B + k * 32 + 32);
      for (int r = 0; r < 8; ++r) {
        int32_t pair;
        memcpy(&pair, A + (m + r) * lda + k / 32 * a_step + k % 32, 4);
        const __m512bh a = (__m512bh)_mm512_set1_epi32(pair);
        acc[r][0] = _mm512_dpbf16_ps(acc[r][0], a, b0);
        acc[r][1] = _mm512_dpbf16_ps(acc[r][1], a, b1);
      }
    }
    for (int r = 0; r < 8; ++r)
      for (int h = 0; h < 2; ++h) _mm512_storeu_ps(C + (m + r) * ldc + 16 * h, acc[r][h]);
  }
}

}  // namespace
