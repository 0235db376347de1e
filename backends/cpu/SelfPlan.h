// The tile planner a generated CPU kernel carries, for calls that pass no key ranges.
#pragma once

#include <string>
#include <vector>

#include "codegen/KernelIR.h"
#include "runtime/TilePlanner.h"

namespace attn::cpu {

/// C++ text of the planner a kernel whose mask reads buffers runs when the caller passes no
/// kv_ranges: the interpreter (runtime/TileProgramEval.h, runtime/TileGridEval.h, with internal
/// linkage), `plan` as constant tables, and fixed/SelfPlan.h's `SelfPlan` over them. `args` are
/// the kernel's arguments in declaration order (the plan names the scalars and buffers it reads).
std::string emit_self_plan(const TilePlanProgram& plan, const std::vector<KernelArg>& args);

}  // namespace attn::cpu
