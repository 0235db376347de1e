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
  info.dtype = macro("ATTN_DTYPE_BF16") == "1"  ? ScalarType::BF16
               : macro("ATTN_DTYPE_F16") == "1" ? ScalarType::F16
                                                : ScalarType::F32;
  info.scale = std::stod(macro("ATTN_SCALE"));
  std::string names = macro("ATTN_BUFFER_NAMES");
  names = names.substr(1, names.find('"', 1) - 1);
  for (size_t pos = 0; !names.empty() && pos != std::string::npos;) {
    const size_t comma = names.find(',', pos);
    info.buffer_names.push_back(names.substr(pos, comma == std::string::npos ? comma : comma - pos));
    pos = comma == std::string::npos ? comma : comma + 1;
  }
  info.block_n = std::stoi(macro("ATTN_BN"));
  {
    std::string args = macro("ATTN_ARGS");
    args = args.substr(1, args.find('"', 1) - 1);
    size_t pos = 0;
    while (pos < args.size()) {
      size_t space = args.find(' ', pos);
      if (space == std::string::npos) space = args.size();
      const std::string word = args.substr(pos, space - pos);
      if (word.find('[') == std::string::npos) info.scalar_names.push_back(word.substr(0, word.find(':')));
      pos = space + 1;
    }
  }
  const std::string begin = "/* attn-tile-plan:", end = "attn-tile-plan-end */";
  const size_t b = source.find(begin);
  if (b != std::string::npos) {
    const size_t text = source.find('\n', b) + 1, e = source.find(end, text);
    if (e != std::string::npos) info.tile_plan = source.substr(text, e - text);
  }
  info.needs_16b_rows = source.find("\n#define ATTN_STAGES ") != std::string::npos;
  info.pack_heads = source.find("\n#define ATTN_PACK_HEADS 1 ") != std::string::npos;
  return info;
}

}  // namespace attn
