// The attention algorithm as Halide Funcs (what is computed, not how): tiled scores, row max,
// exp, row sum and PV of one chunk of keys, with the row max and sum the wrapper merges chunks by.
#pragma once

#include <Halide.h>

#include <string>
#include <vector>

#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"

namespace attn {
struct TilePlan;
}

namespace attn::cpu {

/// The decoding layout: a call whose tasks have at most this many query rows each (one token of a
/// few heads of a group) passes `decoding` != 0, and the pipeline computes Q·Kᵀ for those rows only
/// (the f32 paths: dec_scores; the matrix paths: fixed/MatrixDecode.h). The wrapper's kDecodeRows.
constexpr int kDecodeRows = 8;

/// Tile sizes and padding rules; chosen per ISA by `choose_geometry`.
struct Geometry {
  int vector_lanes = 16;  ///< f32 lanes of one vector register
  int tile_q = 32;        ///< query rows per tile (a multiple of vector_lanes)
  int key_block = 8;      ///< keys per block of the QK^T accumulator
  int accumulators = 16;  ///< vector accumulators the PV loop may keep in registers
  int key_chunk = 1024;   ///< keys per pipeline call (a multiple of key_block): scores stay in cache
  /// Most value vectors one row of PV accumulators spans (0: `accumulators`); the rest of the
  /// accumulators go to more rows, each loaded V vector serving each of them.
  int pv_value_vectors = 0;
  /// Keys per block of PV (0: the whole chunk at once): each block's V rows serve every row group
  /// and value-vector pass while they are in L1.
  int pv_key_block = 0;
  int head_dim = 0;       ///< D; 0 when known only at run time
  int value_dim = 0;      ///< Dv; 0 when known only at run time
  int value_dim_padded = 0;  ///< Dv rounded up to vector_lanes; 0 at run time
  /// The bf16 matrix paths (AMX, AVX512-BF16): Q·Kᵀ and the softmax with P·V are extern stages.
  bool matrix = false;
};

Geometry choose_geometry(const KernelIR& ir, const CpuTarget& target);
/// The backward's geometry: the forward's, with its own AVX2 tile and no PV key blocks.
Geometry choose_backward_geometry(const KernelIR& ir, const CpuTarget& target);

/// The Funcs and parameters of one kernel call, which computes a CHUNK of one task: a tile of
/// tile_q query rows of one query head of one batch entry against at most key_chunk keys of the
/// tile's window. The wrapper runs the tasks in parallel, calls the pipeline chunk after chunk and
/// merges the partial results. Inputs (Halide order, innermost first): q [D, tile_q] (the tile's
/// rows, f32), k [D, Lk] and v [Dv_pad, Lk] (the key/value head it reads); out [Dv_pad + lanes,
/// tile_q] (the chunk's P·V, row max, row sum and bounds: see `partial`). Every bound is a scalar
/// of the call, so Halide sizes the scores by the chunk.
struct AttentionAlgorithm {
  Halide::ImageParam q, k, v;
  Halide::Param<int> num_queries, num_keys;  ///< Lq, Lk (unpadded)
  Halide::Param<int> head_dim, value_dim_padded;  ///< D and Dv_pad (used when not fixed at compile time)
  Halide::Param<int> tile, head, batch;      ///< the task: query tile index, query head, batch
  /// The tile's first `rows` rows hold queries, the rest padding (a last tile, a decoding group of
  /// heads): the matrix paths' products and softmax skip the padding in blocks of 16 rows.
  Halide::Param<int> rows;
  /// Nonzero: the call takes the decoding layout (kDecodeRows). The matrix paths: 1, the wrapper
  /// staged Q, K and V as plain rows (fixed/MatrixStaging.h); 2, the same, K and V as their rows'
  /// addresses (a paged cache, FP8). The f32 paths read their inputs as always, and take the
  /// scores of the first kDecodeRows rows from dec_scores.
  Halide::Param<int> decoding;
  Halide::Param<int> q_step;  ///< 1: row ii is query q0 + tile*T + ii; 0: every row is query q0 + tile*T
  Halide::Param<int> q0;      ///< the position of the call's first query row (a paged sequence's)
  /// The run of keys [lo, hi) this call belongs to: part of the tile's window (all keys, or the
  /// run-time plan's hull for masks that read buffers) that the wrapper's key-block test did not
  /// rule out; intersected with the closed-form hull of the plan.
  Halide::Param<int> kv_lo, kv_hi;
  Halide::Param<int> chunk_lo;  ///< where this call's chunk of at most key_chunk keys starts
  Halide::Expr chunk_hi, window_hi;  ///< where it ends; where the window ends (reported in `out`)
  /// The mask reads buffers: the wrapper narrows kv_lo/kv_hi by attn_kernel_args::kv_ranges.
  bool uses_kv_ranges = false;
  /// No mask and no score modifier: `masked` is `scores` (the schedule inlines it).
  bool masked_is_scores = false;
  Halide::Func qs, dot, scores, masked, row_max, probs, row_sum, pv, partial, out;
  /// The f32 paths' decoding layout: Q·Kᵀ of the tile's first kDecodeRows rows (dec_dot, blocked
  /// in dec_scores, from the block's key rows as dec_keys copies them), which `masked` reads
  /// instead of `scores` when `decoding` is nonzero.
  Halide::Func dec_keys, dec_dot, dec_scores;
  Halide::Var c, j, ii;
  Halide::RDom rd, rk;
  /// With Geometry::pv_key_block: P·V of whole key block kb (pv_block(c, ii, kb), over rki), the
  /// sum of the blocks (pv_blocks, over rkb), and pv adds the keys after them (over rkt).
  Halide::Func pv_block, pv_blocks;
  Halide::Var kb;
  Halide::RDom rki, rkb, rkt;
  Halide::Expr value_cols;             ///< Dv_pad
  std::vector<Halide::Argument> args;  ///< inputs, in the wrapper's order
  Geometry geometry;
};

/// The Funcs of `ir` in geometry `g`, the keys of each tile bounded by `plan` (plan_tiles of `ir` in
/// g's tile_q x key_block tiles: the caller plans once per kernel and path and shares the plan with
/// the wrapper). `prefix` starts every Func and RDom name: Halide appends `$N` to a name used before
/// in the process, and those suffixes change how the simplifier orders operands. A prefix never used
/// before (see `fresh_name_prefix`) keeps the names, and so the emitted code, independent of history.
/// `externs` names the extern stages of the matrix paths (`<externs>_qk`, `<externs>_softmax_pv`,
/// C symbols: unique per kernel and path).
AttentionAlgorithm define_attention(const KernelIR& ir, const Geometry& g, const TilePlan& plan,
                                    const std::string& prefix, const std::string& externs = "");

/// "k000123_": a prefix of fixed length that this process has not used yet (strip_name_prefixes
/// removes it from the emitted code).
std::string fresh_name_prefix();

}  // namespace attn::cpu
