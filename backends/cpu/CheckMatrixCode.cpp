// Compiles the bf16 matrix paths' fixed code (fixed/MatrixStaging.h, MatrixAmx.h, MatrixDpbf16.h,
// MatrixDecode.h, MatrixExterns.h) as C++17, in the order and context an emitted kernel's amx and
// avx512bf16 paths hold it (each in its own namespace and target region; the amx path of an FP8
// kernel too), with stand-ins for the ATTN_*
// placeholders: the build fails when one does not compile. CheckFixedCode.cpp does the same for
// the code every path shares.
#include <HalideRuntime.h>  // halide_buffer_t: an emitted kernel carries Halide's copy

#include "backends/cpu/fixed/SourceIncludes.h"
#if defined(__x86_64__)
#include <immintrin.h>  // as a bf16 source's includes hold it (its matrix paths' intrinsics)
#endif

#include "attn/kernel_abi.h"

#include "backends/cpu/fixed/RuntimeContext.h"
extern "C" {
#include "backends/cpu/fixed/RuntimeFunctions.h"
}

#define ATTN_KERNEL_NAME "matrix_code_check"
#define ATTN_LANES 16
#define ATTN_TILE_Q 32
#define ATTN_CHUNK_KEYS 1024
#define ATTN_DECODE_ROWS 8
#define ATTN_HEAD_DIM 0
#define ATTN_VALUE_DIM 0
#define ATTN_IO_TYPE IoType::BF16
#define ATTN_LSE_REQUIRED false
#define ATTN_MAX_REQUIRED false
#define ATTN_PACK_HEADS true
#define ATTN_NUM_BUFFERS 0
#define ATTN_NUM_SCALARS 0
#define ATTN_DTYPE_NAMES {4, 16, "bf16"}

// The amx path: its namespace and target region (fixed/PathTargetBegin.h's pragmas, for g++ and
// clang++ alike), for a bf16 kernel and for an FP8 one.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw,avx512bf16,amx-tile,amx-bf16"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw,avx512bf16,amx-tile,amx-bf16")
#endif
namespace check_amx {
#include "backends/cpu/fixed/ElementTypes.h"
#include "backends/cpu/fixed/ElementConversions.h"
#include "backends/cpu/fixed/MatrixFp8.h"
#include "backends/cpu/fixed/MatrixAmx.h"
#include "backends/cpu/fixed/MatrixDecode.h"
#define ATTN_MATRIX_EXTERNS_qk check_amx_qk
#define ATTN_MATRIX_EXTERNS_softmax_pv check_amx_softmax_pv
#include "backends/cpu/fixed/MatrixExterns.h"
#undef ATTN_MATRIX_EXTERNS_qk
#undef ATTN_MATRIX_EXTERNS_softmax_pv
#include "backends/cpu/fixed/WrapperConstants.h"
#include "backends/cpu/fixed/WrapperSupport.h"
#include "backends/cpu/fixed/MatrixStaging.h"
}  // namespace check_amx
// In the same target region, the amx path of an FP8 kernel (e4m3): K and V bytes, read in place by
// the decoding layout.
#undef ATTN_IO_TYPE
#define ATTN_IO_TYPE IoType::E4M3
namespace check_amx_fp8 {
#include "backends/cpu/fixed/ElementTypes.h"
#include "backends/cpu/fixed/ElementConversions.h"
#include "backends/cpu/fixed/MatrixFp8.h"
#include "backends/cpu/fixed/MatrixAmx.h"
#include "backends/cpu/fixed/MatrixDecode.h"
#define ATTN_MATRIX_EXTERNS_qk check_amx_fp8_qk
#define ATTN_MATRIX_EXTERNS_softmax_pv check_amx_fp8_softmax_pv
#include "backends/cpu/fixed/MatrixExterns.h"
#undef ATTN_MATRIX_EXTERNS_qk
#undef ATTN_MATRIX_EXTERNS_softmax_pv
#include "backends/cpu/fixed/WrapperConstants.h"
#include "backends/cpu/fixed/WrapperSupport.h"
#include "backends/cpu/fixed/MatrixStaging.h"
}  // namespace check_amx_fp8
#undef ATTN_IO_TYPE
#define ATTN_IO_TYPE IoType::BF16
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// The avx512bf16 path.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw,avx512bf16"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw,avx512bf16")
#endif
namespace check_avx512bf16 {
#include "backends/cpu/fixed/ElementTypes.h"
#include "backends/cpu/fixed/ElementConversions.h"
#include "backends/cpu/fixed/MatrixFp8.h"
#include "backends/cpu/fixed/MatrixDpbf16.h"
#include "backends/cpu/fixed/MatrixDecode.h"
#define ATTN_MATRIX_EXTERNS_qk check_dpbf16_qk
#define ATTN_MATRIX_EXTERNS_softmax_pv check_dpbf16_softmax_pv
#include "backends/cpu/fixed/MatrixExterns.h"
#undef ATTN_MATRIX_EXTERNS_qk
#undef ATTN_MATRIX_EXTERNS_softmax_pv
#include "backends/cpu/fixed/WrapperConstants.h"
#include "backends/cpu/fixed/WrapperSupport.h"
#include "backends/cpu/fixed/MatrixStaging.h"
}  // namespace check_avx512bf16
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// Every function the paths' stages and staging define is used, as in an emitted source.
#define ATTN_CHECK_STAGING(ns)                                                                                  \
  do {                                                                                                         \
    ns::Plane plane;                                                                                           \
    ns::MatrixKeys keys;                                                                                       \
    ns::MatrixValues values;                                                                                   \
    if (!ns::check_tensor(nullptr, t, "t", 4, false)) return -1;                                               \
    ns::write_io(static_cast<char*>(t->data), 0.0f);                                                           \
    if (!keys.prepare(nullptr, t, "k", 64, false, {}, false) || !values.prepare(nullptr, t, "v", 64, false, {}, false)) \
      return -1;                                                                                               \
    keys.head(0, 0, 1, plane), keys.piece(0, 0, 0, 1, storage, plane);                                         \
    values.head(0, 0, 1, plane), values.piece(0, 0, 0, 1, storage, plane);                                     \
    ns::stage_query_tile(storage, 64, 1, [&](int64_t) { return static_cast<const char*>(t->data); }, 1.0f, plane, \
                         false);                                                                               \
  } while (0)

int attn_matrix_code_check(bool amx, halide_buffer_t* s, halide_buffer_t* k, halide_buffer_t* out, const DLTensor* t) {
  std::vector<float> storage;
  if (amx) {
    ATTN_CHECK_STAGING(check_amx);
    return check_amx::check_amx_qk(s, k, 1, 0, out) + check_amx::check_amx_softmax_pv(s, k, 1.0f, 0, 1, 1, 0, 1, 0, out);
  }
  if (t->dtype.bits == 8) {
    ATTN_CHECK_STAGING(check_amx_fp8);
    return check_amx_fp8::check_amx_fp8_qk(s, k, 1, 0, out) +
           check_amx_fp8::check_amx_fp8_softmax_pv(s, k, 1.0f, 0, 1, 1, 0, 1, 0, out);
  }
  ATTN_CHECK_STAGING(check_avx512bf16);
  return check_avx512bf16::check_dpbf16_qk(s, k, 1, 0, out) +
         check_avx512bf16::check_dpbf16_softmax_pv(s, k, 1.0f, 0, 1, 1, 0, 1, 0, out);
}
