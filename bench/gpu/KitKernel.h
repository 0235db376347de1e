// One kernel of the kit (bench/gpu/make_kit.sh): its generated source, launch shape and arguments,
// and the launch request kit_check builds for it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bench/gpu/KitInputs.h"
#include "runtime/CudaLauncher.h"

namespace attn::kit {

std::string read_text(const std::filesystem::path& p);

/// How result lines name a kernel file: its folder and stem ("check-wgmma/std_causal_bf16").
std::string kit_name(const std::filesystem::path& cu);

struct Kit {
  std::filesystem::path cu;
  std::string source;
  CudaLaunchInfo info;
  std::vector<ArgSpec> args;
  bool lse = false;
  bool max = false;                ///< it writes row maxima (return_max)
  bool sink = false;               ///< it has a sink (a row without keys then has the sink's LSE)
  std::filesystem::path backward;  ///< NAME_backward.cu beside it (attnc compile --backward), or empty
};

/// Reads `cu` and finds its backward; throws std::invalid_argument for a source attnc did not write.
Kit load_kit(const std::filesystem::path& cu);

/// A launch of `k` on the host tensors (scalar arguments 16, the kernel's scale, LSE and row maxima).
CudaLaunchRequest request_for(const Kit& k, const HostTensor& q, const HostTensor& kt, const HostTensor& v,
                              const std::vector<HostTensor>& buffers);

}  // namespace attn::kit
