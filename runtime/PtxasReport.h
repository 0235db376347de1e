// ptxas's resource report (`--ptxas-options=-v`) as data: registers, spills, shared memory.
#pragma once

#include <string>
#include <vector>

namespace attn {

/// One compiled function's resources.
struct PtxasFunction {
  std::string name;
  std::string arch;  ///< "sm_80"
  int registers = 0;
  int stack_frame = 0;    ///< bytes
  int spill_stores = 0;   ///< bytes
  int spill_loads = 0;    ///< bytes
  int static_shared = 0;  ///< bytes of static __shared__ (dynamic shared memory is not listed)
  int constant = 0;       ///< bytes of cmem[0] (the parameter bank)
};

struct PtxasReport {
  std::vector<PtxasFunction> functions;
  /// The entry named `name`, or nullptr.
  const PtxasFunction* find(const std::string& name) const;
};

/// Parses the `ptxas info` lines of an NVRTC/nvcc log; ignores everything else.
PtxasReport parse_ptxas_report(const std::string& log);

}  // namespace attn
