// A kernel's tile plan as Halide expressions, for backends that print it into their kernels.
// Includes Halide.h: the CLI uses codegen/PlanTiles.h and runtime/TilePlanner.h instead.
#pragma once

#include <Halide.h>

#include <string>
#include <vector>

#include "codegen/Reductions.h"
#include "runtime/TilePlanner.h"

namespace attn {

/// Key tiles [begin, end) of query tile `qt`, all of one kind; begin/end are Exprs in the plan's
/// variables (qt, kv_tiles, b, h and scalar arguments), clamped so 0 <= begin <= end <= kv_tiles.
struct KeyTileRange {
  Halide::Expr begin, end;
  TileKind kind = TileKind::Partial;
};

/// A buffer load of the mask, replaced in the per-tile conditions by the variables
/// `<var>_min`/`<var>_max`: the buffer's min/max over the box [index_min, index_max].
struct TileLoad {
  std::string var;                                 ///< "ld0", ...
  std::string buffer;                              ///< the kernel argument it reads
  Halide::Expr load;                               ///< the original load (inner loads replaced by their vars)
  std::vector<Halide::Expr> index_min, index_max;  ///< per dimension, over the tile's ranges
};

/// A bounded reduction of the mask (`any(j < n: body)`, ...), replaced in the per-tile conditions
/// by the variables `<var>_min`/`<var>_max` (any/all: 0/1 for "proven true"/"may be true"). The
/// tile program computes them by a loop over j in [0, extent): per j, [lo, hi] bounds the body
/// with j fixed and q, kv, b, h over the tile, its loads bounded like the mask's; the bounds are
/// combined like the values (sum: added; any, max: max; all, min: min).
struct TileReduction {
  std::string var;  ///< "rd0", ...
  Reduction op = Reduction::Sum;
  std::string index;            ///< j
  Halide::Expr extent;          ///< a constant, scalar argument or buffer extent
  Halide::Expr body;            ///< as in the mask
  std::vector<TileLoad> loads;  ///< the body's loads, index bounds for one j
  Halide::Expr lo, hi;          ///< bounds of the body (any/all: Int(32) 0/1) for one j
};

struct TilePlan {
  int block_q = 64, block_kv = 64;
  /// Int(32) variables the Exprs below use.
  Halide::Expr qt, kt, kv_tiles, q_min, q_max, kv_min, kv_max, b_min, b_max, h_min, h_max;
  /// The mask as analyzed (simplified, loads in place).
  Halide::Expr mask;
  /// True when the mask reads no buffer: `ranges` is then the whole plan.
  bool index_only = true;
  /// Per query tile `qt`: Partial, Full, Partial runs of key tiles; everything else is Empty.
  /// For masks that read buffers: only the Partial hull from the index-only conjuncts.
  std::vector<KeyTileRange> ranges;
  /// True when checks on sample sizes found no Partial tile of `ranges` that per-tile conditions
  /// classify otherwise; if false, backends test `tile_empty`/`tile_full` inside Partial runs.
  bool ranges_exact = false;
  /// Sufficient conditions, in qt and kt (index-only masks): the tile is all-false / all-true.
  Halide::Expr tile_empty, tile_full;
  /// Sufficient conditions over q_min..h_max and the `<load>_min/_max` variables of `loads`.
  Halide::Expr bounds_empty, bounds_full;
  /// A sufficient condition over q_min..h_max alone that the tile is all-false, from the mask's
  /// index-only conjuncts (bounds_empty itself for index-only masks): what a backend can test
  /// without the run-time planner's buffer bounds.
  Halide::Expr index_bounds_empty;
  std::vector<TileLoad> loads;
  std::vector<TileReduction> reductions;
  /// The same, compiled for runtime/TilePlanner.h.
  TilePlanProgram program;
};

}  // namespace attn
