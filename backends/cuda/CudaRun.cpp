// run_cuda: the device first (so a machine without a GPU fails fast and clearly), then the source
// for its architecture through the loader (NVRTC once per kernel, disk cache), then a launch on
// device copies of the inputs through the kernel's DLPack entry, as applications call it.
#include "backends/cuda/CudaRun.h"

#include <chrono>
#include <cstring>

#include "attn/loader.hpp"
#include "backends/cuda/CudaPrinter.h"
#include "codegen/KernelIR.h"
#include "runtime/CudaCompiler.h"
#include "runtime/CudaDriver.h"
#include "runtime/Nvrtc.h"

namespace attn {

namespace {

/// One loader per process for the cuda target.
Loader& cuda_loader() {
  static Loader* loader = [] {
    auto* l = new Loader();
    l->add_compiler(make_cuda_compiler());
    return l;
  }();
  return *loader;
}

DLDataType dl_type(ScalarType t) {
  switch (t) {
    case ScalarType::BF16: return {kDLBfloat, 16, 1};
    case ScalarType::F16: return {kDLFloat, 16, 1};
    case ScalarType::I32: return {kDLInt, 32, 1};
    case ScalarType::Bool:
    case ScalarType::U8: return {kDLUInt, 8, 1};
    default: return {kDLFloat, 32, 1};
  }
}

/// A host tensor's device copy and its DLPack view.
struct DeviceTensor {
  CudaBuffer buffer;
  std::vector<int64_t> shape;
  DLTensor dl{};

  DeviceTensor(CudaDevice& device, const HostTensor& t, bool upload)
      : buffer(device.alloc(t.bytes.size())), shape(t.shape) {
    if (upload) device.upload(buffer, t.bytes.data(), t.bytes.size());
    dl.data = reinterpret_cast<void*>(buffer.ptr());
    dl.device = {kDLCUDA, 0};
    dl.ndim = static_cast<int>(shape.size());
    dl.dtype = dl_type(t.type);
    dl.shape = shape.data();
  }
};

}  // namespace

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

  CudaRunResult result;
  result.tiles = src.tiles;
  const auto t0 = std::chrono::steady_clock::now();
  Kernel kernel;
  try {
    kernel = cuda_loader().get({"cuda", src.cu, src.launch.entry, {}});
  } catch (const LoadError& e) {
    if (e.kind() == LoadErrorKind::CompileFailed) throw CudaCompileError(e.what());
    throw CudaError(e.what());
  }
  result.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  DeviceTensor q(*device, in.q, true), k(*device, in.k, true), v(*device, in.v, true);
  HostTensor out_host(in.q.type, {in.q.shape[0], in.q.shape[1], in.q.shape[2], in.v.shape[3]});
  DeviceTensor out(*device, out_host, false);
  HostTensor lse_host;
  std::unique_ptr<DeviceTensor> lse;
  if (ir.options.lse) {
    lse_host = HostTensor(ScalarType::F32, {in.q.shape[0], in.q.shape[1], in.q.shape[2]});
    lse = std::make_unique<DeviceTensor>(*device, lse_host, false);
  }
  std::vector<std::unique_ptr<DeviceTensor>> buffers;
  std::vector<const DLTensor*> buffer_views;
  std::vector<double> scalars;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      buffers.push_back(std::make_unique<DeviceTensor>(*device, in.buffers.at(a.name), true));
      buffer_views.push_back(&buffers.back()->dl);
    } else {
      scalars.push_back(in.scalars.at(a.name));
    }
  }
  char error[1024] = {};
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &q.dl;
  args.k = &k.dl;
  args.v = &v.dl;
  args.out = &out.dl;
  args.lse = lse ? &lse->dl : nullptr;
  args.buffers = buffer_views.data();
  args.num_buffers = static_cast<int>(buffer_views.size());
  args.scalars = scalars.data();
  args.num_scalars = static_cast<int>(scalars.size());
  args.error = error;
  args.error_size = sizeof error;
  for (int i = 0; i <= options.timed_repeats; ++i) {
    const auto t = std::chrono::steady_clock::now();
    if (kernel(args) != 0) throw CudaError(error);
    if (i > 0)
      result.times_ms.push_back(static_cast<float>(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count()));
  }
  device->download(out_host.bytes.data(), out.buffer, out_host.bytes.size());
  if (lse) device->download(lse_host.bytes.data(), lse->buffer, lse_host.bytes.size());
  result.outputs.out = std::move(out_host);
  result.outputs.lse = std::move(lse_host);
  return result;
}

}  // namespace attn
