// A text form of TilePlanProgram, so generated sources can carry their tile plan to the runtime.
#pragma once

#include <string>
#include <string_view>

#include "runtime/TilePlanner.h"

namespace attn {

/// Deterministic, line-based text ("attn-tile-plan 1" first); doubles round-trip exactly.
std::string write_tile_plan_program(const TilePlanProgram& plan);

/// Parses what write_tile_plan_program wrote. Throws std::invalid_argument on malformed text,
/// including operands that refer to later registers (so a parsed program is safe to run).
TilePlanProgram read_tile_plan_program(std::string_view text);

}  // namespace attn
