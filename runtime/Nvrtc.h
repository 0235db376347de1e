// NVRTC, loaded with dlopen: CUDA C++ -> cubin at run time, with ptxas's resource report.
// No CUDA header or library is needed to build this; only the machine that compiles needs NVRTC.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/PtxasReport.h"

namespace attn {

/// NVRTC is missing, or a compile failed; the message is complete (it carries NVRTC's log).
struct CudaCompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NvrtcOptions {
  std::string arch = "sm_80";  ///< -arch=...: sm_80, sm_90a, ...
  /// The CUDA toolkit's include folder (cuda_bf16.h, ...): empty takes $ATTNC_CUDA_INCLUDE,
  /// then $CUDA_HOME/include, then the toolkit attnc was built against.
  std::string include_dir;
  std::vector<std::string> extra;  ///< more NVRTC options
};

struct NvrtcResult {
  std::vector<uint8_t> cubin;
  std::string log;     ///< NVRTC's log (warnings, ptxas -v lines)
  PtxasReport report;  ///< parsed from the log
  double seconds = 0;  ///< wall time of the compile
};

/// True when libnvrtc can be loaded here.
bool nvrtc_available();
/// NVRTC's version as "13.0", or throws CudaCompileError.
std::string nvrtc_version();
/// The toolkit include folder the options resolve to.
std::string nvrtc_include_dir(const NvrtcOptions& options);

/// Compiles `source` (named `name` in diagnostics) to a cubin with `--ptxas-options=-v`.
/// Throws CudaCompileError with the log on failure.
NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const NvrtcOptions& options);

}  // namespace attn
