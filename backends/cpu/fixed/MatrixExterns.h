// The matrix paths' extern stages (backends/cpu/AttentionAlgorithm.cpp, define_matrix_scores and
// define_matrix_softmax_pv): Q·Kᵀ, and the softmax with P·V, on matrix_product (fixed/MatrixAmx.h or
// fixed/MatrixDpbf16.h). Halide calls each once per chunk of keys; first, to size their inputs, with
// a bounds query (an output with no memory).
namespace {

constexpr int64_t kKeyStep = 32;    // keys of one k-step of P·V and of one block of Q·Kᵀ
constexpr int64_t kPvKeyBlock = 256;  // keys of P·V's blocks (their P in L1)

/// A thread's scratch for the stages' tails (blocks of fewer than 32 keys) and P.
struct MatrixScratch {
  std::vector<uint16_t> a, p;
  std::vector<float> c;
};
thread_local MatrixScratch matrix_scratch;

/// The factor of a tile's scores that fixed/MatrixStaging.h's stage_query_tile keeps in the f32
/// after Q's elements: FP8 kernels' q_descale x k_descale, else 1.
float scores_factor(const halide_buffer_t* q) {
  float f;
  memcpy(&f, q->host + 2 * int64_t(q->dim[0].extent) * q->dim[1].extent, 4);
  return f;
}

/// The columns of the products that hold queries: the tile's first `rows` rows, in blocks of 16.
int64_t live_columns(int32_t rows) {
  const int64_t n = (int64_t(rows) + 15) / 16 * 16;
  return n < 16 ? 16 : n > kMatrixRows ? kMatrixRows : n;
}

// The all-lanes maskz forms of vmaxps, vrndscaleps and vscalefps: GCC 12's plain ones start from
// _mm512_undefined_ps(), which -Wall reports as used uninitialized.
constexpr __mmask16 kAllLanes = 0xffff;

/// 2^x for x <= 0 or NaN, 16 lanes: -inf gives 0 exactly (a masked key), NaN stays NaN (the
/// documented non-finite rule: a NaN score reaches its row). A degree-5 fit of 2^f on [0, 1)
/// (relative error 1.6e-7), scaled by 2^floor(x) with vscalefps. For x below -126 the result is 0,
/// as on the f32 paths (backends/cpu/VectorMath.cpp): a denormal or underflowing result costs a
/// microcode assist per instruction (flush-to-zero is the caller's, off by default).
__m512 exp2_nonpositive(__m512 x) {
  const __mmask16 normal = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-126.0f), _CMP_NLT_UQ);  // x >= -126, or NaN
  x = _mm512_maskz_max_ps(kAllLanes, _mm512_set1_ps(-126.0f), x);  // NaN stays: vmaxps returns its second operand
  const __m512 n = _mm512_maskz_roundscale_ps(kAllLanes, x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512 f = _mm512_sub_ps(x, n);
  __m512 p = _mm512_set1_ps(1.876232913e-03f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(8.992584422e-03f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.582360551e-02f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.401545346e-01f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.931529641e-01f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.999999404e-01f));
  return _mm512_maskz_scalef_ps(normal, p, n);
}

/// Two keys' 16 probabilities as bf16 pairs, rounded to nearest even: {a0, b0, a1, b1, ...}.
__m512i bf16_pairs(__m512 a, __m512 b) {
  const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(b, a);  // a's 16 in the low half, b's in the high
  const __m512i order = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6,
                                         21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
  return _mm512_permutexvar_epi16(order, both);
}

}  // namespace

/// dot(ii, j) for the keys of `out` (dim 1; dim 0 the tile's rows): Q (pairs-interleaved
/// [D_pad / 2][rows][2]) against K's rows (bf16, D_pad each), for the tile's first `rows` rows in
/// blocks of 16 (the others are padding, left unwritten). Keys in blocks of 32; a last block of
/// fewer is copied into a zero-filled block first, so no row past the chunk is read or written.
/// `decoding` (1, or 2 for a paged cache and FP8 rows): Q is plain rows [kTileQ][D_pad], at most
/// kDecodeRows rows hold queries, and K is bf16 rows in place (1) or their addresses (2,
/// KeyPages::addresses; fixed/MatrixDecode.h).
extern "C" int ATTN_MATRIX_EXTERNS_qk(halide_buffer_t* q, halide_buffer_t* k, int32_t rows, int32_t decoding,
                                      halide_buffer_t* out) {
  if (!out->host) return 0;  // bounds query: the whole of Q and K's buffers, as given
  if (out->dim[0].extent != kMatrixRows || out->dim[0].stride != 1) return -1;
  const int64_t lda = k->dim[1].stride, ldc = out->dim[1].stride;
  const int64_t first = out->dim[1].min, keys = out->dim[1].extent, whole = keys / kKeyStep * kKeyStep;
  const uint16_t* Q = reinterpret_cast<const uint16_t*>(q->host);
  const uint16_t* K = reinterpret_cast<const uint16_t*>(k->host) + (first - k->dim[1].min) * lda;
  float* C = reinterpret_cast<float*>(out->host);
  // The columns past the rows computed hold no query. They are zeroed: the score modifier and mask
  // take a pass over every row of the tile (ScheduleAttention.cpp), and whatever the buffer held
  // there (a denormal) could cost a microcode assist per vector.
  auto zero_padding = [&](int64_t computed) {
    const int64_t first_vector = computed / 16 * 16;
    const __mmask16 partial = __mmask16(0xffffu << (computed % 16));
    for (int64_t key = 0; key < keys; ++key)
      for (int64_t col = first_vector; col < kMatrixRows; col += 16)
        _mm512_mask_storeu_ps(C + key * ldc + col, col == first_vector ? partial : kAllLanes, _mm512_setzero_ps());
  };
  // FP8 kernels: the products of exact Q and K times the tile's scores factor (q_descale x
  // k_descale), over the columns computed; 1 (every other kernel) leaves them.
  const float factor_value = scores_factor(q);
  auto descale = [&](int64_t computed) {
    if (factor_value == 1.0f) return;
    const __m512 factor = _mm512_set1_ps(factor_value);
    for (int64_t key = 0; key < keys; ++key)
      for (int64_t col = 0; col < computed; col += 16) {
        const __mmask16 lanes = computed - col < 16 ? __mmask16((1u << (computed - col)) - 1) : kAllLanes;
        float* c = C + key * ldc + col;
        _mm512_mask_storeu_ps(c, lanes, _mm512_mul_ps(_mm512_maskz_loadu_ps(lanes, c), factor));
      }
  };
  if (decoding) {
    const int64_t D = q->dim[0].extent;
    const DecodeRows key_rows = DecodeRows::of(k, first - k->dim[1].min, lda, decoding);
    if (rows <= 4)
      decode_scores<4>(Q, key_rows, keys, D, C, ldc);
    else
      decode_scores<8>(Q, key_rows, keys, D, C, ldc);
    descale(rows <= 4 ? 4 : 8);
    zero_padding(rows <= 4 ? 4 : 8);
    return 0;
  }
  const int64_t D_pad = int64_t(q->dim[1].extent) * 2, N = live_columns(rows);
  zero_padding(N);
  [[maybe_unused]] MatrixUnit unit;
  matrix_product(K, lda, kKeyStep, Q, D_pad, C, ldc, whole, N, false);
  if (whole < keys) {
    MatrixScratch& s = matrix_scratch;
    const int64_t tail = keys - whole;
    s.a.assign(size_t(kKeyStep * D_pad), 0);
    for (int64_t r = 0; r < tail; ++r) memcpy(s.a.data() + r * D_pad, K + (whole + r) * lda, size_t(D_pad) * 2);
    s.c.resize(size_t(kKeyStep * kMatrixRows));
    matrix_product(s.a.data(), D_pad, kKeyStep, Q, D_pad, s.c.data(), kMatrixRows, kKeyStep, N, false);
    for (int64_t r = 0; r < tail; ++r) memcpy(C + (whole + r) * ldc, s.c.data() + r * kMatrixRows, size_t(N) * 4);
  }
  descale(N);
  return 0;
}

/// The chunk's softmax and P·V, the pipeline's output: from the scores of keys [lo, hi) (`s`,
/// dimension `keys_dim` the keys, the other the tile's rows, contiguous) times `scale`, in log2
/// units, and V transposed in blocks of 32 keys (`v`: [keys / 32][Dv_pad][32], bf16), writes `out`
/// (c, ii): P·V unnormalized in columns [0, Dv_pad), the row max in Dv_pad, the row sum in
/// Dv_pad + 1, hi and `window_hi` as int bits in Dv_pad + 2 and + 3, 0 after them (define_output's
/// partial result). As the f32 paths: the max over the chunk (-inf when it masks the row),
/// p = 2^(x - max) with a -inf max read as 0, the sum of p in f32; P·V takes p rounded to bf16, as
/// PyTorch's bf16 attention does. Only the tile's first `rows` rows, in blocks of 16, are computed;
/// the rest (padding) are written as rows no key reached. `decoding`: V is plain rows (bf16, Dv_pad
/// each; 2: their addresses) and P·V is fixed/MatrixDecode.h's, over the first kDecodeRows rows at
/// most.
extern "C" int ATTN_MATRIX_EXTERNS_softmax_pv(halide_buffer_t* s, halide_buffer_t* v, float scale, int32_t lo,
                                              int32_t hi, int32_t window_hi, int32_t keys_dim, int32_t rows,
                                              int32_t decoding, halide_buffer_t* out) {
  constexpr int kVectors = kMatrixRows / 16;  // a key's scores of the tile's rows, in vectors
  const int64_t N = live_columns(rows);
  const int live = int(N / 16);  // the vectors that hold queries
  const int rows_dim = 1 - keys_dim;
  if (!out->host) {  // bounds query: the chunk's scores; all of V's buffer, as given
    if (s->host) return 0;
    s->dim[keys_dim].min = lo, s->dim[keys_dim].extent = hi - lo;
    s->dim[rows_dim].min = 0, s->dim[rows_dim].extent = kMatrixRows;
    return 0;
  }
  if (s->dim[rows_dim].stride != 1 || hi < lo || lo % kKeyStep != 0) return -1;
  const int64_t n = hi - lo, ks = s->dim[keys_dim].stride;
  const float* S = reinterpret_cast<const float*>(s->host) + (lo - s->dim[keys_dim].min) * ks -
                   int64_t(s->dim[rows_dim].min);
  const __m512 k = _mm512_set1_ps(scale), neg_inf = _mm512_set1_ps(-INFINITY), zero = _mm512_setzero_ps();
  // Decoding: the scores of only the first decode_rows rows were written (decode_scores); the other
  // lanes of the live vector are read as 0, never as whatever the buffer held.
  const int64_t decode_rows = rows <= 4 ? 4 : 8;  // decoding: C is [decode_rows][Dv_pad], decoded_column order
  const __mmask16 lanes = decoding ? __mmask16((1u << decode_rows) - 1) : kAllLanes;
  // The row max of the tile's rows.
  __m512 m[kVectors], safe[kVectors], sum[kVectors];
  for (int r = 0; r < kVectors; ++r) m[r] = neg_inf, sum[r] = zero;
  for (int64_t key = 0; key < n; ++key)
    for (int r = 0; r < live; ++r)
      m[r] = _mm512_maskz_max_ps(kAllLanes, m[r], _mm512_mul_ps(_mm512_maskz_loadu_ps(lanes, S + key * ks + 16 * r), k));
  for (int r = 0; r < kVectors; ++r)
    safe[r] = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(m[r], neg_inf, _CMP_EQ_OQ), m[r], zero);
  // Block by block of keys: the probabilities, their sum, and P as bf16 pairs [keys / 2][rows][2]
  // (keys past hi: zero), then P·V of the block into C [Dv_pad][rows] — the block's P (32 KiB)
  // still in L1 for every row block of C.
  MatrixScratch& scratch = matrix_scratch;
  scratch.p.resize(size_t(kPvKeyBlock * kMatrixRows));
  uint16_t* P = scratch.p.data();
  // V: transposed blocks [keys / 32][Dv_pad][32], or (decoding) plain rows of Dv_pad.
  const int64_t block = v->dim[0].extent, vs = v->dim[1].stride;
  // Dv_pad from V's plane, or (row addresses) from the output's columns: P·V, then 16 for the stats.
  const int64_t Dv_pad = decoding == 2 ? out->dim[0].extent - 16 : decoding ? block : block / kKeyStep;
  const uint16_t* Vt = reinterpret_cast<const uint16_t*>(v->host) +
                       (decoding ? lo - v->dim[1].min : lo / kKeyStep - v->dim[1].min) * vs;
  scratch.c.resize(size_t(Dv_pad * kMatrixRows));
  float* C = scratch.c.data();
  if (n == 0) memset(C, 0, size_t(Dv_pad * kMatrixRows) * 4);
  [[maybe_unused]] MatrixUnit unit;
  for (int64_t k0 = 0; k0 < n; k0 += kPvKeyBlock) {
    const int64_t keys = n - k0 < kPvKeyBlock ? n - k0 : kPvKeyBlock, whole = keys / kKeyStep * kKeyStep;
    const int64_t padded = (keys + kKeyStep - 1) / kKeyStep * kKeyStep;
    for (int64_t key = 0; key < padded; key += 2)
      for (int r = 0; r < live; ++r) {
        __m512 p[2];
        for (int e = 0; e < 2; ++e) {
          p[e] = zero;
          if (key + e >= keys) continue;
          p[e] = exp2_nonpositive(_mm512_fmsub_ps(_mm512_maskz_loadu_ps(lanes, S + (k0 + key + e) * ks + 16 * r), k, safe[r]));
          sum[r] = _mm512_add_ps(sum[r], p[e]);
        }
        _mm512_storeu_si512(P + key * kMatrixRows + 32 * r, bf16_pairs(p[0], p[1]));
      }
    if (decoding) {
      const DecodeRows value_rows = DecodeRows::of(v, lo - v->dim[1].min + k0, vs, decoding);
      if (decode_rows == 4)
        decode_values<4>(value_rows, keys, P, C, Dv_pad, k0 > 0);
      else
        decode_values<8>(value_rows, keys, P, C, Dv_pad, k0 > 0);
      continue;
    }
    const uint16_t* vt = Vt + k0 / kKeyStep * vs;
    if (whole > 0) matrix_product(vt, kKeyStep, vs, P, whole, C, kMatrixRows, Dv_pad, N, k0 > 0);
    if (whole < keys) {  // the chunk's last keys: V's block copied, its keys past hi zero
      const uint16_t* last = vt + whole / kKeyStep * vs;
      scratch.a.assign(size_t(block), 0);
      for (int64_t c = 0; c < Dv_pad; ++c)
        memcpy(scratch.a.data() + c * kKeyStep, last + c * kKeyStep, size_t(keys - whole) * 2);
      matrix_product(scratch.a.data(), kKeyStep, kKeyStep, P + whole * kMatrixRows, kKeyStep, C, kMatrixRows, Dv_pad,
                     N, k0 > 0 || whole > 0);
    }
  }
  // Out (c, ii), row by row; the padding rows as rows no key reached.
  alignas(64) float stats[2][kMatrixRows];
  for (int r = 0; r < kVectors; ++r) _mm512_store_ps(stats[0] + 16 * r, m[r]), _mm512_store_ps(stats[1] + 16 * r, sum[r]);
  float ends[2];
  memcpy(&ends[0], &hi, 4), memcpy(&ends[1], &window_hi, 4);
  float* O = reinterpret_cast<float*>(out->host);
  const int64_t cols = out->dim[0].extent, os = out->dim[1].stride;
  if (out->dim[0].min != 0 || out->dim[1].min != 0 || out->dim[1].extent != kMatrixRows || cols < Dv_pad + 4) return -1;
  // Rows past the computed ones are padding that the wrapper never reads: their P·V is left as it was.
  const int64_t computed = decoding ? decode_rows : N;
  for (int64_t row = 0; row < kMatrixRows; ++row) {
    float* o = O + row * os;
    if (row < computed && decoding)
      for (int64_t c = 0; c < Dv_pad; ++c) o[c] = C[row * Dv_pad + decoded_column(c)];
    else if (row < computed)
      for (int64_t c = 0; c < Dv_pad; ++c) o[c] = C[c * kMatrixRows + row];
    o[Dv_pad] = stats[0][row], o[Dv_pad + 1] = stats[1][row];
    o[Dv_pad + 2] = ends[0], o[Dv_pad + 3] = ends[1];
    for (int64_t c = Dv_pad + 4; c < cols; ++c) o[c] = 0.0f;
  }
  return 0;
}
