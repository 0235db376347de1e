// The cuda target's entry in the backend registry: CUDA C++ sources (`attnc compile -t cuda`, with
// backward = true the backward's too), run and the backward on the GPU, the tile-shape tuner
// (`bench --autotune`), and kernels loaded through attn::Loader (NVRTC), launched on a stream.
#include <cstdio>
#include <sstream>

#include "attn/kernel_abi.h"
#include "attn/loader.hpp"
#include "backends/Backend.h"
#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaRun.h"
#include "backends/io/KernelIO.h"
#include "codegen/Lower.h"
#include "runtime/CudaCompiler.h"

namespace attn {

namespace {

CudaPrintOptions print_options(const EmitOptions& ctx) {
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
  return po;
}

/// A kernel through the loader: on the default stream, or launched on the caller's.
class CudaLoadedKernel : public LoadedKernel {
 public:
  explicit CudaLoadedKernel(Kernel kernel) : kernel_(std::move(kernel)) {}
  int call(const attn_kernel_args& args, void* stream) const override {
    if (!stream) return kernel_(args);
    return module().launch_on(&args, stream);
  }

  const Kernel* loaded() const override { return &kernel_; }

  int plan(const attn_kernel_args& args, std::shared_ptr<const void>& plan) const override {
    return module().plan_calls(&args, plan);
  }

  int call_planned(const void* plan, const attn_kernel_args& args, void* stream) const override {
    return plan ? module().invoke_planned(plan, &args, stream) : call(args, stream);
  }

 private:
  const CudaKernelModule& module() const {
    const auto* m = dynamic_cast<const CudaKernelModule*>(kernel_.module());
    if (!m) throw std::logic_error("the cuda loader gave a module that is not a CudaKernelModule");
    return *m;
  }
  Kernel kernel_;
};

std::string tune_report(const KernelIR& ir, const KernelInputs& in) {
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

class CudaTargetBackend : public Backend {
 public:
  const char* name() const override { return "cuda"; }
  int default_head_dim() const override { return kCudaDefaultHeadDim; }
  bool can(Capability) const override { return true; }

  EmittedKernel emit(const KernelIR& ir, const EmitOptions& o) const override {
    const CudaPrintOptions po = print_options(o);
    CudaKernelSource src = print_cuda_kernel(ir, po);
    const std::string name = kernel_name(ir);
    EmittedKernel out;
    out.files = {{name + ".cu", src.cu}, {name + ".cuh", src.header}};
    out.manifest = {{"cuda_launch", write_cuda_launch_info(src.launch)}};
    // backward = true (or --cuda-backward where the backward applies): its kernels too
    // (attn/cuda_backward_abi.h).
    const bool wanted = kernel_options(ir).backward;
    if (!wanted && !o.cuda_backward) return out;
    CudaBackwardSource back;
    try {
      back = print_cuda_backward(ir, po);
    } catch (const KernelLimitError&) {
      if (wanted) throw;
      return out;  // --cuda-backward: only where the backward applies
    }
    out.files.push_back({name + "_backward.cu", back.cu});
    out.files.push_back({name + "_backward.cuh", back.header});
    out.manifest.push_back({"cuda_backward_launch", write_cuda_backward_info(back.launch)});
    return out;
  }
  std::string dump(const KernelIR& ir) const override { return print_cuda_kernel(ir, {}).cu; }
  KernelOutputs run(const KernelIR& ir, const KernelInputs& in, int) const override {
    return run_cuda(ir, in).outputs;
  }
  KernelGradients backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                           int) const override {
    return run_cuda_backward(ir, in, r).gradients;
  }
  std::string tune(const KernelIR& ir, const KernelInputs& in) const override { return tune_report(ir, in); }
  TileSizes tiles(const KernelIR& ir) const override {
    const CudaLaunchInfo launch = print_cuda_kernel(ir, {}).launch;
    return {launch.block_m, launch.block_n};
  }
  int device_type() const override { return kDLCUDA; }
  bool calls_in_place() const override { return true; }
  std::string variant_key(const KernelIR&, const KernelInputs& s) const override {
    // The head dims, the size classes a tuned shape is cached for, and for a ragged batch or paged
    // cache the build that runs its launches as one grid.
    return std::to_string(s.q.shape.back()) + "," + std::to_string(s.v.shape.back()) + "," +
           cuda_size_classes(s) + (s.ragged() ? ",one grid" : "");
  }
  std::shared_ptr<const LoadedKernel> load(std::shared_ptr<const KernelIR> ir,
                                           const KernelLoadOptions& o) const override {
    if (o.shapes) return std::make_shared<CudaLoadedKernel>(load_cuda_kernel(*ir, *o.shapes));
    const int d = backend_head_dim(*this, *ir, o.head_dim);
    const int dv = o.value_dim                     ? o.value_dim
                   : kernel_options(*ir).value_dim ? kernel_options(*ir).value_dim
                                                   : d;
    Loader& loader = o.loader ? *o.loader : process_loader();
    return std::make_shared<CudaLoadedKernel>(loader.get(cuda_device_request(*ir, d, dv)));
  }
  void call_backward(const KernelIR& ir, const attn_backward_args& args, void* stream) const override {
    launch_cuda_backward(ir, args, stream);
  }
};

}  // namespace

const Backend& cuda_backend() {
  static const CudaTargetBackend backend;
  return backend;
}

}  // namespace attn
