// The hand schedule of one attention task's Funcs: register-blocked QK^T and PV,
// row reductions vectorized over query rows.
#pragma once

#include "backends/cpu/AttentionAlgorithm.h"

namespace attn::cpu {

/// Schedules `a` for the ISA its geometry was chosen for.
void schedule_attention(AttentionAlgorithm& a);

}  // namespace attn::cpu
