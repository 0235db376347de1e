// The benchmark's attention variants as hand-built IR (full, causal, sliding window, ALiBi,
// soft-capping, packed documents), shared by the CPU benchmark and the CPU tests.
#pragma once

#include <string>
#include <vector>

#include "codegen/KernelIR.h"

namespace attn::bench {

/// One of "full", "causal", "sliding256", "alibi", "softcap", "documents"; head_dim 0 = any.
KernelIR make_variant(const std::string& variant, int head_dim, DType dtype = DType::F32);

/// Every name make_variant accepts.
std::vector<std::string> variant_names();

}  // namespace attn::bench
