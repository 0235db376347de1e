// The matrix paths' decoding products (fixed/MatrixExterns.h calls them when the wrapper staged Q,
// K and V as plain bf16 rows: every task of the call has at most kDecodeRows query rows). A tile's
// products are otherwise as wide as 16 query rows at least; with 1 to 8 rows they put the head
// dimension (Q·Kᵀ) or the value columns (P·V) on the vector lanes instead, so that the work follows
// the rows that hold queries and K and V are read in place, once: decoding is a stream of K and V.
// vdpbf16ps on both paths (every AMX CPU has AVX512-BF16).
namespace {

/// Four rows' dot products, 16 lanes each, summed to one 128-bit vector {row 0, 1, 2, 3}.
inline __m128 sum_four(__m512 a, __m512 b, __m512 c, __m512 d) {
  auto half = [](__m512 x) {
    // maskz: GCC 12 builds the plain extract (and the 256-bit cast) from an undefined vector, which -Wall reports.
    const __m256 y = _mm256_add_ps(_mm512_maskz_extractf32x8_ps(0xff, x, 0), _mm512_maskz_extractf32x8_ps(0xff, x, 1));
    return _mm_add_ps(_mm256_castps256_ps128(y), _mm256_extractf128_ps(y, 1));
  };
  return _mm_hadd_ps(_mm_hadd_ps(half(a), half(b)), _mm_hadd_ps(half(c), half(d)));
}

/// C[key * ldc + r] = sum over d of Q[r][d] K[key][d] for the `Rows` (4 or 8) rows of Q (bf16, D
/// each, rows D apart; zero past the rows that hold queries) and keys [0, keys) of K (bf16 rows
/// `ldk` apart, read in place); D a multiple of 32. Each key's row is loaded once for every row
/// of Q, which stays in L1.
template <int Rows>
void decode_scores(const uint16_t* Q, const uint16_t* K, int64_t ldk, int64_t keys, int64_t D, float* C, int64_t ldc) {
  for (int64_t key = 0; key < keys; ++key) {
    const uint16_t* k = K + key * ldk;
    __m512 acc[Rows];
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) acc[r] = _mm512_setzero_ps();
    for (int64_t d = 0; d < D; d += 32) {
      const __m512bh kv = (__m512bh)_mm512_loadu_si512(k + d);
#pragma GCC unroll 8
      for (int r = 0; r < Rows; ++r)
        acc[r] = _mm512_dpbf16_ps(acc[r], (__m512bh)_mm512_loadu_si512(Q + r * D + d), kv);
    }
#pragma GCC unroll 2
    for (int r = 0; r < Rows; r += 4)
      _mm_storeu_ps(C + key * ldc + r, sum_four(acc[r], acc[r + 1], acc[r + 2], acc[r + 3]));
  }
}

/// Where value column c is kept in decode_values' accumulators: the columns of each 32 as two
/// interleaved pairs of rows leave them (vpunpcklwd, vpunpckhwd work within 128-bit lanes).
inline int64_t decoded_column(int64_t c) { return c / 32 * 32 + c % 8 / 4 * 16 + c % 32 / 8 * 4 + c % 4; }

/// Acc[r][decoded_column(c)] (+)= sum over k of P[r][k] V[k][c] for the `Rows` (4 or 8) rows and
/// keys [0, keys): V bf16 rows `ldv` apart (Dv each, a multiple of 32, read in place), P bf16
/// pairs [keys / 2][kMatrixRows][2] (zero past `keys`), Acc f32 rows Dv apart. Two keys at a time:
/// their rows interleaved into pairs, each pair of P broadcast. Columns in blocks of 32 x Z, with
/// Rows x 2Z accumulators (16).
template <int Rows, int Z>
void decode_values_block(const uint16_t* V, int64_t ldv, int64_t keys, const uint16_t* P, float* acc_out, int64_t Dv,
                         bool accumulate) {
  __m512 acc[Rows][2 * Z];  // kept in registers: every loop over them unrolled, as -O2 does not
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < 2 * Z; ++v)
      acc[r][v] = accumulate ? _mm512_loadu_ps(acc_out + r * Dv + 16 * v) : _mm512_setzero_ps();
  for (int64_t key = 0; key < keys; key += 2) {
    __m512bh pairs[2 * Z];
#pragma GCC unroll 2
    for (int z = 0; z < Z; ++z) {
      const __m512i a = _mm512_loadu_si512(V + key * ldv + 32 * z);
      const __m512i b = key + 1 < keys ? _mm512_loadu_si512(V + (key + 1) * ldv + 32 * z) : _mm512_setzero_si512();
      pairs[2 * z] = (__m512bh)_mm512_unpacklo_epi16(a, b);
      pairs[2 * z + 1] = (__m512bh)_mm512_unpackhi_epi16(a, b);
    }
    const uint16_t* p = P + key * kMatrixRows;
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      int32_t pair;
      memcpy(&pair, p + 2 * r, 4);
      const __m512bh pr = (__m512bh)_mm512_set1_epi32(pair);
#pragma GCC unroll 4
      for (int v = 0; v < 2 * Z; ++v) acc[r][v] = _mm512_dpbf16_ps(acc[r][v], pr, pairs[v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < 2 * Z; ++v) _mm512_storeu_ps(acc_out + r * Dv + 16 * v, acc[r][v]);
}

template <int Rows>
void decode_values(const uint16_t* V, int64_t ldv, int64_t keys, const uint16_t* P, float* acc, int64_t Dv,
                   bool accumulate) {
  constexpr int Z = Rows == 4 ? 2 : 1;  // 32-column blocks per pass: Rows x 2Z accumulators
  int64_t c = 0;
  for (; c + 32 * Z <= Dv; c += 32 * Z) decode_values_block<Rows, Z>(V + c, ldv, keys, P, acc + c, Dv, accumulate);
  if (c < Dv) decode_values_block<Rows, 1>(V + c, ldv, keys, P, acc + c, Dv, accumulate);
}

}  // namespace
