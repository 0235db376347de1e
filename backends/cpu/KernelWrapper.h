// The entry point of one vector path of an emitted kernel: checks the attn_kernel_args it is given, stages
// Q/K/V into padded f32 tiles, runs the Halide pipeline once per (query tile, head, batch) task in
// parallel, each on its own key window, and writes Out and LSE back.
#pragma once

#include <string>
#include <vector>

#include "backends/cpu/AttentionAlgorithm.h"
#include "backends/cpu/BackwardAlgorithm.h"

namespace attn::cpu {

/// What the wrapper needs to know about a kernel.
struct WrapperSpec {
  std::string entry;     ///< the path's entry point (a C++ function of the path's namespace)
  std::string pipeline;  ///< the Halide pipeline function it calls
  std::string kernel;    ///< the kernel's .attn name, for messages
  Geometry geometry;
  DType dtype = DType::F32;
  bool lse_required = false;
  std::vector<KernelArg> args;  ///< the kernel's run-time arguments, in declaration order
  /// Narrow each tile's key window by attn_kernel_args::kv_ranges, or when the caller passes none
  /// by the kernel's own plan (the SelfPlan of emit_self_plan, which the source holds before).
  bool kv_ranges = false;
  /// C++ of a sufficient condition that the mask is false on the box q in [q_min, q_max], kv in
  /// [kv_min, kv_max] (b in [b_min, b_max], h in [h_min, h_max]; scalars[i]), or empty: without it
  /// every key block of a window is computed.
  std::string keys_masked;
  /// The mask and score do not read the head index h: one-row (decoding) calls may put several
  /// query heads of a group in one tile.
  bool pack_heads = false;
  bool max_required = false;  ///< return_max: the entry writes attn_kernel_args::max
  /// C++ of the sink's logit over int32_t b, h, q, `scalars[i]` and `row_load` reads of the buffer
  /// views (CpuRowExprPrinter), or empty: no sink.
  std::string sink{};
  /// The backward: each f32 buffer element the sink reads, as C++ like `sink`.
  struct SinkRead {
    int buffer = 0;                  ///< its position among the kernel's tensor arguments
    std::string partial;             ///< d sink / d buffer[index]
    std::vector<std::string> index;  ///< one per dimension
  };
  std::vector<SinkRead> sink_reads{};
};

/// C++ text of a path's element types and conversions (fixed/ElementTypes.h, ElementConversions.h,
/// and a matrix path's MatrixFp8.h), which come before its wrapper and (a matrix path's) extern
/// stages: `dtype` the kernel's I/O type.
std::string emit_element_code(DType dtype, bool matrix);

/// C++ text of the wrapper (uses the runtime glue's Context, fail and parallel_for), after
/// emit_element_code's.
std::string emit_wrapper(const WrapperSpec& spec);

/// C++ text of the backward's entry point (fixed/BackwardEntry.h) around its pipeline, whose score
/// reads buffers at `reads` (BackwardAlgorithm); `spec.entry` is the `<kernel>_backward` symbol.
std::string emit_backward_wrapper(const WrapperSpec& spec, const std::vector<BackwardRead>& reads, int index_slots);

}  // namespace attn::cpu
