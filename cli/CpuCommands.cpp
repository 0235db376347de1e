// The cpu target of `attnc compile` (with backward = true, the backward too) and `attnc dump --stage=cpu`.
#include "backends/cpu/CpuBackend.h"
#include "runtime/OutputFile.h"
#include "cli/TargetEntries.h"
#include "codegen/Lower.h"

namespace attn::cli {

std::vector<std::string> write_cpu_target(const KernelIR& ir, const CompileContext& ctx,
                                          const std::filesystem::path& dir) {
  CpuKernelSource src = generate_cpu_kernel(ir, parse_cpu_paths(ctx.cpu_isa));
  const std::string name = kernel_name(ir);
  write_output_file(dir / (name + ".cpp"), src.source);
  write_output_file(dir / src.header_name, src.header);
  if (!kernel_options(ir).backward) return {name + ".cpp", src.header_name};
  // backward = true: the backward entry point `attn_<name>_backward` too (attn/kernel_backward_abi.h).
  CpuKernelSource back = generate_cpu_backward(ir, parse_cpu_paths(ctx.cpu_isa));
  write_output_file(dir / (name + "_backward.cpp"), back.source);
  write_output_file(dir / back.header_name, back.header);
  return {name + ".cpp", src.header_name, name + "_backward.cpp", back.header_name};
}

std::string dump_cpu_target(const KernelIR& ir) { return generate_cpu_kernel(ir, host_cpu_target()).source; }

TileSizes cpu_target_tiles(const KernelIR&) {
  CpuTiles t = cpu_kernel_tiles(host_cpu_target());
  return {t.tile_q, t.key_block};
}

}  // namespace attn::cli
