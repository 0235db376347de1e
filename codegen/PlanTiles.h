// Tile planning: classifies (query tile, key tile) pairs of a kernel's mask as empty, partial or
// full by interval analysis. Light header (no Halide.h); the plan's Exprs are in TilePlan.h.
#pragma once

#include <memory>
#include <string>

namespace attn {

struct KernelIR;
struct TilePlan;
struct TilePlanProgram;

/// Tile sizes of a plan; 0 takes the kernel's `block` option, then 64.
struct PlanTilesOptions {
  int block_q = 0;
  int block_kv = 0;
};

/// Derives the plan of `ir`'s mask: closed-form key-tile ranges per query tile, symbolic per-tile
/// conditions, and their Halide-free compiled form for the run-time planner. Never fails: what
/// the analysis cannot prove is classified Partial.
std::shared_ptr<const TilePlan> plan_tiles(const KernelIR& ir, const PlanTilesOptions& options = {});

/// The compiled description that runtime/TilePlanner.h evaluates (lengths, scalars, buffers).
const TilePlanProgram& tile_plan_program(const TilePlan& plan);

/// The plan as text, for `attnc dump --stage=plan` and tests.
std::string print_tile_plan(const TilePlan& plan);

}  // namespace attn
