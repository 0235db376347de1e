// The avx512bf16 path's products (fixed/MatrixExterns.h calls them): vdpbf16ps, each lane the dot
// product of a pair of bf16 with f32 accumulation. Compiled for avx512bf16 by the path's target region.
namespace {

constexpr int kMatrixRows = 64;  // query rows of a tile (the pipeline's tile_q): B's and C's columns, two halves of 32

/// Nothing to set up: the products use ordinary vector registers.
struct MatrixUnit {};

/// `Rows` rows of A by `Vectors` x 16 columns of B at a time (8 x 2 or 16 x 1: 16 accumulators),
/// each B pair-row loaded once for the broadcast A pairs; C's block loaded or zeroed, stored after.
template <int Rows, int Vectors>
void product_block(const uint16_t* A, int64_t lda, int64_t a_step, const uint16_t* B, int64_t K, float* c,
                   int64_t ldc, bool accumulate) {
  __m512 acc[Rows][Vectors];
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Vectors; ++v)
      acc[r][v] = accumulate ? _mm512_loadu_ps(c + r * ldc + 16 * v) : _mm512_setzero_ps();
  for (int64_t k = 0; k < K; k += 2) {
    __m512bh b[Vectors];
    for (int v = 0; v < Vectors; ++v) b[v] = (__m512bh)_mm512_loadu_si512(B + k * kMatrixRows + 32 * v);
    for (int r = 0; r < Rows; ++r) {
      int32_t pair;
      memcpy(&pair, A + r * lda + k / 32 * a_step + k % 32, 4);
      const __m512bh a = (__m512bh)_mm512_set1_epi32(pair);
      for (int v = 0; v < Vectors; ++v) acc[r][v] = _mm512_dpbf16_ps(acc[r][v], a, b[v]);
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Vectors; ++v) _mm512_storeu_ps(c + r * ldc + 16 * v, acc[r][v]);
}

/// C[m][0, N) (+)= sum over k of A[m][k] B[k][0, N), m < M (a multiple of 16), k < K (a multiple of
/// 32), N (a multiple of 16, at most 64) the tile's rows that hold queries: A bf16, a k-step of 32
/// of its rows `lda` elements apart and the next k-step `a_step` elements on (32 for plain rows), B
/// pairs-interleaved [K / 2][64][2], C f32 rows `ldc` floats apart; `accumulate` adds to C, else
/// overwrites it. Per 16 rows of A, C's columns in blocks of 32 (8 rows at a time) and a last 16
/// (16 rows at a time): every block after the first finds A's rows in L1.
void matrix_product(const uint16_t* A, int64_t lda, int64_t a_step, const uint16_t* B, int64_t K, float* C,
                    int64_t ldc, int64_t M, int64_t N, bool accumulate) {
  for (int64_t m = 0; m < M; m += 16) {
    int64_t n = 0;
    for (; n + 32 <= N; n += 32)
      for (int64_t half = 0; half < 16; half += 8)
        product_block<8, 2>(A + (m + half) * lda, lda, a_step, B + 2 * n, K, C + (m + half) * ldc + n, ldc,
                            accumulate);
    if (n < N) product_block<16, 1>(A + m * lda, lda, a_step, B + 2 * n, K, C + m * ldc + n, ldc, accumulate);
  }
}

}  // namespace
