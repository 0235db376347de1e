// The hand schedule of one attention task's Funcs: register-blocked QK^T and PV,
// row reductions vectorized over query rows.
#pragma once

#include "backends/cpu/AttentionAlgorithm.h"

namespace attn::cpu {

/// Schedules `a` for the ISA its geometry was chosen for.
void schedule_attention(AttentionAlgorithm& a);

/// A product of tile rows and keys in register blocks: `out` (j, ii) computed whole, in blocks of
/// `keys` keys (loop `jo`, then `ji`), the rows in vectors of `lanes`; `dot`'s update over `rd`
/// inside each block, rows and keys unrolled, so that its accumulators stay in registers. The
/// forward's scores and decoding scores, the backward's S and dP.
void schedule_product_blocks(Halide::Func out, Halide::Func dot, Halide::RVar rd, Halide::Var ii, Halide::Var j,
                             Halide::Var jo, Halide::Var ji, int lanes, int keys);

}  // namespace attn::cpu
