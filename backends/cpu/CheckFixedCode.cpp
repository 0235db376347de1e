// Compiles the fixed code of the CPU backend (backends/cpu/fixed/) as C++17, in the order and context an
// emitted kernel holds it, with stand-ins for what backends/cpu generates around it and for the
// ATTN_* placeholders: the build fails when a fixed file does not compile.
#include <HalideRuntime.h>  // halide_buffer_t, halide_task_t: an emitted kernel carries Halide's copy

// The includes of every emitted source (its backward's two more are in the list below).
#include "backends/cpu/fixed/SourceIncludes.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__F16C__)
#define ATTN_F16C 1  // as an f16 source's AVX paths define it (no <immintrin.h>: F32Staging.h needs none)
#endif

#include "attn/kernel_abi.h"

// Halide's vector types as HalideCppCodeGen prints them, and the operations the kernels use (at a
// width the baseline ISA passes in registers).
#include <type_traits>
#include <utility>
// Stand-ins for the scalar min/max of Halide's prologue (CodeGen_C writes them before the vectors).
template <typename T>
T halide_cpp_max(const T& a, const T& b) {
  return a > b ? a : b;
}
template <typename T>
T halide_cpp_min(const T& a, const T& b) {
  return a < b ? a : b;
}
#include "backends/cpu/fixed/HalideVectorOps.h"
namespace {
[[maybe_unused]] NativeVector<uint8_t, 4> vector_ops_check(float x) {
  using F = NativeVectorOps<float, 4>;
  using I = NativeVectorOps<int32_t, 4>;
  F::Vec a = F::max(F::min(F::ramp(x, 1.0f), F::broadcast(2.0f)), F::broadcast(x));
  return NativeVectorOps<uint8_t, 4>::logical_and(F::lt(a, F::broadcast(1.0f)), I::ge(I::ramp(0, 1), I::broadcast(3)));
}
}  // namespace

// The runtime glue (RuntimeGlue.cpp): the call context, then every runtime function.
#include "backends/cpu/fixed/RuntimeContext.h"
extern "C" {
#include "backends/cpu/fixed/RuntimeFunctions.h"
}

// The tile planner of a mask that reads buffers (SelfPlan.cpp), before the entry point: the
// interpreter with internal linkage, a plan's tables (here: every key tile Partial), SelfPlan.
#define ATTN_TILE_EVAL_INTERNAL 1
#include "runtime/TileGridEval.h"
namespace {
constexpr int kPlanBlockQ = 32, kPlanBlockKv = 16;
constexpr bool kPlanRangesExact = false;
constexpr attn_tile_eval::Op kPlanTileOps[] = {{attn_tile_eval::OpCode(0), false, -1, -1, -1, 0.0}};
constexpr int32_t kPlanTileOperands[] = {{}};
constexpr int32_t kPlanTileOutputs[] = {0, 0};
constexpr attn_tile_eval::Program kPlanTile = {kPlanTileOps, 1, kPlanTileOperands, kPlanTileOutputs, 2, nullptr};
constexpr attn_tile_eval::Op kPlanRangesOps[] = {{attn_tile_eval::OpCode(0), false, -1, -1, -1, 0.0},
                                                 {attn_tile_eval::OpCode(0), false, -1, -1, -1, 1e9}};
constexpr int32_t kPlanRangesOperands[] = {{}};
constexpr int32_t kPlanRangesOutputs[] = {0, 0, 0, 1};
constexpr attn_tile_eval::Program kPlanRanges = {kPlanRangesOps, 2, kPlanRangesOperands, kPlanRangesOutputs, 4,
                                                 nullptr};
constexpr int kPlanNumScalars = 0, kPlanNumBuffers = 1;
constexpr int kPlanScalars[] = {{}};
constexpr int kPlanBuffers[] = {0};
}  // namespace
#include "backends/cpu/fixed/SelfPlan.h"

// The wrapper (KernelWrapper.cpp): the kernel's constants, the support code, the key test, their
// placeholders as KernelWrapper.cpp fills them.
#define ATTN_KERNEL_NAME "fixed_code_check"
#define ATTN_LANES 16
#define ATTN_TILE_Q 32
#define ATTN_CHUNK_KEYS 512
#define ATTN_DECODE_ROWS 8
#define ATTN_HEAD_DIM 64
#define ATTN_VALUE_DIM 0
#define ATTN_IO_TYPE IoType::F16
#define ATTN_LSE_REQUIRED false
#define ATTN_MAX_REQUIRED false
#define ATTN_PACK_HEADS true
#define ATTN_NUM_BUFFERS 1
#define ATTN_NUM_SCALARS 0
#define ATTN_DTYPE_NAMES {2, 32, "f32"}, {0, 32, "i32"}
#include "backends/cpu/fixed/ElementTypes.h"
#include "backends/cpu/fixed/ElementConversions.h"
#include "backends/cpu/fixed/WrapperConstants.h"
#undef ATTN_KERNEL_NAME

#include "backends/cpu/fixed/WrapperSupport.h"
#include "backends/cpu/fixed/F32Staging.h"

namespace {
#include "backends/cpu/fixed/IrIntegerOps.h"
#define ATTN_SKIP_BLOCK 64
#define ATTN_HAS_KEY_TEST true
#define ATTN_KEYS_MASKED attn_div_i32(kv_min, kSkipBlock) > attn_mod_i32(q_max, kTileQ)
#include "backends/cpu/fixed/KeyTest.h"
int check_pipeline(void* uc, halide_buffer_t* q, halide_buffer_t* k, halide_buffer_t* v, int32_t lq, int32_t lk,
                   int32_t d, int32_t dv_pad, int32_t tile, int32_t rows, int32_t decoding, int32_t q_step, int32_t q0, int32_t head, int32_t batch,
                   int32_t kv_lo, int32_t kv_hi, int32_t chunk_lo, halide_buffer_t* buffer, halide_buffer_t* out) {
  return 0;
}
}  // namespace

// The entry point's template, its placeholders as KernelWrapper.cpp fills them for one i32 buffer
// and a mask that reads it.
#define ATTN_ENTRY attn_fixed_code_check
#define ATTN_VIEW_BUFFERS \
  BufferView buffer0;     \
  if (!view_buffer(uc, args->buffers[0], "b", 1, halide_type_t(halide_type_int, 32, 1), buffer0)) return -1;
#define ATTN_KV_RANGES                                                                          \
  const int64_t* given = args->abi_version >= 2 ? args->kv_ranges : nullptr;                    \
  const int64_t* run_starts = given && args->kv_runs ? args->kv_run_starts : nullptr;           \
  const int64_t* runs = run_starts ? args->kv_runs : nullptr;                                   \
  int64_t given_block = given ? args->kv_ranges_block_q : 0;                                    \
  SelfPlan self_plan;                                                                           \
  if (!given && self_plan.make(q_end, Lk, args->buffers, args->scalars)) {                      \
    given = self_plan.keys.ranges.data(), given_block = self_plan.keys.block_q;                 \
    run_starts = self_plan.keys.run_starts.data(), runs = self_plan.keys.runs.data();           \
  }
#define ATTN_ROW_FUNCTIONS                                                                   \
  constexpr bool kHasSink = true;                                                            \
  auto sink_logit = [&](int32_t b, int32_t h, int32_t q, RowLoadError& bad) -> float {       \
    [[maybe_unused]] const double* scalars = args->scalars;                                  \
    (void)b, (void)h, (void)q, (void)bad;                                                    \
    return float(row_load<int>(bad, buffer0, "b", {attn_mod_i32(h, 3)}) * 0.5f);             \
  };
#define ATTN_PIPELINE_FN check_pipeline
#define ATTN_EXTRA_ARGS , &buffer0.buf
#include "backends/cpu/fixed/PackedSequences.h"
#include "backends/cpu/fixed/RaggedBatch.h"
#include "backends/cpu/fixed/WrapperEntry.h"

// The run-time choice of the vector path over the entry above, with PathChoice.h's placeholders as
// GenerateCpuKernel.cpp fills them for a source with the one portable path.
#include "backends/cpu/fixed/PathDispatch.h"
#undef ATTN_ENTRY
#define ATTN_ENTRY attn_fixed_code_check_dispatch
#define ATTN_ARGS attn_kernel_args
#define ATTN_PATH_TABLE {"portable", attn_fixed_code_check},
#define ATTN_PATH_FN attn_fixed_code_check_path
#define ATTN_KERNEL_NAME "fixed_code_check"
#include "backends/cpu/fixed/PathChoice.h"
