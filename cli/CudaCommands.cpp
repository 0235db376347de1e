// The CUDA target of `attnc compile` and `attnc run`.
#include <fstream>

#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaRun.h"
#include "cli/CompileTargets.h"
#include "codegen/Lower.h"

namespace attn::cli {

std::vector<std::string> write_cuda_target(const KernelIR& ir, const CompileContext& ctx,
                                           const std::filesystem::path& dir) {
  CudaPrintOptions po;
  po.sm = ctx.cuda_sm;
  po.head_dim = ctx.head_dim;
  po.source_name = ctx.source_name;
  po.source_hash = ctx.kernel_hash;
  CudaKernelSource src = print_cuda_kernel(ir, po);
  const std::string name = kernel_name(ir);
  std::ofstream(dir / (name + ".cu"), std::ios::binary) << src.cu;
  std::ofstream(dir / (name + ".cuh"), std::ios::binary) << src.header;
  return {name + ".cu", name + ".cuh"};
}

std::string dump_cuda_target(const KernelIR& ir) { return print_cuda_kernel(ir, {}).cu; }

KernelOutputs run_cuda_target(const KernelIR& ir, const KernelInputs& in) { return run_cuda(ir, in).outputs; }

}  // namespace attn::cli
