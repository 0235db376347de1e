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

/// The Funcs and parameters of one kernel. Inputs are the wrapper's staged f32 copies, in Halide
/// order (innermost first), queries split into tiles: q [D, tile_q, Lq_pad / tile_q, Hq, B],
/// k [D, Lk_pad, Hkv, B], v [Dv_pad, Lk_pad, Hkv, B]; out [Dv_pad + lanes, tile_q, tiles, Hq, B]
/// holds Out in columns [0, Dv_pad) and the log-sum-exp in the next `lanes` columns.
struct AttentionAlgorithm {
  Halide::ImageParam q, k, v;
  /// Masks that read buffers: per query tile, keys [lo, hi) (int32 [2, tiles]) outside which the
  /// mask is false, from the run-time planner via the wrapper; narrows the closed-form hull.
  Halide::ImageParam kv_range;
  bool has_kv_range = false;
  Halide::Param<int> num_queries, num_keys, groups;  ///< Lq, Lk (unpadded), Hq / Hkv
  Halide::Func qs, dot, scores, masked, row_max, probs, row_sum, pv, normalized, out;
  Halide::Var c, h, b, j, ii, it;
  Halide::RDom rd, rk;
  Halide::Expr value_cols;                            ///< Dv_pad
  std::vector<Halide::Argument> args;                 ///< inputs, in the wrapper's order
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
