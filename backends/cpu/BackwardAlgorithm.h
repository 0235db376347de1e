// FlashAttention-2's backward as Halide Funcs (what is computed, not how): one call takes a tile of
// query rows and a run of keys, recomputes P from the forward's LSE and adds that pair's share of
// dQ, dK and dV to their running sums and gives its share of the buffer gradients, which the
// wrapper (fixed/BackwardEntry.h) sums.
#pragma once

#include <Halide.h>

#include <string>
#include <vector>

#include "backends/cpu/AttentionAlgorithm.h"
#include "codegen/KernelIR.h"

namespace attn::cpu {

/// Keys per backward job (a multiple of every ISA's key block and of the wrapper's skip block): the
/// wrapper keeps one dQ share per chunk of keys, so larger chunks need less memory.
constexpr int kBackwardKeyChunk = 512;

/// Keys per pipeline call at most (a multiple of every ISA's vector): the wrapper walks a chunk's
/// keys in calls of this many, so that a call's K and V rows and its score-sized blocks stay in the
/// core's caches while the products reread them (dQ sweeps the call's K once per group of rows).
constexpr int kBackwardCallKeys = 128;

/// One buffer read site whose gradient the pipeline reports, per (key, query row).
struct BackwardRead {
  int buffer = 0;      ///< index among the kernel's buffers
  int dims = 0;        ///< index expressions of the read
  int index_slot = 0;  ///< its first row of `index` (one per dimension)
  /// The index reads neither the query row nor the key (nor the score): one element for every
  /// position of a call, so the wrapper sums the call's gradients before it adds them there.
  bool uniform = false;
};

/// The Funcs of one call: a tile of tile_q query rows of one query head against keys [key_lo,
/// key_lo + key_count) of its key/value head. Inputs (Halide order, innermost first), staged by the
/// wrapper as dense f32 with zero padding: q [D_pad, tile_q] and q_t [tile_q, D_pad] (the same rows
/// transposed), k [D_pad, key_count] and v [Dv_pad, key_count] (the call's keys: rows from key_lo),
/// dout [Dv_pad, tile_q] and dout_t [tile_q, Dv_pad], stats [tile_q, 2] (per row: the LSE, +inf for a row no key reached, and
/// delta = rowsum(dO * O) - dLSE), dq_sum [D_pad, tile_q], dk_sum [D_pad, key_count] and
/// dv_sum [Dv_pad, key_count] (the sums so far over the keys of earlier calls). Outputs:
/// dq [D_pad, tile_q] (dq_sum + scale * dS K), dk [D_pad, key_count] (dk_sum + scale * dS^T Q),
/// dv [Dv_pad, key_count] (dv_sum + P^T dO), each in the memory of its sum (the wrapper passes the
/// same), and, when the score
/// reads f32 buffers, grad [key_count, tile_q, reads] (dS before the ds'/ds factor times
/// d s'/d buffer) and index [key_count, tile_q, index slots] (where each read reads).
struct BackwardAlgorithm {
  Halide::ImageParam q, q_t, k, v, dout, dout_t, stats, dq_sum, dk_sum, dv_sum;
  Halide::Param<int> num_queries, num_keys, head_dim, head_dim_padded, value_dim_padded;
  Halide::Param<int> tile, head, batch, key_lo, key_count;
  Halide::Func scores, dot, probs, dprobs, dp_dot, ds_raw, ds, dq_acc, dq, dk_acc, dk, dv_acc, dv, grad, index;
  Halide::Var c, j, ii, r;
  Halide::RDom rd, rdv, rj, ri;
  Halide::Expr head_cols, value_cols;  ///< D_pad, Dv_pad
  std::vector<BackwardRead> reads;
  int index_slots = 0;
  std::vector<Halide::Func> outputs;   ///< dq, dk, dv[, grad, index]
  std::vector<Halide::Argument> args;  ///< inputs, in the wrapper's order
  Geometry geometry;
};

/// `prefix` as for define_attention (fresh_name_prefix).
BackwardAlgorithm define_backward(const KernelIR& ir, const Geometry& g, const std::string& prefix);

/// The CPU schedule of the backward (ScheduleBackward.cpp).
void schedule_backward(BackwardAlgorithm& a);

}  // namespace attn::cpu
