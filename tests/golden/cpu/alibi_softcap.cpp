// attnc: CPU kernel 'alibi_softcap' (bf16 I/O), Halide-scheduled. Generated; do not edit.
// Vector paths: avx512; the first call takes the widest this CPU runs (ATTNC_CPU_ISA=<path> forces a narrower one).
// Build: c++ -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -c alibi_softcap.cpp
// (no -m flags: each path's functions carry their own ISA. clang++ is fastest; with g++ add -fno-tree-sra,
// or the accumulators leave registers.)
// attnc-source-parts: 2 (the loader compiles -DATTN_PART=1, the Halide pipelines, and -DATTN_PART=2, the entry
// points, side by side and links them; any other build compiles the file whole)
// Entry: int attn_alibi_softcap(const attn_kernel_args*), declared in alibi_softcap.h.
#include "alibi_softcap.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <pthread.h>  // the worker threads (<thread>, <mutex>, <condition_variable> cost a compile 0.15 s)
#include <unistd.h>   // getpid: the worker threads are the parent's after fork(); sysconf: the CPUs
#if defined(__x86_64__)
#include <cpuid.h>  // whether the CPU has F16C, AVX512-BF16, AMX
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>  // arch_prctl: the permission to use AMX tiles
#endif

#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_max)
#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop
#endif
#endif

// A product and the sum it feeds as one fused multiply-add, as g++ compiles C++ by default: Halide
// writes them as two statements, which clang fuses only under this pragma (one rounding instead of
// two; on Intel cores one uop instead of two on the ports the FMAs use).
#if defined(__clang__)
#pragma clang fp contract(fast)
#endif

#ifndef ATTN_PART
#define ATTN_PART 0  // the whole source
#endif
// ---- Halide's includes and runtime header (Halide 14 CodeGen_C output), shared by the paths ----

// [Halide runtime header: 2454 lines, hash e6b37a9abfd88c74]



// ---- The Halide runtime functions the paths call ----
// [cpu runtime glue for 18 runtime functions: 282 lines, hash 2fadd191b003e120]

// ---- Vector path 'avx512': its Halide pipeline and entry point ----
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw")
#endif
namespace attn_alibi_softcap_avx512 {

#if ATTN_PART != 2  // part 1: the Halide pipelines
// ---- Halide's helpers ----
// [Halide's helper block: 151 lines, hash 6f117896fb577891]
// ---- The Halide pipeline ----
// ---- The path's own code: vector classes, pipeline ----
// [fixed text: backends/cpu/fixed/HalideVectorOps.h, 859 lines]
#if halide_cpp_use_native_vector(uint8_t, 8)
using uint8x8_t = NativeVector<uint8_t, 8>;
using uint8x8_t_ops = NativeVectorOps<uint8_t, 8>;
#else
using uint8x8_t = CppVector<uint8_t, 8>;
using uint8x8_t_ops = CppVectorOps<uint8_t, 8>;
#endif
#if halide_cpp_use_native_vector(int32_t, 8)
using int32x8_t = NativeVector<int32_t, 8>;
using int32x8_t_ops = NativeVectorOps<int32_t, 8>;
#else
using int32x8_t = CppVector<int32_t, 8>;
using int32x8_t_ops = CppVectorOps<int32_t, 8>;
#endif
#if halide_cpp_use_native_vector(float, 8)
using float8 = NativeVector<float, 8>;
using float8_ops = NativeVectorOps<float, 8>;
#else
using float8 = CppVector<float, 8>;
using float8_ops = CppVectorOps<float, 8>;
#endif
#if halide_cpp_use_native_vector(int64_t, 8)
using int64x8_t = NativeVector<int64_t, 8>;
using int64x8_t_ops = NativeVectorOps<int64_t, 8>;
#else
using int64x8_t = CppVector<int64_t, 8>;
using int64x8_t_ops = CppVectorOps<int64_t, 8>;
#endif
#if halide_cpp_use_native_vector(uint64_t, 8)
using uint64x8_t = NativeVector<uint64_t, 8>;
using uint64x8_t_ops = NativeVectorOps<uint64_t, 8>;
#else
using uint64x8_t = CppVector<uint64_t, 8>;
using uint64x8_t_ops = CppVectorOps<uint64_t, 8>;
#endif
#if halide_cpp_use_native_vector(uint8_t, 16)
using uint8x16_t = NativeVector<uint8_t, 16>;
using uint8x16_t_ops = NativeVectorOps<uint8_t, 16>;
#else
using uint8x16_t = CppVector<uint8_t, 16>;
using uint8x16_t_ops = CppVectorOps<uint8_t, 16>;
#endif
#if halide_cpp_use_native_vector(int32_t, 16)
using int32x16_t = NativeVector<int32_t, 16>;
using int32x16_t_ops = NativeVectorOps<int32_t, 16>;
#else
using int32x16_t = CppVector<int32_t, 16>;
using int32x16_t_ops = CppVectorOps<int32_t, 16>;
#endif
#if halide_cpp_use_native_vector(uint32_t, 16)
using uint32x16_t = NativeVector<uint32_t, 16>;
using uint32x16_t_ops = NativeVectorOps<uint32_t, 16>;
#else
using uint32x16_t = CppVector<uint32_t, 16>;
using uint32x16_t_ops = CppVectorOps<uint32_t, 16>;
#endif
#if halide_cpp_use_native_vector(float, 16)
using float16 = NativeVector<float, 16>;
using float16_ops = NativeVectorOps<float, 16>;
#else
using float16 = CppVector<float, 16>;
using float16_ops = CppVectorOps<float, 16>;
#endif
#if halide_cpp_use_native_vector(int64_t, 16)
using int64x16_t = NativeVector<int64_t, 16>;
using int64x16_t_ops = NativeVectorOps<int64_t, 16>;
#else
using int64x16_t = CppVector<int64_t, 16>;
using int64x16_t_ops = CppVectorOps<int64_t, 16>;
#endif
#if halide_cpp_use_native_vector(uint64_t, 16)
using uint64x16_t = NativeVector<uint64_t, 16>;
using uint64x16_t_ops = NativeVectorOps<uint64_t, 16>;
#else
using uint64x16_t = CppVector<uint64_t, 16>;
using uint64x16_t_ops = CppVectorOps<uint64_t, 16>;
#endif

#ifdef __cplusplus
extern "C" {
#endif

HALIDE_FUNCTION_ATTRS
// [Halide pipeline attn_alibi_softcap_avx512_pipeline: 4176 lines, hash 3b089fc06fbbd27b]

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
#if ATTN_PART == 2  // part 1's pipeline, called here
extern "C" int attn_alibi_softcap_avx512_pipeline(void const *__user_context, struct halide_buffer_t *_attn_q_buffer, struct halide_buffer_t *_attn_k_buffer, struct halide_buffer_t *_attn_v_buffer, int32_t _attn_lq, int32_t _attn_lk, int32_t _attn_d, int32_t _attn_dv_pad, int32_t _attn_tile, int32_t _attn_rows, int32_t _attn_decoding, int32_t _attn_q_step, int32_t _attn_q0, int32_t _attn_head, int32_t _attn_batch, int32_t _attn_kv_lo, int32_t _attn_kv_hi, int32_t _attn_chunk_lo, struct halide_buffer_t *_slopes_buffer, struct halide_buffer_t *_attn_out_buffer);
#endif
#if ATTN_PART != 1  // part 2: the entry points
// ---- The path's element types and conversions ----
// The kernel's element type: what Q, K and V hold (filled in per kernel), and whether
// it is FP8. Before the rest of a path's code that reads it: the entry point, and a matrix path's
// extern stages (backends/cpu/SourceParts.h: both parts of its source).
namespace {

enum class IoType { F32, F16, BF16, E4M3, E5M2 };
constexpr IoType kIoType = IoType::BF16;  // Q, K and V's
constexpr bool kFp8 = kIoType == IoType::E4M3 || kIoType == IoType::E5M2;  // descaled Q, K, V; no backward

}  // namespace

// Element conversions that the entry point and (the FP8 table) a matrix path's extern stages share:
// f32 to bf16, f16 and FP8 to f32.
namespace {

uint16_t float_to_bf16(float f) {  // round to nearest even; a NaN stays a (quiet) NaN
  uint32_t x;
  memcpy(&x, &f, 4);
  const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16, nan = (x >> 16) | 0x40u;
  return uint16_t((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);  // a select, so loops of it vectorize
}

/// An f16 element as f32 (f16 inputs and E5M2, an f16's top byte). Inline: most sources never call it.
inline float half_to_float(uint16_t h) {
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

/// An OCP FP8 element as f32: E4M3 (bias 7, no infinities, S.1111.111 NaN) or E5M2 (an f16's
/// top byte).
inline float fp8_to_float(uint8_t x) {
  if (kIoType == IoType::E5M2) return half_to_float(uint16_t(x << 8));
  const uint32_t sign = uint32_t(x & 0x80u) << 24, exponent = (x >> 3) & 0xfu, mantissa = x & 7u;
  if (exponent == 15 && mantissa == 7) return NAN;
  if (exponent == 0) {
    const float f = float(mantissa) * 0.001953125f;  // subnormal: mantissa * 2^-9
    return sign ? -f : f;
  }
  const uint32_t bits = sign | ((exponent + 120) << 23) | (mantissa << 20);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/// Every FP8 value as f32, built once: the rows' conversion is a table lookup.
struct Fp8Values {
  float value[256];
  Fp8Values() {
    for (int i = 0; i < 256; ++i) value[i] = fp8_to_float(uint8_t(i));
  }
};

}  // namespace


// ---- The path's attn_kernel_args entry point ----
namespace {

constexpr const char* kKernelName = "alibi_softcap";
constexpr int kLanes = 16, kTileQ = 32;
constexpr int32_t kKeyChunk = 1024;  // keys per pipeline call at most
// A call whose tasks have at most this many query rows each (one token of a few heads) takes the
// decoding layout: the pipeline computes the scores of those rows only.
constexpr int64_t kDecodeRows = 8;
constexpr int64_t kHeadDim = 0, kValueDim = 0;  // 0: any
constexpr IoType kOutType = kFp8 ? IoType::BF16 : kIoType;  // Out's: bf16 for FP8 inputs
constexpr bool kLseRequired = true;
constexpr bool kMaxRequired = false;  // return_max: the row maxima (attn_kernel_args::max)
constexpr bool kPackHeads = false;  // the mask and score ignore the head: decoding packs a group's heads
constexpr int kNumBuffers = 1, kNumScalars = 0;
struct DTypeName {
  uint8_t code, bits;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{2, 32, "f32"}, {2, 16, "f16"}, {4, 16, "bf16"}, {2, 64, "f64"}, {0, 32, "i32"}, {0, 64, "i64"}, {6, 8, "bool"}, {1, 8, "u8"}, {10, 8, "e4m3"}, {12, 8, "e5m2"}};

}  // namespace

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 438 lines]

// [fixed text: backends/cpu/fixed/F32Staging.h, 165 lines]

namespace {

// [fixed text: backends/cpu/fixed/IrIntegerOps.h, 17 lines]
/// Keys in blocks of 64: blocks that the mask rules out for a whole query tile are skipped.
constexpr int kSkipBlock = 64;
constexpr bool kHasKeyTest = true;

/// Whether the mask is false for every query in [q_min, q_max] and key in [kv_min, kv_max] when
/// `q_len` and `kv_len` are q_len and kv_len: a sufficient condition from interval analysis of the
/// mask (codegen/PlanTiles), or false.
bool keys_masked([[maybe_unused]] int q_min, [[maybe_unused]] int q_max, [[maybe_unused]] int kv_min,
                 [[maybe_unused]] int kv_max, [[maybe_unused]] int b_min, [[maybe_unused]] int b_max,
                 [[maybe_unused]] int h_min, [[maybe_unused]] int h_max, [[maybe_unused]] int q_len,
                 [[maybe_unused]] int kv_len, [[maybe_unused]] const double* scalars) {
  return (q_max < kv_min);
}

}  // namespace

// [fixed text: backends/cpu/fixed/PackedSequences.h, 71 lines]

// [fixed text: backends/cpu/fixed/RaggedBatch.h, 156 lines]

// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 1-52, 52 lines]
  BufferView buffer0;
  if (!view_buffer(uc, args->buffers[0], "slopes", 1, halide_type_t(halide_type_float, 32, 1), buffer0)) return -1;
  char* out_base = static_cast<char*>(args->out->data) + args->out->byte_offset;
  int64_t esize = args->out->dtype.bits / 8;
  int64_t ob = stride_of(args->out, 0) * esize, oh = stride_of(args->out, 1) * esize, ol = stride_of(args->out, 2) * esize;
  float* lse_base = args->lse ? reinterpret_cast<float*>(static_cast<char*>(args->lse->data) + args->lse->byte_offset) : nullptr;
  int64_t lb = args->lse ? stride_of(args->lse, 0) : 0, lh = args->lse ? stride_of(args->lse, 1) : 0;
  int64_t ll = args->lse ? stride_of(args->lse, 2) : 0;
  float* max_base = max_out ? reinterpret_cast<float*>(static_cast<char*>(max_out->data) + max_out->byte_offset) : nullptr;
  int64_t mb = max_out ? stride_of(max_out, 0) : 0, mh = max_out ? stride_of(max_out, 1) : 0;
  int64_t ml = max_out ? stride_of(max_out, 2) : 0;
  constexpr bool kHasSink = false;  // the kernel sets no sink
  auto sink_logit = [](int32_t, int32_t, int32_t, RowLoadError&) { return -INFINITY; };
  const int64_t groups = Hq / Hkv;
  // FP8 kernels' descale factors per (batch entry, key/value head), checked by the entry point. K
  // and V are staged as they are: q_descale x k_descale multiplies the scores (it goes with the
  // query tile), v_descale Out (write_row).
  const bool descaled = args->abi_version >= 7;
  const Descale q_scale = descale_of(descaled ? args->q_descale : nullptr, b0);
  const Descale k_scale = descale_of(descaled ? args->k_descale : nullptr, b0);
  const Descale v_scale = descale_of(descaled ? args->v_descale : nullptr, b0);
  // Out = P·V / sum, LSE and the row max of one finished row, in the caller's layout and type, after
  // the sink: a row that nothing reached is Out 0, LSE -inf; a NaN sum (a NaN score) gives NaN. `pv`
  // is unnormalized, `max` in log2 units. False (with the message written) for an out-of-range read.
  auto write_row = [&](int64_t b, int64_t hr, int64_t qr, const float* pv, float max, float sum) {
    const float kept_max = sum != sum ? NAN : sum == 0.0f ? -INFINITY : max * 0.693147180559945309f;
    float scale = 1.0f;
    if (kHasSink) {
      RowLoadError bad;
      fold_sink(sink_logit(int32_t(b0 + b), int32_t(hr), int32_t(q0 + qr), bad), max, sum, scale);
      if (bad.buffer)
        return fail(uc, "%s: the sink reads buffer '%s' at index %d in dimension %d, outside [0, %d) (b=%lld h=%lld q=%lld)",
                    kKernelName, bad.buffer, int(bad.index), bad.dim, int(bad.extent), (long long)(b0 + b), (long long)hr,
                    (long long)(q0 + qr)), false;
    }
    const bool reached = sum != 0.0f;
    float inv = reached ? scale / sum * (kFp8 ? v_scale.at(b, hr / groups) : 1.0f) : 0.0f;
    char* dst = out_base + b * ob + hr * oh + qr * ol;
    if (reached)
      write_io_row(dst, pv, inv, Dv);
    else
      memset(dst, 0, size_t(Dv * esize));
    if (lse_base) lse_base[b * lb + hr * lh + qr * ll] = reached ? max * 0.693147180559945309f + logf(sum) : -INFINITY;
    if (max_base) max_base[b * mb + hr * mh + qr * ml] = kept_max;
    return true;
  };
  if (Lk == 0) {  // no keys: every row is fully masked
    const std::vector<float> none(size_t(Dv), 0.0f);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < Hq; ++h)
        for (int64_t r = 0; r < Lq; ++r)
          if (!write_row(b, h, r, none.data(), -INFINITY, 0.0f)) return -1;
    return 0;
  }
  int64_t Dv_pad = round_up(Dv, kLanes);
  // Decoding (one query row) with grouped heads: the query heads that share a key/value head fill
  // the rows of one tile (row r is head h + r, query 0) instead of one head per 32-row tile. Only
  // when the mask and score do not read the head index.
  const bool pack = kPackHeads && Lq == 1 && groups > 1;
  const int64_t chunks_per_group = (groups + kTileQ - 1) / kTileQ;
  // K and V that need converting are converted by the tasks themselves when at most two tasks
  // read each key/value plane (and a paged cache decoding), once up front otherwise.
  const int64_t tasks_per_plane = pack ? chunks_per_group : (Lq + kTileQ - 1) / kTileQ * groups;
  // The decoding layout when no task has more than a few rows (kDecodeRows): the pipeline computes
  // the scores of those rows only, and the matrix paths read K and V as plain rows
  // (fixed/MatrixStaging.h).
  const int64_t task_rows = pack ? (groups < kTileQ ? groups : kTileQ) : (Lq < kTileQ ? Lq : kTileQ);
  const bool decoding = ValueStage::decoding_layout(task_rows, D, Dv);
  // The pipeline's `decoding`: 0, or for the decoding layout 1 (the matrix paths: bf16 K and V rows
  // in place) or 2 (their row addresses: a paged cache's, or FP8 rows, read in place too).
  const int32_t decoding_layout = decoding ? (at.pages.table || kFp8 ? 2 : 1) : 0;
  KeyStage k;
  ValueStage v;
  if (!k.prepare(uc, args->k, "k", D, tasks_per_plane <= 2, at.pages, decoding) ||
      !v.prepare(uc, args->v, "v", Dv_pad, tasks_per_plane <= 2, at.pages, decoding))
    return -1;
  const char* q_base = base_of(args->q);
  int64_t q_esize = args->q->dtype.bits / 8;
  int64_t qb = stride_of(args->q, 0) * q_esize, qh = stride_of(args->q, 1) * q_esize, ql = stride_of(args->q, 2) * q_esize;
  // Keys each query tile may see, [lo, hi): all of them, or for a mask that reads buffers the hull
  // of the caller's ranges (version 2) over the tile's query positions. The pipeline intersects it
  // with the mask's closed-form hull.
  int64_t tiles = (Lq + kTileQ - 1) / kTileQ;
  if (tiles * Hq * B >= (int64_t(1) << 31))
    return fail(uc, "%s: too many query tiles (%lld)", kKernelName, (long long)(tiles * Hq * B)), -1;
  std::vector<int32_t> window(size_t(2 * tiles));
  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused
  const int64_t* run_starts = nullptr;
  const int64_t* runs = nullptr;
  int64_t given_block = 0;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 138-209, 72 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 211-244, 34 lines]
            int result = attn_alibi_softcap_avx512_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(q_end), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(rows), decoding_layout, int32_t(q_step), int32_t(q0), int32_t(h), int32_t(b0 + b), piece_lo, piece_hi, next, &buffer0.buf, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 247-293, 47 lines]
int run(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 295-308, 14 lines]
#endif

}  // namespace attn_alibi_softcap_avx512
#undef ATTN_F16C
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif  // defined(__x86_64__)

#if ATTN_PART != 1  // part 2: the entry points
// ---- The exported entry point: the widest path this CPU runs, chosen at the first call ----
// [fixed text: backends/cpu/fixed/PathDispatch.h, 87 lines]

namespace {

const VectorPath<attn_kernel_args>* chosen_path(const char** why) {
  static const VectorPath<attn_kernel_args> paths[] = {
#if defined(__x86_64__)
      {"avx512", attn_alibi_softcap_avx512::run},
#endif
      {nullptr, nullptr}};
  static const char* reason = nullptr;
  static const VectorPath<attn_kernel_args>* path = choose_path(paths, &reason);
  *why = reason;
  return path;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int attn_alibi_softcap(const attn_kernel_args* args) {
  const char* why = nullptr;
  const VectorPath<attn_kernel_args>* path = chosen_path(&why);
  return run_path(path, why, "alibi_softcap", args);
}

extern "C" __attribute__((visibility("default"))) const char* attn_alibi_softcap_path(void) {
  const char* why = nullptr;
  const VectorPath<attn_kernel_args>* path = chosen_path(&why);
  return path ? path_name(path->isa) : "none";
}
#endif

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 30585 lines, hash 7c1433e3a8053710]
