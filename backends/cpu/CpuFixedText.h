// The fixed code of every emitted CPU kernel (backends/cpu/fixed/), the ABI headers and the tile planner, embedded at
// build time by cmake/EmbedText.cmake.
#pragma once

#include <map>
#include <string>

namespace attn::cpu {

/// Every embedded text under its file name: the files of backends/cpu/fixed/ ("HalideVectorOps.h",
/// "WrapperEntry.h", "PathChoice.h", ...: fixed/README.md lists them), "kernel_abi.h", "kernel_backward_abi.h" (runtime/include/attn/) and
/// "TileProgramEval.h", "TileGridEval.h" (runtime/).
const std::map<std::string, std::string>& cpu_fixed_texts();

/// The text of `name` (one of cpu_fixed_texts()); throws std::logic_error for any other name.
const std::string& cpu_fixed_text(const std::string& name);

}  // namespace attn::cpu
