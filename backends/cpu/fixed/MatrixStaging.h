// The bf16 matrix paths' staging (amx, avx512bf16): Q, K and V in the layouts the extern stages
// read (fixed/MatrixExterns.h), with the same interface as the f32 paths' KeySide (KeyStage,
// ValueStage, stage_query_tile). The conversions are copies of bf16 bits, or for FP8 kernels each
// element's exact bf16 value (AVX-512BW lookups; the descale factors apply to the scores and Out).
namespace {

static_assert(kIoType == IoType::BF16 || kFp8, "the matrix paths read bf16 or FP8 Q, K and V");

constexpr int64_t kMatrixStep = 32;  // bf16 elements of one k-step of a product (an AMX tile's row)
constexpr int64_t kInBytes = kFp8 ? 1 : 2;  // bytes of an element of Q, K and V

/// `n` elements of Q, K or V as bf16 at `dst`: a copy, or FP8 elements' values (Fp8Lookup; the
/// last fewer than 32 from the table one by one).
inline void read_bf16_row(const char* src, uint16_t* dst, int64_t n) {
  if (!kFp8) {
    memcpy(dst, src, size_t(n) * 2);
    return;
  }
  const Fp8Lookup lookup;
  int64_t c = 0;
  for (; c + 32 <= n; c += 32) _mm512_storeu_si512(dst + c, lookup.convert(reinterpret_cast<const uint8_t*>(src + c)));
  for (; c < n; ++c) dst[c] = Fp8Bf16::get().bits[uint8_t(src[c])];
}

/// The tile's query rows pairs-interleaved, [D_pad / 2][kTileQ][2] u16 (D_pad: D rounded up to a
/// k-step, zero-filled; rows past `rows` zero), in `storage` (used as raw memory); or, `plain`
/// (the decoding layout), as rows [kTileQ][D]; then, in the f32 after them, `descale`: the scores'
/// factor (FP8: q_descale x k_descale, else 1), which the Q·Kᵀ extern applies to its products
/// (fixed/MatrixExterns.h, scores_factor), so that Q and K stay exact.
template <typename RowAddress>
void stage_query_tile(std::vector<float>& storage, int64_t D, int64_t rows, RowAddress row, float descale, Plane& plane,
                      bool plain) {
  const int64_t D_pad = round_up(D, kMatrixStep);
  storage.resize(size_t(kTileQ * D_pad / 2 + 1));
  uint16_t* dst = reinterpret_cast<uint16_t*>(storage.data());
  memset(dst, 0, size_t(kTileQ * D_pad) * 2);
  storage[size_t(kTileQ * D_pad / 2)] = descale;
  if (plain) {
    for (int64_t r = 0; r < rows; ++r) read_bf16_row(row(r), dst + r * D_pad, D);
    plane.set_u16(reinterpret_cast<uintptr_t>(dst), D_pad, kTileQ, D_pad);
    return;
  }
  thread_local std::vector<uint16_t> converted;  // an FP8 row as bf16
  converted.resize(kFp8 ? size_t(D) : 0);
  for (int64_t r = 0; r < rows; ++r) {  // a pair of elements at a time (one 32-bit copy)
    const char* src = row(r);
    if (kFp8) {
      read_bf16_row(src, converted.data(), D);
      src = reinterpret_cast<const char*>(converted.data());
    }
    for (int64_t p = 0; p < D / 2; ++p) memcpy(dst + p * (2 * kTileQ) + 2 * r, src + 4 * p, 4);
    if (D % 2) memcpy(dst + (D / 2) * (2 * kTileQ) + 2 * r, src + 2 * (D - 1), 2);
  }
  plane.set_u16(reinterpret_cast<uintptr_t>(dst), 2 * kTileQ, D_pad / 2, 2 * kTileQ);
}

/// K as bf16 rows of D_pad elements: the caller's tensor in place when its rows are that already
/// (bf16, D a multiple of a k-step, the usual case, and not in pages), else a zero-padded copy
/// (FP8: converted), whole or (decoding) of the rows a task is about to visit. The decoding layout
/// reads a paged cache's rows, and FP8 rows, where they are, through their addresses
/// (KeyPages::addresses; FP8 converted in registers, fixed/MatrixDecode.h).
struct MatrixKeys {
  const char* base = nullptr;  // in place or the copy: rows of D_pad u16
  int64_t sb = 0, sh = 0, sl = 0;  // its strides in elements
  int64_t D = 0, D_pad = 0;
  bool streamed = false, addressed = false;
  const char* src = nullptr;  // copies: the caller's tensor and its strides in bytes
  int64_t src_b = 0, src_h = 0, src_l = 0;
  KeyPages pages;  // a paged cache's rows (copied, or read through their addresses when decoding)
  std::vector<uint16_t> copy;

  void copy_rows(int64_t h, int64_t b, int64_t row0, int64_t row1, uint16_t* dst) const {
    for (int64_t r = row0; r < row1; ++r, dst += D_pad) {
      read_bf16_row(src + pages.row(b, r, src_b, src_l) + h * src_h, dst, D);
      memset(dst + D, 0, size_t(D_pad - D) * 2);
    }
  }
  bool prepare(void* uc, const DLTensor* t, const char* name, int64_t head_dim, bool stream, const KeyPages& paged,
               bool plain_rows) {
    const int64_t B = t->shape[0], H = t->shape[1], L = t->shape[2];
    D = head_dim, D_pad = round_up(head_dim, kMatrixStep), pages = paged;
    // A paged cache's rows, and FP8 rows, are read through their addresses in the decoding layout;
    // otherwise they are copied as any other K, once when many tasks read the plane (a prefill
    // chunk's tiles).
    addressed = plain_rows && (pages.table || kFp8);
    if (addressed) stream = true;
    const int64_t row_stride = L <= 1 ? D_pad : stride_of(t, 2);
    if (L * D_pad >= (int64_t(1) << 31) || row_stride >= (int64_t(1) << 31) || row_stride < 0)
      return fail(uc, "%s: %s has too many rows for this kernel (%lld)", kKernelName, name, (long long)L), false;
    if (D == D_pad && !pages.table && !kFp8) {
      base = base_of(t), sb = stride_of(t, 0), sh = stride_of(t, 1), sl = row_stride;
      return true;
    }
    src = base_of(t), src_b = stride_of(t, 0) * kInBytes, src_h = stride_of(t, 1) * kInBytes;
    src_l = stride_of(t, 2) * kInBytes;
    if (stream) return streamed = true;
    copy.resize(size_t(B * H * L * D_pad));
    sl = D_pad, sh = L * D_pad, sb = H * L * D_pad;
    base = reinterpret_cast<const char*>(copy.data());
    return parallel_for(uc, int(B * H), [&](int task) {
      copy_rows(task % H, task / H, 0, L, copy.data() + task * L * D_pad);
      return 0;
    }) == 0;
  }
  void head(int64_t h, int64_t b, int64_t keys, Plane& plane) const {
    plane.set_u16(reinterpret_cast<uintptr_t>(base + 2 * (b * sb + h * sh)), D_pad, keys, sl);
  }
  void piece(int64_t h, int64_t b, int64_t row0, int64_t row1, std::vector<float>& storage, Plane& plane) const {
    if (addressed) return pages.addresses(src + h * src_h, b, src_b, src_l, row0, row1, storage, plane);
    storage.resize(size_t((row1 - row0) * D_pad / 2 + 1));
    uint16_t* rows = reinterpret_cast<uint16_t*>(storage.data());
    copy_rows(h, b, row0, row1, rows);
    plane.set_u16(reinterpret_cast<uintptr_t>(rows) - uintptr_t(2 * row0 * D_pad), D_pad, row1, D_pad);
  }
};

/// V transposed in blocks of 32 keys, [keys / 32][Dv_pad][32] u16 per key/value plane (rows past
/// Dv and keys past Lk zero): P·V's A operand, each k-step's tile rows 64 bytes apart. Whole, or
/// (decoding) for the keys a task is about to visit. In the decoding layout (`plain`), V's rows as
/// they are: bf16 in place, or (a paged cache, FP8) through their addresses (KeyPages::addresses).
struct MatrixValues {
  /// Whether a call takes the decoding layout: Q, K and V as plain bf16 rows, K and V read in place
  /// (fixed/MatrixDecode.h's products), when every task has at most kDecodeRows query rows
  /// (`task_rows`, decoding one token, a few heads of a group) and the head dims are whole k-steps.
  static bool decoding_layout(int64_t task_rows, int64_t D, int64_t Dv) {
    return task_rows <= kDecodeRows && D % kMatrixStep == 0 && Dv % kMatrixStep == 0;
  }
  bool streamed = false, plain = false;
  const char* src = nullptr;
  int64_t src_b = 0, src_h = 0, src_l = 0;
  int64_t Dv = 0, Dv_pad = 0, L = 0, blocks = 0, H = 0;
  KeyPages pages;  // a paged cache's rows (transposed, or read through their addresses when decoding)
  std::vector<uint16_t> copy;

  int64_t block_size() const { return Dv_pad * kMatrixStep; }
  /// Keys [row0, row1) of plane (h, b) into `count` blocks at dst (row0 a multiple of 32): two keys
  /// at a time, each column's pair of values one 32-bit store (64 bytes apart down the block).
  void transpose(int64_t h, int64_t b, int64_t row0, int64_t row1, uint16_t* dst, int64_t count) const {
    const char* head = src + h * src_h;
    memset(dst, 0, size_t(count * block_size()) * 2);
    thread_local std::vector<uint16_t> rows;
    rows.resize(size_t(2 * Dv));
    for (int64_t key = row0; key < row1; key += 2) {
      read_bf16_row(head + pages.row(b, key, src_b, src_l), rows.data(), Dv);
      if (key + 1 < row1)
        read_bf16_row(head + pages.row(b, key + 1, src_b, src_l), rows.data() + Dv, Dv);
      else
        memset(rows.data() + Dv, 0, size_t(Dv) * 2);
      const uint16_t *a = rows.data(), *n = rows.data() + Dv;
      uint32_t* out = reinterpret_cast<uint32_t*>(dst + (key - row0) / kMatrixStep * block_size()) +
                      (key - row0) % kMatrixStep / 2;
      for (int64_t c = 0; c < Dv; ++c) out[c * (kMatrixStep / 2)] = uint32_t(a[c]) | uint32_t(n[c]) << 16;
    }
  }
  bool prepare(void* uc, const DLTensor* t, const char* name, int64_t value_cols, bool stream, const KeyPages& paged,
               bool plain_rows) {
    const int64_t B = t->shape[0];
    H = t->shape[1], L = t->shape[2], Dv = t->shape[3], Dv_pad = value_cols, pages = paged, plain = plain_rows;
    blocks = (L + kMatrixStep - 1) / kMatrixStep;
    const bool too_long = plain ? !pages.table && L * stride_of(t, 2) >= (int64_t(1) << 31)
                                : blocks * block_size() >= (int64_t(1) << 31);
    if (too_long)
      return fail(uc, "%s: %s has too many rows for this kernel (%lld)", kKernelName, name, (long long)L), false;
    src = base_of(t), src_b = stride_of(t, 0) * kInBytes, src_h = stride_of(t, 1) * kInBytes;
    src_l = stride_of(t, 2) * kInBytes;
    if (plain) return streamed = pages.table != nullptr || kFp8, true;
    if (stream) return streamed = true;
    copy.resize(size_t(B * H * blocks * block_size()));
    return parallel_for(uc, int(B * H), [&](int task) {
      transpose(task % H, task / H, 0, L, copy.data() + task * blocks * block_size(), blocks);
      return 0;
    }) == 0;
  }
  void head(int64_t h, int64_t b, int64_t keys, Plane& plane) const {
    if (plain) return plane.set_u16(reinterpret_cast<uintptr_t>(src + b * src_b + h * src_h), Dv, keys, src_l / 2);
    plane.set_u16(reinterpret_cast<uintptr_t>(copy.data() + (b * H + h) * blocks * block_size()), block_size(), blocks,
                  block_size());
  }
  void piece(int64_t h, int64_t b, int64_t row0, int64_t row1, std::vector<float>& storage, Plane& plane) const {
    if (plain) return pages.addresses(src + h * src_h, b, src_b, src_l, row0, row1, storage, plane);
    const int64_t count = (row1 - row0 + kMatrixStep - 1) / kMatrixStep;
    storage.resize(size_t(count * block_size() / 2 + 1));
    uint16_t* cols = reinterpret_cast<uint16_t*>(storage.data());
    transpose(h, b, row0, row1, cols, count);
    plane.set_u16(reinterpret_cast<uintptr_t>(cols) - uintptr_t(2 * (row0 / kMatrixStep) * block_size()), block_size(),
                  row0 / kMatrixStep + count, block_size());
  }
};

using KeyStage = MatrixKeys;
using ValueStage = MatrixValues;

}  // namespace
