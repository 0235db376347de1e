// The avx512bf16 path's products (fixed/MatrixExterns.h calls them): vdpbf16ps, each lane the dot
// product of a pair of bf16 with f32 accumulation. Compiled for avx512bf16 by the path's target region.
namespace {

constexpr int kMatrixRows = 64;  // query rows of a tile (the pipeline's tile_q): B's and C's columns, two halves of 32

/// Nothing to set up: the products use ordinary vector registers.
struct MatrixUnit {};

/// C[m][0, 64) (+)= sum over k of A[m][k] B[k][0, 64), m < M (a multiple of 16), k < K (a multiple of
/// 32): A bf16, a k-step of 32 of its rows `lda` elements apart and the next k-step `a_step`
/// elements on (32 for plain rows), B pairs-interleaved [K / 2][64][2], C f32 rows `ldc` floats
/// apart; `accumulate` adds to C, else overwrites it. Eight rows by 32 columns at a time: 16
/// accumulators, each B pair-row loaded once for the eight broadcast A pairs.
void matrix_product(const uint16_t* A, int64_t lda, int64_t a_step, const uint16_t* B, int64_t K, float* C,
                    int64_t ldc, int64_t M, bool accumulate) {
  for (int64_t m = 0; m < M; m += 8)
    for (int half = 0; half < 2; ++half) {
      float* c = C + m * ldc + 32 * half;
      __m512 acc[8][2];
      for (int r = 0; r < 8; ++r)
        for (int h = 0; h < 2; ++h)
          acc[r][h] = accumulate ? _mm512_loadu_ps(c + r * ldc + 16 * h) : _mm512_setzero_ps();
      for (int64_t k = 0; k < K; k += 2) {
        const uint16_t* b = B + k * kMatrixRows + 64 * half;
        const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b), b1 = (__m512bh)_mm512_loadu_si512(b + 32);
        for (int r = 0; r < 8; ++r) {
          int32_t pair;
          memcpy(&pair, A + (m + r) * lda + k / 32 * a_step + k % 32, 4);
          const __m512bh a = (__m512bh)_mm512_set1_epi32(pair);
          acc[r][0] = _mm512_dpbf16_ps(acc[r][0], a, b0);
          acc[r][1] = _mm512_dpbf16_ps(acc[r][1], a, b1);
        }
      }
      for (int r = 0; r < 8; ++r)
        for (int h = 0; h < 2; ++h) _mm512_storeu_ps(c + r * ldc + 16 * h, acc[r][h]);
    }
}

}  // namespace
