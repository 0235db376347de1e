// The cuda target of `attnc compile`, `dump`, `run` and `bench --autotune`.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaRun.h"
#include "runtime/OutputFile.h"
#include "cli/TargetEntries.h"
#include "codegen/Lower.h"

namespace attn::cli {

std::vector<std::string> write_cuda_target(const KernelIR& ir, const CompileContext& ctx,
                                           const std::filesystem::path& dir) {
  CudaPrintOptions po;
  po.sm = ctx.cuda_sm;
  if (ctx.cuda_tiles == "wgmma") {
    // Hopper's warpgroup kernel wherever it applies (bf16/f16, head dims multiples of 64), the
    // table's shape elsewhere.
    if (ctx.cuda_sm != 90)
      throw InputError("--cuda-tiles wgmma: the warpgroup kernel is for --cuda-sm 90 (sm_90a)");
    po.prefer_wgmma = true;
  } else if (!ctx.cuda_tiles.empty()) {
    po.tiles = parse_cuda_tiles(ctx.cuda_tiles);
    if (!po.tiles)
      throw InputError(
          "--cuda-tiles: '" + ctx.cuda_tiles +
          "' is not a tile shape (e.g. 'mma 64x64 warps=4 stages=3', 'wgmma 128x128 warpgroups=2 "
          "stages=2' or 'simt 32x32 warps=4', as attnc bench --autotune prints them, or 'wgmma')");
  }
  po.head_dim = ctx.head_dim;
  po.source_name = ctx.source_name;
  po.source_hash = ctx.kernel_hash;
  CudaKernelSource src = print_cuda_kernel(ir, po);
  const std::string name = kernel_name(ir);
  write_output_file(dir / (name + ".cu"), src.cu);
  write_output_file(dir / (name + ".cuh"), src.header);
  if (!kernel_options(ir).backward) return {name + ".cu", name + ".cuh"};
  // backward = true: the backward's kernels too (attn/cuda_backward_abi.h).
  CudaBackwardSource back = print_cuda_backward(ir, po);
  write_output_file(dir / (name + "_backward.cu"), back.cu);
  write_output_file(dir / (name + "_backward.cuh"), back.header);
  return {name + ".cu", name + ".cuh", name + "_backward.cu", name + "_backward.cuh"};
}

std::string dump_cuda_target(const KernelIR& ir) { return print_cuda_kernel(ir, {}).cu; }

TileSizes cuda_target_tiles(const KernelIR& ir) {
  const CudaLaunchInfo launch = print_cuda_kernel(ir, {}).launch;
  return {launch.block_m, launch.block_n};
}

KernelOutputs run_cuda_target(const KernelIR& ir, const KernelInputs& in, int) {
  return run_cuda(ir, in).outputs;
}

KernelGradients run_cuda_backward_target(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                                         int) {
  return run_cuda_backward(ir, in, r).gradients;
}

std::string tune_cuda_target(const KernelIR& ir, const KernelInputs& in) {
  CudaRunOptions options;
  options.autotune = true;
  CudaRunResult r = run_cuda(ir, in, options);
  std::ostringstream s;
  if (r.tune_trials.empty()) s << "tiles: " << describe(r.tiles) << " (tuned before, from the cache)\n";
  for (const CudaTuneTrial& t : r.tune_trials) {
    char line[256];
    if (t.rejected.empty())
      std::snprintf(line, sizeof line, "  %-36s %9.3f ms\n", t.name.c_str(), t.ms);
    else
      std::snprintf(line, sizeof line, "  %-36s rejected: %s\n", t.name.c_str(), t.rejected.c_str());
    s << line;
  }
  if (!r.tune_trials.empty()) s << "tiles: " << describe(r.tiles) << " (the first row is the table's)\n";
  return s.str();
}

}  // namespace attn::cli
