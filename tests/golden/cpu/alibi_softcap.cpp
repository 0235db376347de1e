// attnc: CPU kernel 'alibi_softcap' (bf16 I/O), Halide-scheduled. Generated; do not edit.
// Vector paths: avx512; the first call takes the widest this CPU runs (ATTNC_CPU_ISA=<path> forces a narrower one).
// Build: c++ -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -c alibi_softcap.cpp
// (no -m flags: each path's functions carry their own ISA. clang++ is fastest; with g++ add -fno-tree-sra,
// or the accumulators leave registers.)
// Entry: int attn_alibi_softcap(const attn_kernel_args*), declared in alibi_softcap.h.
#include "alibi_softcap.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <cpuid.h>      // whether the CPU has F16C, AVX512-BF16, AMX
#include <immintrin.h>  // F16C's f16 to f32 on the AVX paths; AMX tiles, vdpbf16ps
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>  // arch_prctl: the permission to use AMX tiles
#include <unistd.h>
#endif

#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_max)
#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop
#endif
#endif

// ---- Halide's includes and runtime header (Halide 14 CodeGen_C output), shared by the paths ----

// [Halide runtime header: 2454 lines, hash e6b37a9abfd88c74]



// ---- The Halide runtime functions the paths call ----
// [cpu runtime glue for 18 runtime functions: 172 lines, hash b586556f8ebb6ce0]

// ---- Vector path 'avx512': its Halide pipeline and entry point ----
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw")
#endif
#define ATTN_F16C 1  // the path may convert f16 with F16C
namespace attn_alibi_softcap_avx512 {

// ---- Halide's helpers ----
// [Halide's helper block: 151 lines, hash 6f117896fb577891]
// ---- The Halide pipeline ----
// ---- The path's own code: vector classes, pipeline ----
// [fixed text: backends/cpu/fixed/HalideVectorOps.h, 839 lines]
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
// [Halide pipeline attn_alibi_softcap_avx512_pipeline: 3236 lines, hash 3a2b759754ef59a3]

// [Halide's argv wrapper and metadata of attn_alibi_softcap_avx512_pipeline: 338 lines, hash d60e5b7bffe8790a]

#ifdef __cplusplus
}  // extern "C"
#endif


// ---- The path's attn_kernel_args entry point ----
namespace {

enum class IoType { F32, F16, BF16 };
constexpr const char* kKernelName = "alibi_softcap";
constexpr int kLanes = 16, kTileQ = 32;
constexpr int32_t kKeyChunk = 1024;  // keys per pipeline call at most
constexpr int64_t kHeadDim = 0, kValueDim = 0;  // 0: any
constexpr IoType kIoType = IoType::BF16;
constexpr bool kLseRequired = true;
constexpr bool kPackHeads = false;  // the mask and score ignore the head: decoding packs a group's heads
constexpr int kNumBuffers = 1, kNumScalars = 0;
struct DTypeName {
  uint8_t code, bits;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{2, 32, "f32"}, {2, 16, "f16"}, {4, 16, "bf16"}, {2, 64, "f64"}, {0, 32, "i32"}, {0, 64, "i64"}, {6, 8, "bool"}, {1, 8, "u8"}};

}  // namespace

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 247 lines]

// [fixed text: backends/cpu/fixed/F32Staging.h, 150 lines]

namespace {

// [fixed text: backends/cpu/fixed/IrIntegerOps.h, 17 lines]
/// Keys in blocks of 64: blocks that the mask rules out for a whole query tile are skipped.
constexpr int kSkipBlock = 64;
constexpr bool kHasKeyTest = true;

/// Whether the mask is false for every query in [q_min, q_max] and key in [kv_min, kv_max]: a
/// sufficient condition from interval analysis of the mask (codegen/PlanTiles), or false.
bool keys_masked([[maybe_unused]] int q_min, [[maybe_unused]] int q_max, [[maybe_unused]] int kv_min,
                 [[maybe_unused]] int kv_max, [[maybe_unused]] int b_min, [[maybe_unused]] int b_max,
                 [[maybe_unused]] int h_min, [[maybe_unused]] int h_max,
                 [[maybe_unused]] const double* scalars) {
  return (q_max < kv_min);
}

}  // namespace

int run(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 2-51, 50 lines]
  BufferView buffer0;
  if (!view_buffer(uc, args->buffers[0], "slopes", 1, halide_type_t(halide_type_float, 32, 1), buffer0)) return -1;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 53-91, 39 lines]
  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused
  const int64_t* run_starts = nullptr;
  const int64_t* runs = nullptr;
  int64_t given_block = 0;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 93-166, 74 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 168-201, 34 lines]
            int result = attn_alibi_softcap_avx512_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(Lq), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(q_step), int32_t(h), int32_t(b), piece_lo, piece_hi, next, &buffer0.buf, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 204-248, 45 lines]

}  // namespace attn_alibi_softcap_avx512
#undef ATTN_F16C
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif  // defined(__x86_64__)

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

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 25904 lines, hash f47046a300824b03]
