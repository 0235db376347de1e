// The amx path's products (fixed/MatrixExterns.h calls them): bf16 tiles, f32 accumulation
// (tdpbf16ps). Compiled for amx-tile and amx-bf16 by the path's target region.
namespace {

constexpr int kMatrixRows = 64;  // query rows of a tile (the pipeline's tile_q): B's and C's columns, two halves of 32

/// AMX's tile configuration, palette 1 (Intel SDM, LDTILECFG): tiles 0-3 accumulate a 32 x 32
/// block of C, 4-5 hold A's two 16-row halves and 6-7 B's two 16-column halves, all of one k-step
/// (32 bf16 = 64 bytes a row). The tile numbers are immediates: product_block's are constants.
struct alignas(64) TileConfig {
  uint8_t palette = 1, start_row = 0, reserved[14] = {};
  uint16_t colsb[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

/// This thread's tiles, configured for a call's products and released after it (the OS then
/// need not save them at a context switch).
struct MatrixUnit {
  MatrixUnit() {
    static const TileConfig config;
    _tile_loadconfig(&config);
  }
  ~MatrixUnit() { _tile_release(); }
  MatrixUnit(const MatrixUnit&) = delete;
  MatrixUnit& operator=(const MatrixUnit&) = delete;
};

/// One block of `Rows` (32 or 16) rows of A against `Cols` (32 or 16) columns of B: C's 2 x 2 (or
/// fewer) tiles loaded from `c` or zeroed, the k-steps, and the tiles stored back.
template <int Rows, int Cols>
void product_block(const uint16_t* a, int64_t lda, int64_t a_step, const uint16_t* b, int64_t K, float* c,
                   int64_t ldc, bool accumulate) {
  const int64_t a_bytes = lda * 2, c_bytes = ldc * 4, b_bytes = 4 * kMatrixRows;
  constexpr bool two_rows = Rows == 32, two_cols = Cols == 32;
  if (accumulate) {
    _tile_loadd(0, c, c_bytes);
    if (two_cols) _tile_loadd(1, c + 16, c_bytes);
    if (two_rows) _tile_loadd(2, c + 16 * ldc, c_bytes);
    if (two_rows && two_cols) _tile_loadd(3, c + 16 * ldc + 16, c_bytes);
  } else {
    _tile_zero(0);
    if (two_cols) _tile_zero(1);
    if (two_rows) _tile_zero(2);
    if (two_rows && two_cols) _tile_zero(3);
  }
  // Each load just before the first product that reads it: tiles have no renaming, so a load
  // waits for the previous k-step's products that read the tile, and loading all four first made
  // every product of a step wait for the last load (+4-7% on this loop alone, single thread, SPR).
  for (int64_t k = 0; k < K; k += 32) {
    const uint16_t* step = a + k / 32 * a_step;
    _tile_loadd(4, step, a_bytes);
    _tile_loadd(6, b + k * kMatrixRows, b_bytes);
    _tile_dpbf16ps(0, 4, 6);
    if (two_cols) {
      _tile_loadd(7, b + k * kMatrixRows + 32, b_bytes);
      _tile_dpbf16ps(1, 4, 7);
    }
    if (two_rows) {
      _tile_loadd(5, step + 16 * lda, a_bytes);
      _tile_dpbf16ps(2, 5, 6);
      if (two_cols) _tile_dpbf16ps(3, 5, 7);
    }
  }
  _tile_stored(0, c, c_bytes);
  if (two_cols) _tile_stored(1, c + 16, c_bytes);
  if (two_rows) _tile_stored(2, c + 16 * ldc, c_bytes);
  if (two_rows && two_cols) _tile_stored(3, c + 16 * ldc + 16, c_bytes);
}

/// The blocks of `Rows` rows of A at `a` against C's first N columns (a multiple of 16): 32 at a
/// time, then a last 16. The second block finds A's rows in L1.
template <int Rows>
void product_row_block(const uint16_t* a, int64_t lda, int64_t a_step, const uint16_t* B, int64_t K, float* c,
                       int64_t ldc, int64_t N, bool accumulate) {
  int64_t n = 0;
  for (; n + 32 <= N; n += 32) product_block<Rows, 32>(a, lda, a_step, B + 2 * n, K, c + n, ldc, accumulate);
  if (n < N) product_block<Rows, 16>(a, lda, a_step, B + 2 * n, K, c + n, ldc, accumulate);
}

/// C[m][0, N) (+)= sum over k of A[m][k] B[k][0, N), m < M (a multiple of 16), k < K (a multiple of
/// 32), N (a multiple of 16, at most 64) the tile's rows that hold queries: A bf16, a k-step of 32
/// of its rows `lda` elements apart and the next k-step `a_step` elements on (32 for plain rows), B
/// pairs-interleaved [K / 2][64][2] (the VNNI layout), C f32 rows `ldc` floats apart; `accumulate`
/// adds to C, else overwrites it.
void matrix_product(const uint16_t* A, int64_t lda, int64_t a_step, const uint16_t* B, int64_t K, float* C,
                    int64_t ldc, int64_t M, int64_t N, bool accumulate) {
  int64_t m = 0;
  for (; m + 32 <= M; m += 32) product_row_block<32>(A + m * lda, lda, a_step, B, K, C + m * ldc, ldc, N, accumulate);
  if (m < M) product_row_block<16>(A + m * lda, lda, a_step, B, K, C + m * ldc, ldc, N, accumulate);
}

}  // namespace
