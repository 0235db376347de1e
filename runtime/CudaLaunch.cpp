// Reading a generated .cu's configuration macros back into a CudaLaunchInfo.
#include <regex>
#include <stdexcept>

#include "runtime/CudaLaunch.h"

namespace attn {

CudaLaunchInfo parse_cuda_launch_info(const std::string& source) {
  auto macro = [&](const char* name) -> std::string {
    const std::regex re(std::string("\\n#define ") + name + " ([^\\n]+)\\n");
    std::smatch m;
    if (!std::regex_search(source, m, re))
      throw std::invalid_argument(std::string("not a CUDA kernel written by attnc (no ") + name + ")");
    return m[1];
  };
  CudaLaunchInfo info;
  info.entry = macro("ATTN_ENTRY");
  info.threads = std::stoi(macro("ATTN_WARPS")) * 32;
  info.block_m = std::stoi(macro("ATTN_BM"));
  info.smem_bytes = std::stoi(macro("ATTN_SMEM_BYTES"));
  info.head_dim = std::stoi(macro("ATTN_D"));
  info.value_dim = std::stoi(macro("ATTN_DV"));
  info.dtype = macro("ATTN_DTYPE_BF16") == "1" ? ScalarType::BF16 : macro("ATTN_DTYPE_F16") == "1" ? ScalarType::F16 : ScalarType::F32;
  info.scale = std::stod(macro("ATTN_SCALE"));
  std::string names = macro("ATTN_BUFFER_NAMES");
  names = names.substr(1, names.find('"', 1) - 1);
  for (size_t pos = 0; !names.empty() && pos != std::string::npos;) {
    const size_t comma = names.find(',', pos);
    info.buffer_names.push_back(names.substr(pos, comma == std::string::npos ? comma : comma - pos));
    pos = comma == std::string::npos ? comma : comma + 1;
  }
  info.needs_16b_rows = source.find("\n#define ATTN_STAGES ") != std::string::npos;
  return info;
}

}  // namespace attn
