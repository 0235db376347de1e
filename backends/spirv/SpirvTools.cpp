// SPIR-V Tools around the emitter: validate, optimize (performance passes), validate again,
// disassemble. A module that fails validation is a compiler bug: SpirvInternalError.
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "backends/spirv/SpirvKernel.h"
#include "codegen/KernelIR.h"

namespace attn::spirv {

/// SpirvKernel.cpp: emits the module; clears config.block_sparse when the plan cannot be printed.
std::vector<uint32_t> emit_spirv_unchecked(const KernelIR& ir, SpirvConfig& config);

namespace {

spv_target_env vulkan_env(uint32_t spirv_version) {
  return spirv_version >= 0x00010500 ? SPV_ENV_VULKAN_1_2 : SPV_ENV_VULKAN_1_1;
}

}  // namespace

std::string validate_spirv(const std::vector<uint32_t>& words, uint32_t spirv_version) {
  spvtools::SpirvTools tools(vulkan_env(spirv_version));
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
    messages += "word " + std::to_string(pos.index) + ": " + msg + "\n";
  });
  if (tools.Validate(words)) return {};
  return messages.empty() ? "invalid module\n" : messages;
}

std::string disassemble_spirv(const std::vector<uint32_t>& words, uint32_t spirv_version) {
  spvtools::SpirvTools tools(vulkan_env(spirv_version));
  std::string text;
  if (!tools.Disassemble(words, &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return "; (the module could not be disassembled)\n";
  return text;
}

namespace {

void check(const std::vector<uint32_t>& words, uint32_t version, const KernelIR& ir, const char* stage) {
  std::string errors = validate_spirv(words, version);
  if (!errors.empty())
    throw SpirvInternalError("internal error: the SPIR-V " + std::string(stage) + " module for kernel '" +
                             ir.name + "' is invalid:\n" + errors + disassemble_spirv(words, version));
}

}  // namespace

std::vector<uint32_t> emit_spirv(const KernelIR& ir, const SpirvConfig& config) {
  SpirvConfig c = config;
  std::vector<uint32_t> words = emit_spirv_unchecked(ir, c);
  check(words, config.spirv_version, ir, "emitted");
  return words;
}

SpirvKernel compile_spirv(const KernelIR& ir, const SpirvConfig& config) {
  SpirvConfig c = config;
  std::vector<uint32_t> words = emit_spirv_unchecked(ir, c);
  return optimize_spirv(ir, c, std::move(words));
}

SpirvKernel optimize_spirv(const KernelIR& ir, const SpirvConfig& config, std::vector<uint32_t> words) {
  SpirvKernel k;
  k.config = config;
  check(words, config.spirv_version, ir, "emitted");
  spvtools::Optimizer opt(vulkan_env(config.spirv_version));
  std::string messages;
  opt.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* msg) {
    messages += std::string(msg) + "\n";
  });
  opt.RegisterPerformancePasses();
  if (!opt.Run(words.data(), words.size(), &k.words))
    throw SpirvInternalError("internal error: the SPIR-V optimizer failed on kernel '" + ir.name + "':\n" +
                             messages + disassemble_spirv(words, config.spirv_version));
  check(k.words, config.spirv_version, ir, "optimized");
  int offset = 0;
  for (const KernelArg& a : ir.args) {
    k.arg_offsets.push_back(offset);
    if (a.kind == KernelArg::Kind::Buffer) {
      k.buffers.push_back(a.name);
      offset += static_cast<int>(a.dims.size());
    } else {
      ++offset;
    }
  }
  k.arg_words = offset;
  return k;
}

}  // namespace attn::spirv
