// run_cuda: the device first (so a machine without a GPU fails fast and clearly), then the source
// for its architecture, NVRTC, and the launcher.
#include "backends/cuda/CudaRun.h"

#include <cmath>
#include <map>
#include <mutex>

#include "backends/cuda/CudaPrinter.h"
#include "codegen/KernelIR.h"
#include "runtime/CudaLauncher.h"
#include "runtime/Nvrtc.h"

namespace attn {

CudaRunResult run_cuda(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options) {
  validate_inputs(ir, in);
  std::shared_ptr<CudaDevice> device = CudaDevice::open(options.device);

  CudaPrintOptions po;
  po.sm = device->sm();
  po.head_dim = static_cast<int>(in.q.shape[3]);
  po.value_dim = static_cast<int>(in.v.shape[3]);
  KernelIR specialized = ir;
  specialized.options.head_dim = po.head_dim;
  specialized.options.value_dim = po.value_dim;
  CudaKernelSource src = print_cuda_kernel(specialized, po);

  // One compile per distinct source and architecture in this process.
  static std::mutex mutex;
  static std::map<std::string, NvrtcResult> compiled;
  CudaRunResult result;
  result.tiles = src.tiles;
  NvrtcResult nv;
  const std::string arch = "sm_" + std::to_string(po.sm);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = compiled.find(arch + "\n" + src.cu);
    if (it == compiled.end()) {
      NvrtcOptions no;
      no.arch = arch;
      it = compiled.emplace(arch + "\n" + src.cu, nvrtc_compile(src.cu, src.launch.entry + ".cu", no)).first;
      result.compile_seconds = it->second.seconds;
    }
    nv = it->second;
  }
  if (const PtxasFunction* f = nv.report.find(src.launch.entry)) result.resources = *f;
  std::shared_ptr<CudaModule> module = device->load(nv.cubin);

  CudaLaunchRequest req;
  req.q = &in.q;
  req.k = &in.k;
  req.v = &in.v;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Buffer) req.buffers.push_back({a.name, &in.buffers.at(a.name)});
    else req.scalars.push_back(in.scalars.at(a.name));
  }
  req.scale = ir.options.scale ? *ir.options.scale : 1.0 / std::sqrt(static_cast<double>(in.q.shape[3]));
  req.lse = ir.options.lse;
  req.timed_repeats = options.timed_repeats;
  CudaLaunchResult lr = launch_cuda_kernel(*device, *module, src.launch, req);
  result.outputs.out = std::move(lr.out);
  result.outputs.lse = std::move(lr.lse);
  result.times_ms = std::move(lr.times_ms);
  return result;
}

}  // namespace attn
