// vulkan_layout / vulkan_request: the kernel's arguments and the module's configuration as a layout.
#include "backends/spirv/VulkanRequest.h"

#include "codegen/KernelIR.h"

namespace attn::spirv {

namespace {

vk::KernelArgSlot::Kind slot_kind(const KernelArg& a) {
  if (a.kind == KernelArg::Kind::Buffer) return vk::KernelArgSlot::Buffer;
  return a.elem == ElemType::F32    ? vk::KernelArgSlot::F32
         : a.elem == ElemType::Bool ? vk::KernelArgSlot::Bool
                                    : vk::KernelArgSlot::I32;
}

}  // namespace

vk::KernelLayout vulkan_layout(const KernelIR& ir, const SpirvKernel& k) {
  vk::KernelLayout layout;
  layout.entry = ir.name;
  layout.head_dim = k.config.head_dim;
  layout.value_dim = k.config.value_dim;
  layout.rows = k.config.rows;
  layout.f16_io = k.config.f16_io;
  layout.lse = ir.options.lse;
  layout.max = k.config.row_max;
  for (size_t i = 0; i < ir.args.size(); ++i)
    layout.args.push_back(
        {slot_kind(ir.args[i]), ir.args[i].name, k.arg_offsets[i], static_cast<int>(ir.args[i].dims.size())});
  layout.arg_words = k.arg_words;
  layout.spirv = k.words;
  return layout;
}

KernelRequest vulkan_request(const KernelIR& ir, const SpirvKernel& k) {
  return {"vulkan", vk::print_vulkan_kernel(vulkan_layout(ir, k)), ir.name, {}, {}};
}

}  // namespace attn::spirv
