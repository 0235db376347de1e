// How deep a definition's expression becomes once every definition it uses is inlined.
#pragma once

#include "frontend/Program.h"

namespace attn {

/// Reports, once and at the use that crosses the bound, a definition or kernel whose inlined
/// expression would be deeper than kMaxInlineDepth (frontend/Limits.h). Runs after name
/// resolution; definitions on a recursive cycle are skipped (the cycle is reported elsewhere), and
/// so is everything that uses a definition already reported.
void check_inline_depth(Program& program);

}  // namespace attn
