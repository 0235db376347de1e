namespace {

uint16_t float_to_half(float f) {  // round to nearest even
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) return uint16_t(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (x >= 0x477ff000u) return uint16_t(sign | 0x7c00u);
  if (x < 0x38800000u) {
    float a;
    memcpy(&a, &x, 4);
    return uint16_t(sign | uint32_t(lrintf(a * 16777216.0f)));
  }
  x += 0xc8000fffu + ((x >> 13) & 1u);
  return uint16_t(sign | (x >> 13));
}

/// Stores `f` as an element of Out's type (kOutType: the I/O type, bf16 for FP8 kernels).
void write_io(char* p, float f) {
  if (kOutType == IoType::F32) {
    memcpy(p, &f, 4);
    return;
  }
  uint16_t h = kOutType == IoType::F16 ? float_to_half(f) : float_to_bf16(f);
  memcpy(p, &h, 2);
}

/// `n` floats times `scale` as Out's elements, dense from `dst`: a loop the compiler vectorizes (its
/// bounds are locals, so no store through `dst` can change them). Inline: sources without an entry
/// point (the build's checks of the fixed code) never call it.
inline void write_io_row(char* dst, const float* src, float scale, int64_t n) {
  constexpr int64_t size = kOutType == IoType::F32 ? 4 : 2;
  for (int64_t c = 0; c < n; ++c) write_io(dst + c * size, src[c] * scale);
}

int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

const char* io_type_name(IoType type) {
  switch (type) {
    case IoType::F32: return "f32";
    case IoType::F16: return "f16";
    case IoType::BF16: return "bf16";
    case IoType::E4M3: return "e4m3";
    case IoType::E5M2: return "e5m2";
  }
  return "f32";
}

bool is_io_type(DLDataType t, IoType type) {
  if (t.lanes != 1) return false;
  switch (type) {
    case IoType::F32: return t.code == kDLFloat && t.bits == 32;
    case IoType::F16: return t.code == kDLFloat && t.bits == 16;
    case IoType::BF16: return t.code == kDLBfloat && t.bits == 16;
    case IoType::E4M3: return t.code == ATTN_DL_FLOAT8_E4M3FN && t.bits == 8;
    case IoType::E5M2: return t.code == ATTN_DL_FLOAT8_E5M2 && t.bits == 8;
  }
  return false;
}

/// A DLPack element type as attnc names dtypes (kDTypeNames: f32, bf16, i64, ...), or by its
/// DLPack code and bits when attnc has no name for it.
struct DTypeText {
  char text[96];
};
DTypeText dtype_text(DLDataType t) {
  DTypeText out;
  for (const DTypeName& n : kDTypeNames)
    if (t.code == n.code && t.bits == n.bits && t.lanes == 1) {
      snprintf(out.text, sizeof out.text, "%s", n.name);
      return out;
    }
  snprintf(out.text, sizeof out.text, "a type attnc does not use (DLPack code %d, %d bits, %d lanes)", int(t.code),
           int(t.bits), int(t.lanes));
  return out;
}

/// Element stride of dimension d (compact row-major when the tensor has no strides). Never inlined:
/// each inlined copy of the loop was vectorized, 40% of the wrapper's code (the callers read it once
/// per call or per row).
__attribute__((noinline)) int64_t stride_of(const DLTensor* t, int d) {
  if (t->strides) return t->strides[d];
  int64_t s = 1;
  for (int k = t->ndim - 1; k > d; --k) s *= t->shape[k];
  return s;
}

const char* base_of(const DLTensor* t) { return static_cast<const char*>(t->data) + t->byte_offset; }

/// Q, K, V, Out: on the CPU, `ndim`-D, the kernel's I/O type (Out: kOutType), last dim contiguous.
/// LSE and max (`is_f32`): f32, any strides (written element by element; a ragged batch's are [Tq, Hq]).
bool check_tensor(void* uc, const DLTensor* t, const char* name, int ndim, bool is_f32) {
  const IoType io = strcmp(name, "out") == 0 ? kOutType : kIoType;  // FP8 kernels write a bf16 out
  if (!t) return fail(uc, "%s: %s is NULL", kKernelName, name), false;
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return fail(uc, "%s: %s is not in CPU memory", kKernelName, name), false;
  if (t->ndim != ndim) return fail(uc, "%s: %s has %d dimensions, expected %d", kKernelName, name, t->ndim, ndim), false;
  int64_t elements = 1;
  for (int d = 0; d < ndim; ++d) elements *= t->shape[d] > 0 ? t->shape[d] : 0;
  if (!t->data && elements > 0) return fail(uc, "%s: %s has no data", kKernelName, name), false;
  bool type_ok = is_f32 ? (t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1) : is_io_type(t->dtype, io);
  if (!type_ok)
    return fail(uc, "%s: %s has element type %s, expected %s", kKernelName, name, dtype_text(t->dtype).text,
                is_f32 ? "f32" : io_type_name(io)), false;
  for (int d = 0; d < ndim; ++d)
    if (t->shape[d] < 0) return fail(uc, "%s: %s has a negative extent", kKernelName, name), false;
  if (!is_f32 && t->shape[ndim - 1] > 1 && stride_of(t, ndim - 1) != 1)
    return fail(uc, "%s: the last dimension of %s is not contiguous (stride %lld)", kKernelName, name,
                (long long)stride_of(t, ndim - 1)), false;
  return true;
}

/// `rows` dense rows of `cols` floats from `first`, as the 2-D Halide buffer [cols, rows] a task
/// reads. The pipeline is compiled for buffers whose rows start at 0 (a known minimum keeps its
/// row addressing cheap: 25% on prefill when it was left open), so a piece of K or V converted
/// from row `first_row` on is passed as rows [0, first_row + rows) whose host pointer is where row
/// 0 would be: the pipeline reads only the piece's rows (tests/cpu checked it with the piece's
/// own bounds), and the address is formed as an integer, never by pointer arithmetic.
struct Plane {
  halide_buffer_t buf{};
  halide_dimension_t dim[2]{};
  Plane() = default;
  Plane(const float* first, int64_t cols, int64_t rows) { set(first, cols, rows, 0); }
  Plane(const Plane&) = delete;
  Plane& operator=(const Plane&) = delete;
  void set(const float* first, int64_t cols, int64_t rows, int64_t first_row) {
    dim[0] = halide_dimension_t{0, int32_t(cols), 1, 0};
    dim[1] = halide_dimension_t{0, int32_t(first_row + rows), int32_t(cols), 0};
    buf.host = reinterpret_cast<uint8_t*>(reinterpret_cast<uintptr_t>(first) - uintptr_t(first_row * cols * 4));
    buf.type = halide_type_t(halide_type_float, 32, 1);
    buf.dimensions = 2;
    buf.dim = dim;
  }
  /// A 2-D u16 buffer (the matrix paths' bf16 layouts, fixed/MatrixStaging.h): element (x, y) at
  /// `host` + 2 (x + y stride); `host` is an address, possibly before the memory the stages read.
  void set_u16(uintptr_t host, int64_t extent0, int64_t extent1, int64_t stride1) {
    dim[0] = halide_dimension_t{0, int32_t(extent0), 1, 0};
    dim[1] = halide_dimension_t{0, int32_t(extent1), int32_t(stride1), 0};
    buf.host = reinterpret_cast<uint8_t*>(host);
    buf.type = halide_type_t(halide_type_uint, 16, 1);
    buf.dimensions = 2;
    buf.dim = dim;
  }
};

/// Where the rows of a key or value plane lie: one after another (a dense or ragged call), or
/// through one sequence's page table (a paged KV cache, attend_paged). A paged plane's view has one
/// batch entry whose stride is the page stride: row r is row r % page_size of page table[r / page_size].
struct KeyPages {
  const int32_t* table = nullptr;  // the sequence's pages in key order; null: not paged
  int64_t page_size = 0;
  /// Bytes from the tensor's start to row r of plane (b, h)'s head 0, from the view's batch and
  /// row strides in bytes.
  int64_t row(int64_t b, int64_t r, int64_t batch_stride, int64_t row_stride) const {
    return table ? table[r / page_size] * batch_stride + r % page_size * row_stride : b * batch_stride + r * row_stride;
  }
  /// The addresses of plane (b, head)'s rows [row0, row1) from `head` (its first row's plane in
  /// batch entry or page 0), page by page, into `storage` (used as raw memory), as a u16 plane of
  /// four elements (one address) per key, key-indexed from 0: what the matrix paths' decoding
  /// layout reads from a paged cache, or FP8 rows, instead of copies of the rows.
  void addresses(const char* head, int64_t b, int64_t batch_stride, int64_t row_stride, int64_t row0, int64_t row1,
                 std::vector<float>& storage, Plane& plane) const {
    storage.resize(size_t(2 * (row1 - row0) + 1));
    const char** at = reinterpret_cast<const char**>(storage.data());
    if (!table) {
      for (int64_t r = row0; r < row1; ++r) *at++ = head + b * batch_stride + r * row_stride;
    } else {
      for (int64_t r = row0; r < row1;) {
        const char* page = head + table[r / page_size] * batch_stride;
        for (int64_t i = r % page_size; i < page_size && r < row1; ++i, ++r) *at++ = page + i * row_stride;
      }
    }
    plane.set_u16(reinterpret_cast<uintptr_t>(storage.data()) - uintptr_t(8 * row0), 4, row1, 4);
  }
};

/// Per-thread scratch of a task: its query tile, the pipeline's output for one chunk of keys, and
/// the running row max, row sum and unnormalized P·V over the chunks so far.
struct TaskScratch {
  std::vector<float> q, chunk, acc, row_max, row_sum;
  std::vector<float> k_rows, v_rows;  // streamed K/V rows of the keys about to be visited
  std::vector<int32_t> windows;  // [lo, hi) pairs of keys the tile visits, sorted and disjoint
  int64_t cols = 0;  // Dv_pad: P·V columns of `chunk` and `acc`

  /// The tile's windows: [lo, hi), or with the caller's runs (version 3) the union of the runs of
  /// every block of `block_q` rows that meets rows [first_row, last_row], cut to [lo, hi).
  void window_runs(int32_t lo, int32_t hi, const int64_t* run_starts, const int64_t* runs, int64_t block_q,
                   int64_t first_row, int64_t last_row, int32_t keys) {
    windows.clear();
    if (!run_starts) {
      if (lo < hi) windows.insert(windows.end(), {lo, hi});
      return;
    }
    // The runs as (a << 32) | e, both non-negative: ordered as the pairs (a, e). qsort, not
    // std::sort: a few runs per tile, and std::sort's instantiation was 5% of a source's code.
    std::vector<uint64_t> found;
    for (int64_t blk = first_row / block_q; blk <= last_row / block_q; ++blk)
      for (int64_t r = run_starts[blk]; r < run_starts[blk + 1]; ++r) {
        int64_t a = runs[2 * r] > lo ? runs[2 * r] : lo, e = runs[2 * r + 1] < hi ? runs[2 * r + 1] : hi;
        if (a < e && a < keys) found.push_back(uint64_t(a) << 32 | uint64_t(e < keys ? e : keys));
      }
    qsort(found.data(), found.size(), sizeof(uint64_t), [](const void* x, const void* y) {
      const uint64_t u = *static_cast<const uint64_t*>(x), v = *static_cast<const uint64_t*>(y);
      return u < v ? -1 : u > v ? 1 : 0;
    });
    for (const uint64_t run : found) {
      const int32_t a = int32_t(run >> 32), e = int32_t(run & 0xffffffffu);
      if (!windows.empty() && a <= windows.back()) {
        if (e > windows.back()) windows.back() = e;
      } else {
        windows.insert(windows.end(), {a, e});
      }
    }
  }

  /// Keeps the parts of the windows within [lo, hi) (split-KV: this job's share of the keys).
  void clip(int32_t lo, int32_t hi) {
    size_t n = 0;
    for (size_t w = 0; w < windows.size(); w += 2) {
      int32_t a = windows[w] > lo ? windows[w] : lo, e = windows[w + 1] < hi ? windows[w + 1] : hi;
      if (a < e) windows[n++] = a, windows[n++] = e;
    }
    windows.resize(n);
  }

  void start(int64_t head_dim, int64_t dv_pad) {
    cols = dv_pad;
    q.resize(size_t(kTileQ * head_dim));
    chunk.resize(size_t(kTileQ * (dv_pad + kLanes)));
    acc.resize(size_t(kTileQ * dv_pad));
    row_max.assign(kTileQ, -INFINITY);
    row_sum.assign(kTileQ, 0.0f);
  }
  /// The pipeline's reports: where the chunk it just computed ends, and where the window ends.
  int32_t chunk_end() const { return report(2); }
  int32_t window_end() const { return report(3); }
  /// Folds the chunk's first `rows` rows (those that hold queries) into the running result (flash
  /// attention's rescaling, in log2 units).
  void absorb(bool first, int64_t rows) { absorb(chunk.data(), cols + kLanes, first, rows); }
  /// The same for partial rows `row_stride` floats apart, each P·V, then row max and row sum.
  void absorb(const float* partial, int64_t row_stride, bool first, int64_t rows) {
    for (int64_t r = 0; r < rows; ++r) {
      const float* part = partial + r * row_stride;
      float* a = acc.data() + r * cols;
      float m = part[cols], l = part[cols + 1];
      if (first) {
        memcpy(a, part, size_t(cols) * 4);
        row_max[size_t(r)] = m, row_sum[size_t(r)] = l;
        continue;
      }
      if (l == 0.0f) continue;  // the chunk masks the whole row (a NaN sum goes on: NaN must reach Out)
      float old_max = row_max[size_t(r)], new_max = m > old_max ? m : old_max;
      // Equal maxima keep their weights: inf - inf would be NaN when both are +Inf.
      float keep = old_max == new_max ? 1.0f : exp2f(old_max - new_max);
      float take = m == new_max ? 1.0f : exp2f(m - new_max);
      for (int64_t c = 0; c < cols; ++c) a[c] = a[c] * keep + part[c] * take;
      row_max[size_t(r)] = new_max, row_sum[size_t(r)] = row_sum[size_t(r)] * keep + l * take;
    }
  }

 private:
  int32_t report(int k) const {
    int32_t v;
    memcpy(&v, chunk.data() + cols + k, 4);
    return v;
  }
};
thread_local TaskScratch task_scratch;

/// A kernel buffer argument as a Halide buffer over the caller's memory (no copy).
struct BufferView {
  halide_buffer_t buf{};
  halide_dimension_t dim[8]{};
};

/// The first out-of-range buffer read of a row's own expressions (the sink), for the message.
struct RowLoadError {
  const char* buffer = nullptr;  // null: every read was in range
  int dim = 0;
  int32_t index = 0, extent = 0;
};

/// Element `idx` of a buffer, read by a row's own expressions; out of range: 0, and `e` says where.
template <class T, size_t N>
[[maybe_unused]] T row_load(RowLoadError& e, const BufferView& v, const char* name, const int32_t (&idx)[N]) {
  int64_t offset = 0;
  for (size_t d = 0; d < N; ++d) {
    if (idx[d] < 0 || idx[d] >= v.dim[d].extent) {
      if (!e.buffer) e = RowLoadError{name, int(d), idx[d], v.dim[d].extent};
      return T(0);
    }
    offset += int64_t(idx[d]) * v.dim[d].stride;
  }
  return reinterpret_cast<const T*>(v.buf.host)[offset];
}

/// The dense row-major element `idx` of a buffer (its gradient's position); out of range: -1, and
/// `e` says where.
template <size_t N>
[[maybe_unused]] int64_t row_element(RowLoadError& e, const BufferView& v, const char* name, const int32_t (&idx)[N]) {
  int64_t flat = 0;
  for (size_t d = 0; d < N; ++d) {
    if (idx[d] < 0 || idx[d] >= v.dim[d].extent) {
      if (!e.buffer) e = RowLoadError{name, int(d), idx[d], v.dim[d].extent};
      return -1;
    }
    flat = flat * v.dim[d].extent + idx[d];
  }
  return flat;
}

/// Folds a sink of logit `logit` (natural units) into a finished row: its kept keys' maximum `max`
/// (log2 units), their `sum` of exp2(s - max), and `scale`, the factor of the row's unnormalized
/// P·V. The sink is a key of value 0 that no mask hides: -inf is no sink, NaN makes the row NaN, +inf
/// takes the weight as a +inf score does (docs/language.md, "Sinks").
[[maybe_unused]] void fold_sink(float logit, float& max, float& sum, float& scale) {
  const float s = logit * 1.44269504088896341f;
  scale = 1.0f;
  if (s == -INFINITY || sum != sum) return;
  if (s != s) {
    sum = NAN;
    return;
  }
  if (sum == 0.0f) {  // no key reached the row: the sink alone
    max = s, sum = 1.0f, scale = 0.0f;
    return;
  }
  const float m = s > max ? s : max;
  scale = max == m ? 1.0f : exp2f(max - m);
  sum = sum * scale + (s == m ? 1.0f : exp2f(s - m));
  max = m;
}

// Unused by kernels without buffers: g++ warns of it in a source without x86 paths (portable, AArch64).
[[maybe_unused]] bool view_buffer(void* uc, const DLTensor* t, const char* name, int ndim, halide_type_t type, BufferView& v) {
  if (!t) return fail(uc, "%s: buffer '%s' is NULL", kKernelName, name), false;
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return fail(uc, "%s: buffer '%s' is not in CPU memory", kKernelName, name), false;
  if (t->ndim != ndim || ndim > 8)
    return fail(uc, "%s: buffer '%s' has %d dimensions, expected %d", kKernelName, name, t->ndim, ndim), false;
  bool is_bool = type.code == halide_type_uint;
  bool ok = t->dtype.lanes == 1 && t->dtype.bits == type.bits &&
            (is_bool ? (t->dtype.code == kDLUInt || t->dtype.code == kDLInt || t->dtype.code == 6)
                     : (type.code == halide_type_int ? t->dtype.code == kDLInt : t->dtype.code == kDLFloat));
  if (!ok)
    return fail(uc, "%s: buffer '%s' has element type %s, expected %s", kKernelName, name, dtype_text(t->dtype).text,
                is_bool ? "bool or u8" : type.code == halide_type_int ? "i32" : "f32"), false;
  for (int d = 0; d < ndim; ++d) {
    int64_t extent = t->shape[d], stride = stride_of(t, d);
    if (extent < 0 || extent >= (int64_t(1) << 31) || stride >= (int64_t(1) << 31) || stride < -(int64_t(1) << 31))
      return fail(uc, "%s: buffer '%s' is too large", kKernelName, name), false;
    v.dim[d] = halide_dimension_t{0, int32_t(extent), int32_t(stride), 0};  // IR indices in declared order
  }
  if (!t->data && ndim > 0) return fail(uc, "%s: buffer '%s' has no data", kKernelName, name), false;
  v.buf.host = reinterpret_cast<uint8_t*>(const_cast<char*>(base_of(t)));
  v.buf.type = type;
  v.buf.dimensions = ndim;
  v.buf.dim = v.dim;
  return true;
}

/// The dimensions of `t` as "[2, 8]", for messages.
struct ShapeText {
  char text[96];
};
inline ShapeText shape_text(const DLTensor* t) {
  ShapeText out;
  int at = snprintf(out.text, sizeof out.text, "[");
  for (int d = 0; d < t->ndim && at < int(sizeof out.text) - 24; ++d)
    at += snprintf(out.text + at, sizeof out.text - size_t(at), "%s%lld", d ? ", " : "", (long long)t->shape[d]);
  snprintf(out.text + at, sizeof out.text - size_t(at), "]");
  return out;
}

/// An FP8 kernel's descale factors of q, k or v (ABI version 7) from batch entry `b0` on: one per
/// (batch entry, key/value head), one for the whole tensor (strides 0), or none (1).
struct Descale {
  const char* base = nullptr;  // entry b0's first factor; null: 1
  int64_t b_stride = 0, h_stride = 0;  // in bytes
  float at(int64_t b, int64_t hk) const {
    float f = 1.0f;
    if (base) memcpy(&f, base + b * b_stride + hk * h_stride, 4);
    return f;
  }
};

/// The factors `t` holds (checked by check_descales) for the batch entries from `b0` on; `t` null: 1.
/// (Unused in a backward's source, which clang would warn of.)
[[maybe_unused]] inline Descale descale_of(const DLTensor* t, int64_t b0) {
  Descale d;
  if (!t) return d;
  d.base = base_of(t);
  if (t->ndim == 2) {
    d.b_stride = stride_of(t, 0) * 4, d.h_stride = stride_of(t, 1) * 4;
    d.base += b0 * d.b_stride;
  }
  return d;
}

/// The call's descale factors (version 7), before any work: f32 [1] or [N, Hkv] in CPU memory, for
/// N batch entries (a ragged batch's or paged cache's sequences) and Hkv key/value heads; a kernel
/// that is not FP8 takes none. Where q, k or the boundaries that give N and Hkv are malformed, their
/// own check fails the call later, before any factor is read. False, with the message written.
/// (Unused in a backward's source.)
[[maybe_unused]] inline bool check_descales(void* uc, const attn_kernel_args* args) {
  if (args->abi_version < 7) return true;
  const bool paged = args->page_table || args->kv_lens;
  const bool ragged = paged || args->cu_seqlens_q || args->cu_seqlens_k;
  const DLTensor* entries = paged ? args->kv_lens : ragged ? args->cu_seqlens_q : args->q;
  const int64_t N = entries && entries->ndim >= 1 ? entries->shape[0] - (ragged && !paged ? 1 : 0) : -1;
  const int head_dim = paged ? 2 : 1;  // K's key/value heads: [B, Hkv, L, D], [T, Hkv, D], [P, S, Hkv, D]
  const int64_t Hkv = args->k && args->k->ndim > head_dim ? args->k->shape[head_dim] : -1;
  const DLTensor* given[3] = {args->q_descale, args->k_descale, args->v_descale};
  const char* names[3] = {"q_descale", "k_descale", "v_descale"};
  for (int i = 0; i < 3; ++i) {
    const DLTensor* t = given[i];
    if (!t) continue;
    const char* name = names[i];
    if (!kFp8)
      return fail(uc, "%s: %s is given, but descale factors are for fp8 kernels (dtype e4m3 or e5m2) and this kernel's dtype is %s",
                  kKernelName, name, io_type_name(kIoType)), false;
    if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
      return fail(uc, "%s: %s is not in CPU memory", kKernelName, name), false;
    if (t->dtype.code != kDLFloat || t->dtype.bits != 32 || t->dtype.lanes != 1)
      return fail(uc, "%s: %s has element type %s, expected f32", kKernelName, name, dtype_text(t->dtype).text), false;
    if (N < 0 || Hkv < 0) continue;
    const bool per_tensor = t->ndim == 1 && t->shape[0] == 1;
    const bool per_head = t->ndim == 2 && t->shape[0] == N && t->shape[1] == Hkv;
    if (!per_tensor && !per_head)
      return fail(uc, "%s: %s has shape %s; expected [1] (the whole tensor) or [%lld, %lld] (per batch entry and key/value head)",
                  kKernelName, name, shape_text(t).text, (long long)N, (long long)Hkv), false;
    if (!t->data) return fail(uc, "%s: %s has no data", kKernelName, name), false;
  }
  return true;
}

}  // namespace
