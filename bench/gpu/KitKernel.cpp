// The kit's kernel files and their launch requests.
#include "bench/gpu/KitKernel.h"

#include <fstream>
#include <sstream>

namespace attn::kit {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string kit_name(const fs::path& cu) {
  return cu.parent_path().filename().string() + "/" + cu.stem().string();
}

Kit load_kit(const fs::path& cu) {
  Kit k;
  k.cu = cu;
  k.source = read_text(cu);
  k.info = parse_cuda_launch_info(k.source);
  k.args = parse_args(k.source, k.lse);
  k.max = k.source.find("\n#define ATTN_RETURN_MAX 1 ") != std::string::npos;
  k.sink = k.source.find("\n#define ATTN_SINK 1\n") != std::string::npos;
  const fs::path backward = cu.parent_path() / (cu.stem().string() + "_backward.cu");
  if (fs::exists(backward)) k.backward = backward;
  return k;
}

CudaLaunchRequest request_for(const Kit& k, const HostTensor& q, const HostTensor& kt, const HostTensor& v,
                              const std::vector<HostTensor>& buffers) {
  CudaLaunchRequest r;
  r.q = &q;
  r.k = &kt;
  r.v = &v;
  size_t b = 0;
  for (const ArgSpec& a : k.args) {
    if (a.buffer)
      r.buffers.push_back({a.name, &buffers[b++]});
    else
      r.scalars.push_back(16);
  }
  r.scale = k.info.scale;
  r.lse = k.lse;
  r.max = k.max;
  return r;
}

}  // namespace attn::kit
