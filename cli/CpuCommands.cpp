// The cpu target of `attnc compile` (with backward = true, the backward too) and `attnc dump --stage=cpu`.
#include "backends/cpu/CpuBackend.h"
#include "cli/OutputFile.h"
#include "cli/TargetEntries.h"
#include "codegen/Lower.h"

namespace attn::cli {

namespace {

// `host` follows this machine; the named ISAs give the same output on every machine.
CpuTarget cpu_target_named(const std::string& isa) {
  if (isa == "host") return host_cpu_target();
  CpuTarget t;
  t.isa = isa == "avx2" ? CpuIsa::AVX2 : isa == "portable" ? CpuIsa::Portable : CpuIsa::AVX512;
  return t;
}

}  // namespace

std::vector<std::string> write_cpu_target(const KernelIR& ir, const CompileContext& ctx,
                                          const std::filesystem::path& dir) {
  CpuKernelSource src = generate_cpu_kernel(ir, cpu_target_named(ctx.cpu_isa));
  const std::string name = kernel_name(ir);
  write_output_file(dir / (name + ".cpp"), src.source);
  write_output_file(dir / src.header_name, src.header);
  if (!kernel_options(ir).backward) return {name + ".cpp", src.header_name};
  // backward = true: the backward entry point `attn_<name>_backward` too (attn/kernel_backward_abi.h).
  CpuKernelSource back = generate_cpu_backward(ir, cpu_target_named(ctx.cpu_isa));
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
