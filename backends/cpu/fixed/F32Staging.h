// The f32 vector paths' staging (avx512, avx2, portable, and every backward): Q, K and V read as
// dense f32 rows (KeySide); the bf16 matrix paths have their own (MatrixStaging.h).
namespace {

float bf16_to_float(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

float read_io(const char* p) {
  if (kIoType == IoType::F32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, p, 2);
  return kIoType == IoType::F16 ? half_to_float(h) : bf16_to_float(h);
}

/// `n` elements of the I/O type as f32: a memcpy, a loop of constant stride for bf16 (vectorized
/// by the compiler), F16C eight at a time for f16 on the paths that have it (ATTN_F16C); FP8
/// elements times `descale` (the only type that has one: else it is 1).
void read_row(const char* src, float* dst, int64_t n, float descale = 1.0f) {
  if (kFp8) {
    static const Fp8Values fp8;
    for (int64_t c = 0; c < n; ++c) dst[c] = fp8.value[uint8_t(src[c])] * descale;
    return;
  }
  if (kIoType == IoType::F32) {
    memcpy(dst, src, size_t(n) * 4);
    return;
  }
  int64_t c = 0;
#if defined(ATTN_F16C)
  // vcvtph2ps through the builtin that g++ and clang++ both have: <immintrin.h> would cost a cold
  // compile 0.2 s.
  typedef short Half8 __attribute__((vector_size(16)));
  typedef float Float8 __attribute__((vector_size(32)));
  if (kIoType == IoType::F16)
    for (; c + 8 <= n; c += 8) {
      Half8 h;
      memcpy(&h, src + 2 * c, 16);
      const Float8 f = __builtin_ia32_vcvtph2ps256(h);
      memcpy(dst + c, &f, 32);
    }
#endif
  for (; c < n; ++c) dst[c] = read_io(src + 2 * c);
}

/// K or V as the tasks read them: rows of `cols` f32, one [L, cols] plane per (head, batch). The
/// caller's memory itself when it already is that (f32, rows of exactly `cols` floats, dense);
/// otherwise either a converted copy of the whole tensor (columns past the tensor's zero-filled),
/// (a paged cache's rows gathered out of their pages), or, when few tasks read each plane
/// (decoding), nothing up front: each task converts the rows it is about to visit into its own
/// scratch (`streamed`), so keys the mask rules out are never read and no tensor-sized buffer is
/// allocated (its page faults cost more than the conversion).
struct KeySide {
  const float* base = nullptr;
  int64_t head_stride = 0, batch_stride = 0;  // in floats
  float* copy = nullptr;
  bool streamed = false;
  const char* src = nullptr;              // streamed: the caller's tensor
  int64_t src_b = 0, src_h = 0, src_l = 0;  // its strides in bytes
  int64_t src_cols = 0;                     // its last extent
  KeyPages pages;                           // a paged cache's rows (copied or streamed)
  KeySide() = default;
  KeySide(const KeySide&) = delete;
  KeySide& operator=(const KeySide&) = delete;
  ~KeySide() { free(copy); }
  const float* plane(int64_t h, int64_t b) const { return base + b * batch_stride + h * head_stride; }
  /// Streamed: rows [row0, row1) of (head h, batch b) as f32 rows of `cols` into `dst`.
  void convert(int64_t h, int64_t b, int64_t row0, int64_t row1, int64_t cols, float* dst) const {
    for (int64_t r = row0; r < row1; ++r, dst += cols) {
      read_row(src + pages.row(b, r, src_b, src_l) + h * src_h, dst, src_cols);
      memset(dst + src_cols, 0, size_t(cols - src_cols) * 4);
    }
  }
  /// Whether a call takes the decoding layout: every task has at most kDecodeRows query rows
  /// (`task_rows`: one token of a few heads of a group), and the pipeline computes the scores of
  /// those rows only. K and V are read as for any call.
  static bool decoding_layout(int64_t task_rows, int64_t, int64_t) { return task_rows <= kDecodeRows; }
  /// prepare_key_side (below) for rows of `columns` floats, from `paged` pages if it has a table
  /// (FP8 elements as they are: their factors apply to the scores and Out, WrapperEntry.h).
  /// (`plain_rows`, the decoding layout: read as any other.)
  bool prepare(void* uc, const DLTensor* t, const char* name, int64_t columns, bool stream, const KeyPages& paged,
               bool plain_rows = false);
  /// The whole [Lk] plane of (head h, batch b) as the pipeline's buffer (not streamed).
  void head(int64_t h, int64_t b, int64_t keys, Plane& plane) const { plane.set(this->plane(h, b), cols, keys, 0); }
  /// Streamed: rows [row0, row1) of (head h, batch b) converted into `storage`, as the pipeline's
  /// buffer of rows [0, row1) (Plane::set).
  void piece(int64_t h, int64_t b, int64_t row0, int64_t row1, std::vector<float>& storage, Plane& plane) const {
    storage.resize(size_t((row1 - row0) * cols));
    convert(h, b, row0, row1, cols, storage.data());
    plane.set(storage.data(), cols, row1 - row0, row0);
  }
  int64_t cols = 0;
};

bool prepare_key_side(void* uc, const DLTensor* t, const char* name, int64_t cols, bool stream, KeySide& s) {
  int64_t B = t->shape[0], H = t->shape[1], L = t->shape[2], C = t->shape[3];
  if (L * cols >= (int64_t(1) << 31))
    return fail(uc, "%s: %s has too many rows for this kernel (%lld)", kKernelName, name, (long long)L), false;
  const char* base = base_of(t);
  // f32 rows of exactly `cols` floats are read where they are, decoding included: streaming them
  // would only copy them (a third of a decoding step's time went to that memcpy).
  if (kIoType == IoType::F32 && C == cols && (L <= 1 || stride_of(t, 2) == cols) && !s.pages.table &&
      reinterpret_cast<uintptr_t>(base) % alignof(float) == 0) {
    s.base = reinterpret_cast<const float*>(base);
    s.head_stride = stride_of(t, 1), s.batch_stride = stride_of(t, 0);
    return true;
  }
  int64_t esize = t->dtype.bits / 8;
  int64_t sb = stride_of(t, 0) * esize, sh = stride_of(t, 1) * esize, sl = stride_of(t, 2) * esize;
  if (stream) {
    s.streamed = true, s.src = base, s.src_b = sb, s.src_h = sh, s.src_l = sl, s.src_cols = C;
    return true;
  }
  int64_t n = B * H * L * cols;
  s.copy = static_cast<float*>(aligned_alloc(64, size_t(round_up(n * 4 + 64, 64))));
  if (!s.copy) return fail(uc, "%s: out of memory converting %s", kKernelName, name), false;
  s.base = s.copy, s.head_stride = L * cols, s.batch_stride = H * L * cols;
  return parallel_for(uc, int(B * H), [&](int task) {
    int64_t b = task / H, h = task % H;
    for (int64_t r = 0; r < L; ++r) {
      const char* src = base + s.pages.row(b, r, sb, sl) + h * sh;
      float* dst = s.copy + b * s.batch_stride + h * s.head_stride + r * cols;
      read_row(src, dst, C);
      memset(dst + C, 0, size_t(cols - C) * 4);
    }
    return 0;
  }) == 0;
}

/// Inline member, defined after prepare_key_side: the backward calls prepare_key_side alone, and an
/// out-of-line member it never calls would be an unused function there.
inline bool KeySide::prepare(void* uc, const DLTensor* t, const char* name, int64_t columns, bool stream,
                             const KeyPages& paged, bool) {
  cols = columns, pages = paged;
  return prepare_key_side(uc, t, name, columns, stream, *this);
}

/// The tile's query rows as f32 [kTileQ][D] in `storage` (rows past `rows` zero), as the pipeline's
/// q buffer; `row(r)` is where row r starts in the caller's tensor, FP8 elements are times
/// `descale`, the scores' factor (q_descale x k_descale). (`plain`, the decoding layout: the same rows.)
template <typename RowAddress>
void stage_query_tile(std::vector<float>& storage, int64_t D, int64_t rows, RowAddress row, float descale, Plane& plane,
                      bool) {
  storage.resize(size_t(kTileQ * D));
  for (int64_t r = 0; r < kTileQ; ++r) {
    float* dst = storage.data() + r * D;
    if (r >= rows)
      memset(dst, 0, size_t(D) * 4);
    else
      read_row(row(r), dst, D, descale);
  }
  plane.set(storage.data(), D, kTileQ, 0);
}

using KeyStage = KeySide;
using ValueStage = KeySide;

}  // namespace
