// The attention algorithm as Halide Funcs (what is computed, not how): tiled scores, row max,
// exp, row sum, PV and the normalized output with the log-sum-exp beside it.
#pragma once

#include <Halide.h>

#include <string>
#include <vector>

#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"

namespace attn::cpu {

/// Tile sizes and padding rules; chosen per ISA by `choose_geometry`.
struct Geometry {
  int vector_lanes = 16;  ///< f32 lanes of one vector register
  int tile_q = 32;        ///< query rows per tile (a multiple of vector_lanes)
  int key_block = 8;      ///< keys per block of the QK^T accumulator
  int accumulators = 16;  ///< vector accumulators the PV loop may keep in registers
  int head_dim = 0;       ///< D; 0 when known only at run time
  int value_dim = 0;      ///< Dv; 0 when known only at run time
  int value_dim_padded = 0;  ///< Dv rounded up to vector_lanes; 0 at run time
};

Geometry choose_geometry(const KernelIR& ir, const CpuTarget& target);

/// The Funcs and parameters of one kernel, computing ONE task: a tile of tile_q query rows of one
/// query head of one batch entry against the keys of a window. The wrapper runs the tasks in
/// parallel and hands each the staged f32 copies (Halide order, innermost first): q [D, tile_q]
/// (the tile's rows), k [D, Lk_pad] and v [Dv_pad, Lk_pad] (the key/value head it reads), out
/// [Dv_pad + lanes, tile_q] (Out in columns [0, Dv_pad), the log-sum-exp in the next `lanes`).
/// Every bound is a scalar at the call, so Halide sizes the scores of a task by its own window.
struct AttentionAlgorithm {
  Halide::ImageParam q, k, v;
  Halide::Param<int> num_queries, num_keys;  ///< Lq, Lk (unpadded)
  Halide::Param<int> tile, head, batch;      ///< the task: query tile index, query head, batch
  /// Keys [lo, hi) outside which the mask is false for this tile (the run-time plan's hull for
  /// masks that read buffers, else [0, Lk)); intersected with the closed-form hull of the plan.
  Halide::Param<int> kv_lo, kv_hi;
  /// The mask reads buffers: the wrapper narrows kv_lo/kv_hi by attn_kernel_args::kv_ranges.
  bool uses_kv_ranges = false;
  Halide::Func qs, dot, scores, masked, row_max, probs, row_sum, pv, normalized, out;
  Halide::Var c, j, ii;
  Halide::RDom rd, rk;
  Halide::Expr value_cols;             ///< Dv_pad
  std::vector<Halide::Argument> args;  ///< inputs, in the wrapper's order
  Geometry geometry;
};

/// `prefix` starts every Func and RDom name: Halide appends `$N` to a name used before in the
/// process, and those suffixes change how the simplifier orders operands. A prefix never used before
/// (see `fresh_name_prefix`) keeps the names, and so the emitted code, independent of history.
AttentionAlgorithm define_attention(const KernelIR& ir, const Geometry& g, const std::string& prefix);

/// "k000123_": a prefix of fixed length that this process has not used yet (strip_name_prefixes
/// removes it from the emitted code).
std::string fresh_name_prefix();

}  // namespace attn::cpu
