// process_loader: one Loader for attnc's runners, every built-in target registered.
#include "attn/loader.hpp"
#include "runtime/CudaCompiler.h"
#include "runtime/VulkanCompiler.h"

namespace attn {

Loader& process_loader() {
  // Never destroyed: kernels handed out may still run while static destructors do.
  static Loader* loader = [] {
    auto* l = new Loader();
    l->add_compiler(make_cuda_compiler());
    l->add_compiler(make_vulkan_compiler());
    return l;
  }();
  return *loader;
}

}  // namespace attn
