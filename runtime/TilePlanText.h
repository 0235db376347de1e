// A text form of TilePlanProgram, so generated sources can carry their tile plan to the runtime.
#pragma once

#include <string>
#include <string_view>

#include "runtime/TilePlanner.h"

namespace attn {

/// The text's version: 2 since the programs take the call's lengths (`q_len`, `kv_len`).
inline constexpr int kTilePlanTextVersion = 2;

/// Deterministic, line-based text ("attn-tile-plan 2" first); doubles round-trip exactly.
std::string write_tile_plan_program(const TilePlanProgram& plan);

/// Parses what write_tile_plan_program wrote. Throws std::invalid_argument on malformed text,
/// including operands that refer to later registers (so a parsed program is safe to run).
TilePlanProgram read_tile_plan_program(std::string_view text);

}  // namespace attn
