// The matrix paths' decoding products (fixed/MatrixExterns.h calls them when the wrapper staged Q,
// K and V as plain bf16 rows: every task of the call has at most kDecodeRows query rows). A tile's
// products are otherwise as wide as 16 query rows at least; with 1 to 8 rows they put the head
// dimension (Q·Kᵀ) or the value columns (P·V) on the vector lanes instead, so that the work follows
// the rows that hold queries and K and V are read in place, once: decoding is a stream of K and V.
// vdpbf16ps on both paths (every AMX CPU has AVX512-BF16). An FP8 kernel's K and V rows are read
// in place too, each 32 elements converted to bf16 in registers (fixed/MatrixStaging.h's Fp8Lookup).
namespace {

/// An element of K and V as the decoding layout reads them: bf16, or an FP8 kernel's byte.
template <bool Fp8>
struct DecodeElementOf {
  using type = uint16_t;
};
template <>
struct DecodeElementOf<true> {
  using type = uint8_t;
};
using DecodeElement = DecodeElementOf<kFp8>::type;

/// Key or value rows where the decoding layout finds them, key-indexed: `stride` elements apart from
/// `base` (bf16 only), or (a paged cache, FP8 rows) at the addresses in `at`.
struct DecodeRows {
  const DecodeElement* base = nullptr;
  int64_t stride = 0;
  const DecodeElement* const* at = nullptr;
  const DecodeElement* row(int64_t key) const { return at ? at[key] : base + key * stride; }
  /// A plane's rows from its row `first` on (counted from the buffer's start): their addresses
  /// (`decoding` 2: a paged cache, FP8 rows), or bf16 rows `stride` elements apart.
  static DecodeRows of(const halide_buffer_t* plane, int64_t first, int64_t stride, int32_t decoding) {
    DecodeRows r;
    if (decoding == 2)
      r.at = reinterpret_cast<const DecodeElement* const*>(plane->host) + first;
    else
      r.base = reinterpret_cast<const DecodeElement*>(plane->host) + first * stride, r.stride = stride;
    return r;
  }
};

/// 32 elements of a K or V row as bf16 pairs' operand: loaded, or FP8 converted.
struct RowLoader {
  Fp8Lookup fp8;
  __m512bh operator()(const uint16_t* p) const { return (__m512bh)_mm512_loadu_si512(p); }
  __m512bh operator()(const uint8_t* p) const { return (__m512bh)fp8.convert(p); }
};

/// Sixteen dot products, 16 lanes each (v[4 j + q]: row j, key q), summed to one vector whose
/// 128-bit quarter q holds key q's four rows: halves, then quarters, then lanes folded pairwise.
/// (maskz shuffles and unpacks: GCC 12 builds the plain ones from an undefined vector, which -Wall
/// reports.)
inline __m512 sum_sixteen(const __m512* v) {
  __m512 w[8], x[4];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i)  // [v[2i] folded to 8 lanes, v[2i + 1] folded to 8 lanes]
    w[i] = _mm512_add_ps(_mm512_maskz_shuffle_f32x4(0xffff, v[2 * i], v[2 * i + 1], 0x44),
                         _mm512_maskz_shuffle_f32x4(0xffff, v[2 * i], v[2 * i + 1], 0xee));
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i)  // quarter q: v[4i + q] folded to 4 lanes
    x[i] = _mm512_add_ps(_mm512_maskz_shuffle_f32x4(0xffff, w[2 * i], w[2 * i + 1], 0x88),
                         _mm512_maskz_shuffle_f32x4(0xffff, w[2 * i], w[2 * i + 1], 0xdd));
  const __m512 t0 = _mm512_add_ps(_mm512_maskz_unpacklo_ps(0xffff, x[0], x[1]), _mm512_maskz_unpackhi_ps(0xffff, x[0], x[1]));
  const __m512 t1 = _mm512_add_ps(_mm512_maskz_unpacklo_ps(0xffff, x[2], x[3]), _mm512_maskz_unpackhi_ps(0xffff, x[2], x[3]));
  return _mm512_add_ps(_mm512_maskz_shuffle_ps(0xffff, t0, t1, 0x44), _mm512_maskz_shuffle_ps(0xffff, t0, t1, 0xee));
}

/// C[key * ldc + r] = sum over d of Q[r][d] K[key][d] for rows [r0, r0 + 4) of Q (bf16, D each,
/// rows D apart) and keys [0, keys) of K, four keys at a time (16 accumulators); D a multiple of
/// 32. Each key's row is loaded once for the four rows, each row of Q once for the four keys.
inline void decode_scores_rows(const uint16_t* Q, const DecodeRows& K, int64_t keys, int64_t D, float* C, int64_t ldc) {
  const RowLoader load;
  int64_t key = 0;
  for (; key + 4 <= keys; key += 4) {
    __m512 acc[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_setzero_ps();
    const DecodeElement* const rows[4] = {K.row(key), K.row(key + 1), K.row(key + 2), K.row(key + 3)};
    for (int64_t d = 0; d < D; d += 32) {
      __m512bh k[4];
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) k[q] = load(rows[q] + d);
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) {
        const __m512bh qj = (__m512bh)_mm512_loadu_si512(Q + j * D + d);
#pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) acc[4 * j + q] = _mm512_dpbf16_ps(acc[4 * j + q], qj, k[q]);
      }
    }
    const __m512 sums = sum_sixteen(acc);
    _mm_storeu_ps(C + key * ldc, _mm512_maskz_extractf32x4_ps(0xf, sums, 0));
    _mm_storeu_ps(C + (key + 1) * ldc, _mm512_maskz_extractf32x4_ps(0xf, sums, 1));
    _mm_storeu_ps(C + (key + 2) * ldc, _mm512_maskz_extractf32x4_ps(0xf, sums, 2));
    _mm_storeu_ps(C + (key + 3) * ldc, _mm512_maskz_extractf32x4_ps(0xf, sums, 3));
  }
  for (; key < keys; ++key) {  // the last keys one by one: the other three accumulators zero
    __m512 acc[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_setzero_ps();
    const DecodeElement* const row = K.row(key);
    for (int64_t d = 0; d < D; d += 32) {
      const __m512bh k = load(row + d);
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j)
        acc[4 * j] = _mm512_dpbf16_ps(acc[4 * j], (__m512bh)_mm512_loadu_si512(Q + j * D + d), k);
    }
    _mm_storeu_ps(C + key * ldc, _mm512_maskz_extractf32x4_ps(0xf, sum_sixteen(acc), 0));
  }
}

/// The scores of the `Rows` (4 or 8) rows of Q (zero past the rows that hold queries) against keys
/// [0, keys) of K (bf16 rows, read where they are): decode_scores_rows per four rows.
template <int Rows>
void decode_scores(const uint16_t* Q, const DecodeRows& K, int64_t keys, int64_t D, float* C, int64_t ldc) {
  for (int r = 0; r < Rows; r += 4) decode_scores_rows(Q + r * D, K, keys, D, C + r, ldc);
}

/// Where value column c is kept in decode_values' accumulators: the columns of each 32 as two
/// interleaved pairs of rows leave them (vpunpcklwd, vpunpckhwd work within 128-bit lanes).
inline int64_t decoded_column(int64_t c) { return c / 32 * 32 + c % 8 / 4 * 16 + c % 32 / 8 * 4 + c % 4; }

/// Acc[r][decoded_column(c)] (+)= sum over k of P[r][k] V[k][c] for the `Rows` (4 or 8) rows and
/// keys [0, keys): V's bf16 rows from column `col` (Dv each, a multiple of 32, read where they are), P bf16
/// pairs [keys / 2][kMatrixRows][2] (zero past `keys`), Acc f32 rows Dv apart. Two keys at a time:
/// their rows interleaved into pairs, each pair of P broadcast. Columns in blocks of 32 x Z, with
/// Rows x 2Z accumulators (16).
template <int Rows, int Z>
void decode_values_block(const DecodeRows& V, int64_t col, int64_t keys, const uint16_t* P, float* acc_out, int64_t Dv,
                         bool accumulate) {
  const RowLoader load;
  __m512 acc[Rows][2 * Z];  // kept in registers: every loop over them unrolled, as -O2 does not
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < 2 * Z; ++v)
      acc[r][v] = accumulate ? _mm512_loadu_ps(acc_out + r * Dv + 16 * v) : _mm512_setzero_ps();
  for (int64_t key = 0; key < keys; key += 2) {
    __m512bh pairs[2 * Z];
    const DecodeElement* const first = V.row(key) + col;
    const DecodeElement* const second = key + 1 < keys ? V.row(key + 1) + col : nullptr;
#pragma GCC unroll 2
    for (int z = 0; z < Z; ++z) {
      const __m512i a = (__m512i)load(first + 32 * z);
      const __m512i b = second ? (__m512i)load(second + 32 * z) : _mm512_setzero_si512();
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
void decode_values(const DecodeRows& V, int64_t keys, const uint16_t* P, float* acc, int64_t Dv, bool accumulate) {
  constexpr int Z = Rows == 4 ? 2 : 1;  // 32-column blocks per pass: Rows x 2Z accumulators
  int64_t c = 0;
  for (; c + 32 * Z <= Dv; c += 32 * Z) decode_values_block<Rows, Z>(V, c, keys, P, acc + c, Dv, accumulate);
  if (c < Dv) decode_values_block<Rows, 1>(V, c, keys, P, acc + c, Dv, accumulate);
}

}  // namespace
