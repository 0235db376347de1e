// The backward's CPU schedule: the score and dP blocks as the forward's (tile rows in vectors, a
// block of keys of accumulators in registers), the three products as the forward's P·V (rows x
// vectors of columns in registers, one reduction element at a time).
#include <algorithm>

#include "backends/cpu/BackwardAlgorithm.h"
#include "backends/cpu/ScheduleAttention.h"
#include "backends/cpu/ScheduleMath.h"

namespace attn::cpu {

using namespace Halide;
using Halide::Expr;

void schedule_backward(BackwardAlgorithm& a) {
  const Geometry& g = a.geometry;
  const int VL = g.vector_lanes, T = g.tile_q, KB = g.key_block;
  Var &c = a.c, &j = a.j, &ii = a.ii;
  Var jo("jo"), ji("ji"), iio("iio"), iiv("iiv"), rg("rg"), rr("rr"), co("co"), ci("ci");

  // Q K^T and dO V^T in blocks of (tile rows) x KB keys.
  schedule_product_blocks(a.scores, a.dot, a.rd.x, ii, j, jo, ji, VL, KB);
  schedule_product_blocks(a.dprobs, a.dp_dot, a.rdv.x, ii, j, jo, ji, VL, KB);

  // Elementwise passes vectorized over the tile's rows.
  for (Func f : {a.probs, a.ds})
    f.compute_root().reorder_storage(ii, j).split(ii, iio, iiv, VL).reorder(iiv, iio, j).vectorize(iiv).unroll(iio);

  // dQ = dS K, dK = dS^T Q, dV = P^T dO: R rows x U vectors of columns of accumulators. Each step
  // of the reduction loads U vectors of a row and broadcasts R elements for R x U FMAs: of the
  // shapes within the ISA's accumulators, the one with the fewest loads per FMA, (R + U) / (R U)
  // (AVX-512, D = 64: 4 x 4; AVX2: 2 x 4 rather than 1 x 8, which loaded 9 vectors per 8 FMAs).
  // U divides the columns' vectors; R is a power of two dividing VL: key rows come in whole
  // vectors (the wrapper rounds each call's keys up to VL), so no row group is partial and the
  // accumulators have a constant size (a stack array; with a guarded tail Halide allocated them on
  // the heap once per row group).
  auto product = [&](Func out, Func acc, Var row, RVar red, int columns) {
    const int vectors = columns ? columns / VL : 1;
    int U = 1, R = 1;
    for (int u = 1; u <= std::min(vectors, g.accumulators); ++u) {
      if (vectors % u != 0) continue;
      const int r = std::min({T, VL, largest_power_of_two_at_most(g.accumulators / u)});
      if ((r + u) * U * R <= (R + U) * u * r) U = u, R = r;
    }
    out.compute_root().split(row, rg, rr, R, TailStrategy::RoundUp).reorder(c, rr, rg).vectorize(c, VL);
    acc.compute_at(out, rg).vectorize(c, VL).unroll(row);
    acc.update()
        .split(c, co, ci, U * VL, TailStrategy::RoundUp)
        .reorder(ci, row, red, co)
        .vectorize(ci, VL)
        .unroll(ci)
        .unroll(row);
  };
  int head_cols = g.head_dim ? (g.head_dim + VL - 1) / VL * VL : 0;
  product(a.dq, a.dq_acc, ii, a.rj.x, head_cols);
  product(a.dk, a.dk_acc, j, a.ri.x, head_cols);
  product(a.dv, a.dv_acc, j, a.ri.x, g.value_dim_padded);

  // Buffer gradients and their indices: vectors of the tile's rows, as P and dP are stored.
  if (!a.reads.empty()) {
    for (Func f : {a.grad, a.index}) {
      f.compute_root().reorder(ii, j).vectorize(ii, VL);
      for (int u = 0; u < f.num_update_definitions(); ++u) f.update(u).reorder(ii, j).vectorize(ii, VL);
    }
  }
}

}  // namespace attn::cpu
