// Measured on AVX-512 (docs/cpu.md, Speed): 2x8 zmm score accumulators with d innermost, 16 PV
// accumulators (rows x value vectors), scores and probabilities stored per task (one query tile of
// one head).
#include "backends/cpu/ScheduleAttention.h"

#include <algorithm>

#include "backends/cpu/ScheduleMath.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;

void schedule_attention(AttentionAlgorithm& a) {
  const Geometry& g = a.geometry;
  const int VL = g.vector_lanes, T = g.tile_q, KB = g.key_block;
  Var &c = a.c, &j = a.j, &ii = a.ii;
  Var jo("jo"), ji("ji"), ig("ig"), ir("ir"), iio("iio"), iiv("iiv");
  Var co("co"), ci("ci");
  RVar rk = a.rk.x, rd = a.rd.x;

  // The pipeline is one task (query tile, head, batch); the wrapper runs the tasks in parallel.
  a.out.bound(c, 0, a.value_cols + VL).bound(ii, 0, T);
  if (!g.matrix) a.out.vectorize(c, VL);
  auto rows_in_vectors = [&](Func f) {
    f.compute_root().reorder_storage(ii, j).split(ii, iio, iiv, VL).reorder(iiv, iio, j).vectorize(iiv).unroll(iio);
  };
  if (g.matrix) {
    // The matrix paths: Q·Kᵀ's output is stored whole; the score modifier and mask take one pass
    // between it and the softmax stage (the output), vectorized over the rows as below.
    a.dot.compute_root();
    if (!a.masked_is_scores) {
      a.masked.bound(ii, 0, T);  // the softmax stage asks for the tile's rows (a bounds query: not a constant)
      rows_in_vectors(a.masked);
    }
    return;
  }

  // Q of the tile, transposed so that one vector holds a column of query rows.
  a.qs.compute_root().reorder_storage(ii, c).vectorize(ii, VL);

  // Scores in blocks of (tile rows) x KB keys; the accumulator stays in registers.
  schedule_product_blocks(a.scores, a.dot, rd, ii, j, jo, ji, VL, KB);

  // The decoding layout's scores (kDecodeRows rows): the same blocks with the rows in vectors of at
  // most kDecodeRows lanes (ymm on AVX-512) and as many keys as the accumulators allow. 32/8 GQA
  // heads, 8 x 4096 keys, D 128, f32 [avx512: Zen 4]: 24.4 -> 15.5 ms (docs/cpu.md).
  const int DV = std::min(kDecodeRows, VL), DKB = std::max(1, g.accumulators / (kDecodeRows / DV));
  a.dec_scores.bound(ii, 0, kDecodeRows);
  schedule_product_blocks(a.dec_scores, a.dec_dot, rd, ii, j, jo, ji, DV, DKB);
  // Each block's key rows copied first, one sequential read (the compilers make it a memcpy) that
  // the hardware prefetcher follows: the products' broadcasts walk 16 rows 4 bytes a step, and
  // waited on memory there (20.4 -> 15.0 ms above).
  a.dec_keys.compute_at(a.dec_scores, jo).store_in(MemoryType::Stack);

  // A pass over the tile's scores, key by key, each key's rows in vectors (stored that way too):
  // rows_in_vectors.
  // Score modifier and mask, a pass of their own (Halide partitions the key loop, so blocks the
  // mask keeps whole skip it). With neither, the row max and the exp read the scores.
  if (a.masked_is_scores)
    a.masked.compute_inline();
  else
    rows_in_vectors(a.masked);

  // Row reductions vectorized over the tile's rows.
  a.row_max.compute_root().vectorize(ii, VL);
  a.row_max.update().split(ii, iio, iiv, VL).reorder(iiv, iio, rk).vectorize(iiv).unroll(iio);
  rows_in_vectors(a.probs);
  a.row_sum.compute_root().vectorize(ii, VL);
  a.row_sum.update().split(ii, iio, iiv, VL).reorder(iiv, iio, rk).vectorize(iiv).unroll(iio);

  // PV: R rows x U value vectors of accumulators; each V row is loaded once per R rows.
  const PvBox box = pv_box(g.value_dim_padded ? g.value_dim_padded / VL : 1, T, g.accumulators, g.pv_value_vectors);
  const int U = box.U, R = box.R;
  a.partial.compute_root().split(ii, ig, ir, R).reorder(c, ir, ig).vectorize(c, VL);
  if (g.pv_key_block) {
    // Key blocks outermost: every (row group, value vectors) pass over a block finds its V rows in
    // L1. A pass sums into pv_block's R x U vectors, a box of constant size and indices (registers),
    // then adds them to the tile's pv; the keys after the last whole block take a pass of their own.
    // `passes` splits a stage into those R x U passes; `order` places its key loop.
    auto passes = [&](Stage stage, const std::vector<VarOrRVar>& order) {
      stage.split(c, co, ci, U * VL, TailStrategy::RoundUp)
          .split(ii, ig, ir, R)
          .reorder(order)
          .vectorize(ci, VL)
          .unroll(ci)
          .unroll(ir);
    };
    a.pv_blocks.compute_root().vectorize(c, VL);
    passes(a.pv_blocks.update(), {ci, ir, co, ig, a.rkb.x});
    a.pv_block.compute_at(a.pv_blocks, co).vectorize(c, VL).unroll(c).unroll(ii);
    a.pv_block.update().reorder(c, ii, a.rki.x).vectorize(c, VL).unroll(c).unroll(ii);
    a.pv.compute_root().vectorize(c, VL);
    passes(a.pv.update(), {ci, ir, a.rkt.x, co, ig});
    return;
  }
  a.pv.compute_at(a.partial, ig).vectorize(c, VL).unroll(ii);
  a.pv.update()
      .split(c, co, ci, U * VL, TailStrategy::RoundUp)
      .reorder(ci, ii, rk, co)
      .vectorize(ci, VL)
      .unroll(ci)
      .unroll(ii);
}

void schedule_product_blocks(Func out, Func dot, RVar rd, Var ii, Var j, Var jo, Var ji, int lanes, int keys) {
  out.compute_root()
      .reorder_storage(ii, j)
      .split(j, jo, ji, keys, TailStrategy::RoundUp)
      .reorder(ii, ji, jo)
      .vectorize(ii, lanes)
      .unroll(ii)
      .unroll(ji);
  dot.compute_at(out, jo).reorder_storage(ii, j).vectorize(ii, lanes).unroll(ii).unroll(j);
  dot.update().reorder(ii, j, rd).vectorize(ii, lanes).unroll(ii).unroll(j);
}

}  // namespace attn::cpu
