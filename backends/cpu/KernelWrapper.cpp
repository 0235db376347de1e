// Text of the ABI wrapper: a fixed part (conversions, checks, staging) and the per-kernel call.
#include "backends/cpu/KernelWrapper.h"

#include <sstream>
#include <stdexcept>

namespace attn::cpu {

namespace {

// Everything that does not depend on the kernel's arguments.
const char* kFixed = R"cpp(namespace {

float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float f;
  if (exponent == 0) {
    f = float(mantissa) * 5.9604644775390625e-8f;  // subnormal: mantissa * 2^-24
    return sign ? -f : f;
  }
  uint32_t bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))
                                 : (sign | ((exponent + 112) << 23) | (mantissa << 13));
  memcpy(&f, &bits, 4);
  return f;
}

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

float bf16_to_float(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_bf16(float f) {  // round to nearest even
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
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
/// by the compiler), F16C eight at a time for f16 where the target has it.
void read_row(const char* src, float* dst, int64_t n) {
  if (kIoType == IoType::F32) {
    memcpy(dst, src, size_t(n) * 4);
    return;
  }
  int64_t c = 0;
#if defined(__F16C__)
  if (kIoType == IoType::F16)
    for (; c + 8 <= n; c += 8)
      _mm256_storeu_ps(dst + c, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * c))));
#endif
  for (; c < n; ++c) dst[c] = read_io(src + 2 * c);
}

void write_io(char* p, float f) {
  if (kIoType == IoType::F32) {
    memcpy(p, &f, 4);
    return;
  }
  uint16_t h = kIoType == IoType::F16 ? float_to_half(f) : float_to_bf16(f);
  memcpy(p, &h, 2);
}

int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

const char* io_type_name() { return kIoType == IoType::F32 ? "f32" : kIoType == IoType::F16 ? "f16" : "bf16"; }

bool is_io_type(DLDataType t) {
  if (t.lanes != 1) return false;
  if (kIoType == IoType::F32) return t.code == kDLFloat && t.bits == 32;
  if (kIoType == IoType::F16) return t.code == kDLFloat && t.bits == 16;
  return t.code == kDLBfloat && t.bits == 16;
}

/// Element stride of dimension d (compact row-major when the tensor has no strides).
int64_t stride_of(const DLTensor* t, int d) {
  if (t->strides) return t->strides[d];
  int64_t s = 1;
  for (int k = t->ndim - 1; k > d; --k) s *= t->shape[k];
  return s;
}

const char* base_of(const DLTensor* t) { return static_cast<const char*>(t->data) + t->byte_offset; }

/// Q, K, V, Out: on the CPU, `ndim`-D, the kernel's I/O type (f32 for LSE), last dim contiguous.
bool check_tensor(void* uc, const DLTensor* t, const char* name, int ndim, bool is_f32) {
  if (!t) return fail(uc, "%s: %s is NULL", kKernelName, name), false;
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return fail(uc, "%s: %s is not in CPU memory", kKernelName, name), false;
  if (t->ndim != ndim) return fail(uc, "%s: %s has %d dimensions, expected %d", kKernelName, name, t->ndim, ndim), false;
  int64_t elements = 1;
  for (int d = 0; d < ndim; ++d) elements *= t->shape[d] > 0 ? t->shape[d] : 0;
  if (!t->data && elements > 0) return fail(uc, "%s: %s has no data", kKernelName, name), false;
  bool type_ok = is_f32 ? (t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1) : is_io_type(t->dtype);
  if (!type_ok)
    return fail(uc, "%s: %s has element type (code %d, %d bits), expected %s", kKernelName, name, int(t->dtype.code),
                int(t->dtype.bits), is_f32 ? "f32" : io_type_name()), false;
  for (int d = 0; d < ndim; ++d)
    if (t->shape[d] < 0) return fail(uc, "%s: %s has a negative extent", kKernelName, name), false;
  if (t->shape[ndim - 1] > 1 && stride_of(t, ndim - 1) != 1)
    return fail(uc, "%s: the last dimension of %s is not contiguous (stride %lld)", kKernelName, name,
                (long long)stride_of(t, ndim - 1)), false;
  return true;
}

/// K or V as the tasks read them: rows of `cols` f32, one [L, cols] plane per (head, batch). The
/// caller's memory itself when it already is that (f32, rows of exactly `cols` floats, dense);
/// otherwise either a converted copy of the whole tensor (columns past the tensor's zero-filled),
/// or, when few tasks read each plane (decoding), nothing up front: each task converts the rows it
/// is about to visit into its own scratch (`streamed`), so keys the mask rules out are never read
/// and no tensor-sized buffer is allocated (its page faults cost more than the conversion).
struct KeySide {
  const float* base = nullptr;
  int64_t head_stride = 0, batch_stride = 0;  // in floats
  float* copy = nullptr;
  bool streamed = false;
  const char* src = nullptr;              // streamed: the caller's tensor
  int64_t src_b = 0, src_h = 0, src_l = 0;  // its strides in bytes
  int64_t src_cols = 0;                     // its last extent
  KeySide() = default;
  KeySide(const KeySide&) = delete;
  KeySide& operator=(const KeySide&) = delete;
  ~KeySide() { free(copy); }
  const float* plane(int64_t h, int64_t b) const { return base + b * batch_stride + h * head_stride; }
  /// Streamed: rows [row0, row1) of (head h, batch b) as f32 rows of `cols` into `dst`.
  void convert(int64_t h, int64_t b, int64_t row0, int64_t row1, int64_t cols, float* dst) const {
    for (int64_t r = row0; r < row1; ++r, dst += cols) {
      read_row(src + b * src_b + h * src_h + r * src_l, dst, src_cols);
      memset(dst + src_cols, 0, size_t(cols - src_cols) * 4);
    }
  }
};

bool prepare_key_side(void* uc, const DLTensor* t, const char* name, int64_t cols, bool stream, KeySide& s) {
  int64_t B = t->shape[0], H = t->shape[1], L = t->shape[2], C = t->shape[3];
  if (L * cols >= (int64_t(1) << 31))
    return fail(uc, "%s: %s has too many rows for this kernel (%lld)", kKernelName, name, (long long)L), false;
  const char* base = base_of(t);
  if (kIoType == IoType::F32 && C == cols && (L <= 1 || stride_of(t, 2) == cols) &&
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
      const char* src = base + b * sb + h * sh + r * sl;
      float* dst = s.copy + b * s.batch_stride + h * s.head_stride + r * cols;
      read_row(src, dst, C);
      memset(dst + C, 0, size_t(cols - C) * 4);
    }
    return 0;
  }) == 0;
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
    std::vector<std::pair<int32_t, int32_t>> found;
    for (int64_t blk = first_row / block_q; blk <= last_row / block_q; ++blk)
      for (int64_t r = run_starts[blk]; r < run_starts[blk + 1]; ++r) {
        int64_t a = runs[2 * r] > lo ? runs[2 * r] : lo, e = runs[2 * r + 1] < hi ? runs[2 * r + 1] : hi;
        if (a < e && a < keys) found.emplace_back(int32_t(a), int32_t(e < keys ? e : keys));
      }
    std::sort(found.begin(), found.end());
    for (const auto& [a, e] : found) {
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
  /// Folds the chunk into the running result (flash attention's rescaling, in log2 units).
  void absorb(bool first) { absorb(chunk.data(), cols + kLanes, first); }
  /// The same for partial rows `row_stride` floats apart, each P·V, then row max and row sum.
  void absorb(const float* rows, int64_t row_stride, bool first) {
    for (int64_t r = 0; r < kTileQ; ++r) {
      const float* part = rows + r * row_stride;
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

bool view_buffer(void* uc, const DLTensor* t, const char* name, int ndim, halide_type_t type, BufferView& v) {
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
    return fail(uc, "%s: buffer '%s' has element type (code %d, %d bits), expected %s", kKernelName, name,
                int(t->dtype.code), int(t->dtype.bits),
                is_bool ? "bool (8 bits)" : type.code == halide_type_int ? "i32" : "f32"), false;
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

}  // namespace
)cpp";

const char* dtype_enum(DType d) {
  switch (d) {
    case DType::F32: return "IoType::F32";
    case DType::F16: return "IoType::F16";
    case DType::BF16: return "IoType::BF16";
  }
  return "IoType::F32";
}

std::string buffer_type(ElemType e) {
  switch (e) {
    case ElemType::I32: return "halide_type_t(halide_type_int, 32, 1)";
    case ElemType::F32: return "halide_type_t(halide_type_float, 32, 1)";
    case ElemType::Bool: return "halide_type_t(halide_type_uint, 8, 1)";
  }
  return "";
}

std::string scalar_value(const KernelArg& a, int index) {
  std::string v = "args->scalars[" + std::to_string(index) + "]";
  switch (a.elem) {
    case ElemType::I32: return "int32_t(" + v + ")";
    case ElemType::F32: return "float(" + v + ")";
    case ElemType::Bool: return "(" + v + " != 0.0)";
  }
  return v;
}

std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

/// Keys per block of the wrapper's key-block test (a multiple of every ISA's key block).
constexpr int kSkipBlock = 64;

}  // namespace

std::string emit_wrapper(const WrapperSpec& spec) {
  const Geometry& g = spec.geometry;
  if (g.key_chunk % kSkipBlock)  // streamed K/V pieces start on key blocks
    throw std::logic_error("internal error: key_chunk is not a multiple of the wrapper's key block");
  int num_buffers = 0, num_scalars = 0;
  for (const KernelArg& a : spec.args) (a.kind == KernelArg::Kind::Buffer ? num_buffers : num_scalars)++;

  std::ostringstream o;
  o << "namespace {\n\nenum class IoType { F32, F16, BF16 };\n"
    << "constexpr const char* kKernelName = " << c_string(spec.kernel) << ";\n"
    << "constexpr int kLanes = " << g.vector_lanes << ", kTileQ = " << g.tile_q << ";\n"
    << "constexpr int32_t kKeyChunk = " << g.key_chunk << ";  // keys per pipeline call at most\n"
    << "constexpr int64_t kHeadDim = " << g.head_dim << ", kValueDim = " << g.value_dim
    << ";  // 0: any\n"
    << "constexpr IoType kIoType = " << dtype_enum(spec.dtype) << ";\n"
    << "constexpr bool kLseRequired = " << (spec.lse_required ? "true" : "false") << ";\n"
    << "constexpr bool kPackHeads = " << (spec.pack_heads ? "true" : "false")
    << ";  // the mask and score ignore the head: decoding packs a group's heads\n"
    << "constexpr int kNumBuffers = " << num_buffers << ", kNumScalars = " << num_scalars << ";\n\n"
    << "}  // namespace\n\n";
  o << kFixed << "\n";
  o << "namespace {\n\n";
  if (!spec.keys_masked.empty()) {
    o << R"cpp(/// Integer division and modulo as in the IR (Euclidean; x / 0 == 0 and x % 0 == 0).
[[maybe_unused]] int attn_div_i32(int a, int b) {
  if (b == 0) return 0;
  int q = a / b, r = a % b;
  if (r < 0) q += b > 0 ? -1 : 1;
  return q;
}
[[maybe_unused]] int attn_mod_i32(int a, int b) {
  if (b == 0) return 0;
  int r = a % b;
  if (r < 0) r += b > 0 ? b : -b;
  return r;
}
[[maybe_unused]] float attn_mod_f32(float a, float b) { return a - b * floorf(a / b); }
[[maybe_unused]] int attn_min_i32(int a, int b) { return a < b ? a : b; }
[[maybe_unused]] int attn_max_i32(int a, int b) { return a > b ? a : b; }

)cpp";
  }
  o << "/// Keys in blocks of " << kSkipBlock << ": blocks that the mask rules out for a whole query tile are skipped.\n"
    << "constexpr int kSkipBlock = " << kSkipBlock << ";\n"
    << "constexpr bool kHasKeyTest = " << (spec.keys_masked.empty() ? "false" : "true") << ";\n\n"
    << "/// Whether the mask is false for every query in [q_min, q_max] and key in [kv_min, kv_max]: a\n"
    << "/// sufficient condition from interval analysis of the mask (codegen/PlanTiles), or false.\n"
    << "bool keys_masked([[maybe_unused]] int q_min, [[maybe_unused]] int q_max, [[maybe_unused]] int kv_min,\n"
    << "                 [[maybe_unused]] int kv_max, [[maybe_unused]] int b_min, [[maybe_unused]] int b_max,\n"
    << "                 [[maybe_unused]] int h_min, [[maybe_unused]] int h_max,\n"
    << "                 [[maybe_unused]] const double* scalars) {\n"
    << "  return " << (spec.keys_masked.empty() ? "false" : spec.keys_masked) << ";\n}\n\n"
    << "}  // namespace\n\n";

  o << "extern \"C\" __attribute__((visibility(\"default\"))) int " << spec.entry << "(const attn_kernel_args* args) {\n"
    << R"cpp(  if (!args) return -1;
  unsigned hardware = std::thread::hardware_concurrency();
  Context ctx{args->error, args->error_size, args->num_threads > 0 ? args->num_threads : (hardware ? int(hardware) : 1), false};
  void* uc = &ctx;
  if (args->error && args->error_size) args->error[0] = '\0';
  if (args->abi_version < 1 || args->abi_version > ATTN_KERNEL_ABI_VERSION)
    return fail(uc, "%s: ABI version %d, expected 1 to %d", kKernelName, args->abi_version, ATTN_KERNEL_ABI_VERSION),
           -1;
  if (!check_tensor(uc, args->q, "q", 4, false) || !check_tensor(uc, args->k, "k", 4, false) ||
      !check_tensor(uc, args->v, "v", 4, false) || !check_tensor(uc, args->out, "out", 4, false))
    return -1;
  const int64_t* qs = args->q->shape;
  const int64_t* ks = args->k->shape;
  const int64_t* vs = args->v->shape;
  const int64_t* os = args->out->shape;
  int64_t B = qs[0], Hq = qs[1], Lq = qs[2], D = qs[3], Hkv = ks[1], Lk = ks[2], Dv = vs[3];
  if (ks[0] != B || ks[3] != D)
    return fail(uc, "%s: k has shape [%lld, %lld, %lld, %lld]; expected [%lld, Hkv, Lk, %lld] to match q", kKernelName,
                (long long)ks[0], (long long)ks[1], (long long)ks[2], (long long)ks[3], (long long)B, (long long)D), -1;
  if (vs[0] != B || vs[1] != Hkv || vs[2] != Lk)
    return fail(uc, "%s: v has shape [%lld, %lld, %lld, %lld]; expected [%lld, %lld, %lld, Dv] to match k", kKernelName,
                (long long)vs[0], (long long)vs[1], (long long)vs[2], (long long)vs[3], (long long)B, (long long)Hkv,
                (long long)Lk), -1;
  if (os[0] != B || os[1] != Hq || os[2] != Lq || os[3] != Dv)
    return fail(uc, "%s: out has shape [%lld, %lld, %lld, %lld]; expected [%lld, %lld, %lld, %lld]", kKernelName,
                (long long)os[0], (long long)os[1], (long long)os[2], (long long)os[3], (long long)B, (long long)Hq,
                (long long)Lq, (long long)Dv), -1;
  if (Hkv <= 0 || Hq % Hkv != 0)
    return fail(uc, "%s: %lld query heads are not a multiple of %lld key/value heads", kKernelName, (long long)Hq,
                (long long)Hkv), -1;
  if ((kHeadDim && D != kHeadDim) || D <= 0)
    return fail(uc, "%s: head dimension %lld, the kernel was compiled for %lld", kKernelName, (long long)D,
                (long long)kHeadDim), -1;
  if ((kValueDim && Dv != kValueDim) || Dv <= 0)
    return fail(uc, "%s: value dimension %lld, the kernel was compiled for %lld", kKernelName, (long long)Dv,
                (long long)kValueDim), -1;
  if (kLseRequired && !args->lse)
    return fail(uc, "%s: the kernel writes the log-sum-exp, but lse is NULL", kKernelName), -1;
  if (args->lse) {
    if (!check_tensor(uc, args->lse, "lse", 3, true)) return -1;
    const int64_t* ls = args->lse->shape;
    if (ls[0] != B || ls[1] != Hq || ls[2] != Lq)
      return fail(uc, "%s: lse has shape [%lld, %lld, %lld]; expected [%lld, %lld, %lld]", kKernelName,
                  (long long)ls[0], (long long)ls[1], (long long)ls[2], (long long)B, (long long)Hq, (long long)Lq), -1;
  }
  if (args->num_buffers != kNumBuffers || (kNumBuffers && !args->buffers))
    return fail(uc, "%s: %d buffers given, the kernel takes %d", kKernelName, args->num_buffers, kNumBuffers), -1;
  if (args->num_scalars != kNumScalars || (kNumScalars && !args->scalars))
    return fail(uc, "%s: %d scalars given, the kernel takes %d", kKernelName, args->num_scalars, kNumScalars), -1;
  if (B == 0 || Hq == 0 || Lq == 0) return 0;
)cpp";
  for (int bi = 0; const KernelArg& a : spec.args) {
    if (a.kind != KernelArg::Kind::Buffer) continue;
    o << "  BufferView buffer" << bi << ";\n"
      << "  if (!view_buffer(uc, args->buffers[" << bi << "], " << c_string(a.name) << ", " << a.dims.size()
      << ", " << buffer_type(a.elem) << ", buffer" << bi << ")) return -1;\n";
    ++bi;
  }
  o << R"cpp(  char* out_base = static_cast<char*>(args->out->data) + args->out->byte_offset;
  int64_t esize = args->out->dtype.bits / 8;
  int64_t ob = stride_of(args->out, 0) * esize, oh = stride_of(args->out, 1) * esize, ol = stride_of(args->out, 2) * esize;
  float* lse_base = args->lse ? reinterpret_cast<float*>(static_cast<char*>(args->lse->data) + args->lse->byte_offset) : nullptr;
  int64_t lb = args->lse ? stride_of(args->lse, 0) : 0, lh = args->lse ? stride_of(args->lse, 1) : 0;
  int64_t ll = args->lse ? stride_of(args->lse, 2) : 0;
  if (Lk == 0) {  // no keys: every row is fully masked
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < Hq; ++h)
        for (int64_t r = 0; r < Lq; ++r) {
          for (int64_t c = 0; c < Dv; ++c) write_io(out_base + b * ob + h * oh + r * ol + c * esize, 0.0f);
          if (lse_base) lse_base[b * lb + h * lh + r * ll] = -INFINITY;
        }
    return 0;
  }
  int64_t Dv_pad = round_up(Dv, kLanes);
  int64_t groups = Hq / Hkv;
  // Decoding (one query row) with grouped heads: the query heads that share a key/value head fill
  // the rows of one tile (row r is head h + r, query 0) instead of one head per 32-row tile. Only
  // when the mask and score do not read the head index.
  const bool pack = kPackHeads && Lq == 1 && groups > 1;
  const int64_t chunks_per_group = (groups + kTileQ - 1) / kTileQ;
  // K and V that need converting are converted by the tasks themselves when at most two tasks
  // read each key/value plane, once up front otherwise.
  const int64_t tasks_per_plane = pack ? chunks_per_group : (Lq + kTileQ - 1) / kTileQ * groups;
  KeySide k, v;
  if (!prepare_key_side(uc, args->k, "k", D, tasks_per_plane <= 2, k) ||
      !prepare_key_side(uc, args->v, "v", Dv_pad, tasks_per_plane <= 2, v))
    return -1;
  const char* q_base = base_of(args->q);
  int64_t q_esize = args->q->dtype.bits / 8;
  int64_t qb = stride_of(args->q, 0) * q_esize, qh = stride_of(args->q, 1) * q_esize, ql = stride_of(args->q, 2) * q_esize;
  // Keys each query tile may see, [lo, hi): all of them, or for a mask that reads buffers the hull
  // of the caller's ranges (version 2) over the tile's rows. The pipeline intersects it with the
  // mask's closed-form hull.
  int64_t tiles = (Lq + kTileQ - 1) / kTileQ;
  if (tiles * Hq * B >= (int64_t(1) << 31))
    return fail(uc, "%s: too many query tiles (%lld)", kKernelName, (long long)(tiles * Hq * B)), -1;
  std::vector<int32_t> window(size_t(2 * tiles));
)cpp";
  o << (spec.kv_ranges ? "  const int64_t* given = args->abi_version >= 2 ? args->kv_ranges : nullptr;\n"
                         "  const int64_t* run_starts = given && args->abi_version >= 3 && args->kv_runs ? args->kv_run_starts : nullptr;\n"
                         "  const int64_t* runs = run_starts ? args->kv_runs : nullptr;\n"
                       : "  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused\n"
                         "  const int64_t* run_starts = nullptr;\n  const int64_t* runs = nullptr;\n");
  o << R"cpp(  int64_t given_block = given ? args->kv_ranges_block_q : 0;
  if (given && given_block <= 0)
    return fail(uc, "%s: kv_ranges_block_q is %lld", kKernelName, (long long)given_block), -1;
  if (run_starts) {
    int64_t blocks = (Lq + given_block - 1) / given_block;
    for (int64_t blk = 0; blk < blocks; ++blk)
      if (run_starts[0] != 0 || run_starts[blk + 1] < run_starts[blk])
        return fail(uc, "%s: kv_run_starts is not non-decreasing from 0 (block %lld)", kKernelName, (long long)blk), -1;
  }
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t lo = 0, hi = Lk;
    if (given) {
      lo = Lk, hi = 0;
      int64_t last_row = t * kTileQ + kTileQ < Lq ? t * kTileQ + kTileQ - 1 : Lq - 1;
      for (int64_t blk = t * kTileQ / given_block; blk <= last_row / given_block; ++blk) {
        int64_t a = given[2 * blk] > 0 ? given[2 * blk] : 0, e = given[2 * blk + 1] < Lk ? given[2 * blk + 1] : Lk;
        if (a < e) lo = a < lo ? a : lo, hi = e > hi ? e : hi;
      }
      if (lo >= hi) lo = hi = 0;
    }
    window[size_t(2 * t)] = int32_t(lo), window[size_t(2 * t + 1)] = int32_t(hi);
  }
  // One task per (query tile, query head, batch entry), tiles innermost: neighbouring tasks read
  // the same key/value head.
  const int64_t task_count = pack ? chunks_per_group * Hkv * B : tiles * Hq * B;
  const int64_t q_step = pack ? 0 : 1, head_step = pack ? 1 : 0;
  // Where task `task` is: its query tile t, first head h, batch entry b, first query row0, rows.
  auto locate = [&](int64_t task, int64_t& t, int64_t& h, int64_t& b, int64_t& row0, int64_t& rows) {
    if (pack) {
      int64_t chunk = task % chunks_per_group, hk = task / chunks_per_group % Hkv;
      t = 0, row0 = 0, b = task / chunks_per_group / Hkv, h = hk * groups + chunk * kTileQ;
      rows = groups - chunk * kTileQ < kTileQ ? groups - chunk * kTileQ : kTileQ;
    } else {
      t = task % tiles, h = task / tiles % Hq, b = task / tiles / Hq;
      row0 = t * kTileQ, rows = Lq - row0 < kTileQ ? Lq - row0 : kTileQ;
    }
  };
  // Out = P·V / sum and LSE of one finished row, in the caller's layout and type; a row that no key
  // reached is Out 0, LSE -inf; a NaN sum (a NaN score) gives NaN. `pv` is unnormalized, `max` in
  // log2 units.
  auto write_row = [&](int64_t b, int64_t hr, int64_t qr, const float* pv, float max, float sum) {
    const bool reached = sum != 0.0f;
    float inv = reached ? 1.0f / sum : 0.0f;
    char* dst = out_base + b * ob + hr * oh + qr * ol;
    for (int64_t c = 0; c < Dv; ++c) write_io(dst + c * esize, reached ? pv[c] * inv : 0.0f);
    if (lse_base) lse_base[b * lb + hr * lh + qr * ll] = reached ? max * 0.693147180559945309f + logf(sum) : -INFINITY;
  };
  // Split-KV: with fewer tasks than threads (decoding), each task's keys are cut into `splits`
  // shares of whole key blocks, at least one chunk each, computed as jobs of their own; each
  // leaves its rows unnormalized in `partial` and a second pass merges them.
  int64_t splits = 1;
  if (task_count < ctx.threads) {
    splits = (ctx.threads + task_count - 1) / task_count;
    if (splits > Lk / kKeyChunk) splits = Lk / kKeyChunk;
    if (splits < 1) splits = 1;
  }
  const int64_t share = round_up((Lk + splits - 1) / splits, kSkipBlock);
  const int64_t slot_floats = Dv_pad + 2;  // P·V, max, sum
  std::vector<float> partial(splits > 1 ? size_t(task_count * splits * kTileQ * slot_floats) : 0);
  int status = parallel_for(uc, int(task_count * splits), [&](int job) {
    const int64_t task = job / splits, part = job % splits;
    int64_t t, h, b, row0, rows;
    locate(task, t, h, b, row0, rows);
    const int64_t last_q = row0 + (rows - 1) * q_step, last_h = h + (rows - 1) * head_step;
    TaskScratch& scratch = task_scratch;
    scratch.start(D, Dv_pad);
    // The tile's queries as f32 (rows past Lq zero).
    for (int64_t r = 0; r < kTileQ; ++r) {
      float* dst = scratch.q.data() + r * D;
      if (r >= rows) {
        memset(dst, 0, size_t(D) * 4);
        continue;
      }
      const char* src = q_base + b * qb + (h + r * head_step) * qh + (row0 + r * q_step) * ql;
      read_row(src, dst, D);
    }
    Plane q_tile(scratch.q.data(), D, kTileQ), out_tile(scratch.chunk.data(), Dv_pad + kLanes, kTileQ);
    Plane k_head, v_head;
    if (!k.streamed) k_head.set(k.plane(h / groups, b), D, Lk, 0);
    if (!v.streamed) v_head.set(v.plane(h / groups, b), Dv_pad, Lk, 0);
    // The window's runs of key blocks that the mask may allow, each chunk by chunk: the pipeline
    // takes at most )cpp"
    << g.key_chunk << R"cpp( keys a call, so the scores stay in cache.
    scratch.window_runs(window[size_t(2 * t)], window[size_t(2 * t + 1)], run_starts, runs, given_block, row0,
                        last_q, int32_t(Lk));
    if (splits > 1) scratch.clip(int32_t(part * share), int32_t(part * share + share));
    int32_t hi = 0;
    auto block_end = [&](int32_t x) {
      int32_t end = (x / kSkipBlock + 1) * kSkipBlock;
      return end < hi ? end : hi;
    };
    auto masked = [&](int32_t x) {
      return kHasKeyTest && keys_masked(int(row0), int(last_q), x, block_end(x) - 1, int(b), int(b), int(h),
                                        int(last_h), args->scalars);
    };
    bool first = true;
    for (size_t w = 0; w < scratch.windows.size(); w += 2) {
      hi = scratch.windows[w + 1];
      for (int32_t run_lo = scratch.windows[w]; run_lo < hi;) {
        if (masked(run_lo)) {
          run_lo = block_end(run_lo);
          continue;
        }
        int32_t run_hi = kHasKeyTest ? block_end(run_lo) : hi;
        while (run_hi < hi && !masked(run_hi)) run_hi = block_end(run_hi);
        // The run in place, or with streamed K/V in pieces of at most one chunk from a key block
        // start, each piece's rows converted into the task's scratch first.
        for (int32_t piece_lo = run_lo; piece_lo < run_hi;) {
          int32_t piece_hi = run_hi;
          if (k.streamed || v.streamed) {
            const int32_t first_row = piece_lo / kSkipBlock * kSkipBlock;
            piece_hi = first_row + kKeyChunk < run_hi ? first_row + kKeyChunk : run_hi;
            const int64_t end_row = round_up(piece_hi, kSkipBlock) < Lk ? round_up(piece_hi, kSkipBlock) : Lk;
            if (k.streamed) {
              scratch.k_rows.resize(size_t((end_row - first_row) * D));
              k.convert(h / groups, b, first_row, end_row, D, scratch.k_rows.data());
              k_head.set(scratch.k_rows.data(), D, end_row - first_row, first_row);
            }
            if (v.streamed) {
              scratch.v_rows.resize(size_t((end_row - first_row) * Dv_pad));
              v.convert(h / groups, b, first_row, end_row, Dv_pad, scratch.v_rows.data());
              v_head.set(scratch.v_rows.data(), Dv_pad, end_row - first_row, first_row);
            }
          }
          for (int32_t next = piece_lo;;) {
)cpp";
  o << "            int result = " << spec.pipeline
    << "(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(Lq), int32_t(Lk), int32_t(D),\n"
    << "                int32_t(Dv_pad), int32_t(t), int32_t(q_step), int32_t(h), int32_t(b), piece_lo, piece_hi, next";
  int bi = 0;
  int si = 0;
  for (const KernelArg& a : spec.args) {
    if (a.kind == KernelArg::Kind::Buffer)
      o << ", &buffer" << bi++ << ".buf";
    else
      o << ", " << scalar_value(a, si++);
  }
  o << ", &out_tile.buf);\n";
  o << R"cpp(            if (result != 0) {
              if (!ctx.failed) fail(uc, "%s: the kernel failed (Halide error %d)", kKernelName, result);
              return result;
            }
            scratch.absorb(first);
            first = false;
            if (scratch.chunk_end() >= scratch.window_end()) break;
            next = scratch.chunk_end();
          }
          piece_lo = piece_hi;
        }
        run_lo = run_hi;
      }
    }
    for (int64_t r = 0; r < rows; ++r) {
      const float* pv = scratch.acc.data() + r * Dv_pad;
      const float max = scratch.row_max[size_t(r)], sum = scratch.row_sum[size_t(r)];
      if (splits == 1) {
        write_row(b, h + r * head_step, row0 + r * q_step, pv, max, sum);
        continue;
      }
      float* slot = partial.data() + ((task * splits + part) * kTileQ + r) * slot_floats;
      if (sum != 0.0f)
        memcpy(slot, pv, size_t(Dv_pad) * 4);
      else
        memset(slot, 0, size_t(Dv_pad) * 4);  // a share with no allowed key
      slot[Dv_pad] = max, slot[Dv_pad + 1] = sum;
    }
    return 0;
  });
  if (status != 0 || splits == 1) return status;
  // Merge the shares as the chunks of one share were merged.
  return parallel_for(uc, int(task_count), [&](int task) {
    int64_t t, h, b, row0, rows;
    locate(task, t, h, b, row0, rows);
    TaskScratch& scratch = task_scratch;
    scratch.start(D, Dv_pad);
    for (int64_t part = 0; part < splits; ++part)
      scratch.absorb(partial.data() + (task * splits + part) * kTileQ * slot_floats, slot_floats, part == 0);
    for (int64_t r = 0; r < rows; ++r)
      write_row(b, h + r * head_step, row0 + r * q_step, scratch.acc.data() + r * Dv_pad, scratch.row_max[size_t(r)],
                scratch.row_sum[size_t(r)]);
    return 0;
  });
}
)cpp";
  return o.str();
}

}  // namespace attn::cpu
