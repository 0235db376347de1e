// The fixed code of every emitted CPU kernel (backends/cpu/fixed/) and the ABI header, embedded at
// build time by cmake/EmbedText.cmake.
#pragma once

#include <map>
#include <string>

namespace attn::cpu {

/// Every embedded text under its file name: "HalideVectorOps.h", "IrIntegerOps.h", "RuntimeContext.h",
/// "RuntimeFunctions.h", "WrapperEntry.h", "WrapperSupport.h", "BackwardEntry.h" (backends/cpu/fixed/)
/// and "kernel_abi.h", "kernel_backward_abi.h" (runtime/include/attn/).
const std::map<std::string, std::string>& cpu_fixed_texts();

/// The text of `name` (one of cpu_fixed_texts()); throws std::logic_error for any other name.
const std::string& cpu_fixed_text(const std::string& name);

}  // namespace attn::cpu
