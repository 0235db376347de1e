// Closed-form key ranges per query tile for index-only masks (until the shared tile planner lands).
#pragma once

#include <Halide.h>

namespace attn::cpu {

/// Keys [lo, hi) outside of which the mask is false for every query in [q0, q0 + rows).
/// Expressions of q0 and the mask's other free variables (b, h, scalar arguments); lo is 0 and hi
/// is `num_keys` where no bound can be proven (e.g. masks that read buffers).
struct KeyRange {
  Halide::Expr lo, hi;
  bool lo_bounded = false, hi_bounded = false;
};

/// `mask` is over the IR's `q` and `kv` variables.
KeyRange key_range_for_query_tile(const Halide::Expr& mask, const Halide::Expr& q0, int rows,
                                  const Halide::Expr& num_keys);

}  // namespace attn::cpu
