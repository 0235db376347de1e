// run_cpu_kernel: HostTensors in, the compiled kernel through the attn_kernel_args ABI, HostTensors out.
#include <map>
#include <mutex>
#include <stdexcept>

#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"

namespace attn {

namespace {

DLDataType dl_type(ScalarType t) {
  switch (t) {
    case ScalarType::F32: return {kDLFloat, 32, 1};
    case ScalarType::F16: return {kDLFloat, 16, 1};
    case ScalarType::BF16: return {kDLBfloat, 16, 1};
    case ScalarType::F64: return {kDLFloat, 64, 1};
    case ScalarType::I32: return {kDLInt, 32, 1};
    case ScalarType::I64: return {kDLInt, 64, 1};
    case ScalarType::Bool:
    case ScalarType::U8: return {kDLUInt, 8, 1};
  }
  return {kDLFloat, 32, 1};
}

/// A compact DLTensor over a HostTensor (which must outlive it).
struct DLView {
  DLTensor t{};
  std::vector<int64_t> shape;
  explicit DLView(const HostTensor& h) : shape(h.shape) {
    t.data = const_cast<uint8_t*>(h.bytes.data());
    t.device = {kDLCPU, 0};
    t.ndim = int(shape.size());
    t.dtype = dl_type(h.type);
    t.shape = shape.data();
  }
};

ScalarType io_type(DType d) {
  return d == DType::F16 ? ScalarType::F16 : d == DType::BF16 ? ScalarType::BF16 : ScalarType::F32;
}

/// One compiled kernel per distinct kernel in this process: generating the source (Halide) takes
/// ~0.4 s, so it is done once per structural hash, not once per call.
std::shared_ptr<CpuKernel> compiled(const KernelIR& ir) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<CpuKernel>> kernels;
  const std::string key = kernel_hash(ir);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = kernels.find(key); it != kernels.end()) return it->second;
  }
  CpuKernelSource src = generate_cpu_kernel(ir, host_cpu_target());
  auto kernel = compile_cpu_kernel(src);  // the loader compiles each distinct source once
  std::lock_guard<std::mutex> lock(mutex);
  return kernels.emplace(key, kernel).first->second;
}

}  // namespace

KernelOutputs run_cpu_kernel(const KernelIR& ir, const KernelInputs& in, int threads) {
  if (in.q.shape.size() != 4 || in.k.shape.size() != 4 || in.v.shape.size() != 4)
    throw InputError("q, k and v must be 4-D [B, H, L, D]");
  ScalarType t = io_type(ir.options.dtype);
  KernelOutputs out;
  out.out = HostTensor(t, {in.q.shape[0], in.q.shape[1], in.q.shape[2], in.v.shape[3]});
  if (ir.options.lse) out.lse = HostTensor(ScalarType::F32, {in.q.shape[0], in.q.shape[1], in.q.shape[2]});

  DLView q(in.q), k(in.k), v(in.v), o(out.out);
  std::unique_ptr<DLView> lse = ir.options.lse ? std::make_unique<DLView>(out.lse) : nullptr;
  std::vector<std::unique_ptr<DLView>> views;
  std::vector<const DLTensor*> buffers;
  std::vector<double> scalars;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      auto it = in.buffers.find(a.name);
      if (it == in.buffers.end()) throw InputError("missing buffer argument '" + a.name + "'");
      views.push_back(std::make_unique<DLView>(it->second));
      buffers.push_back(&views.back()->t);
    } else {
      auto it = in.scalars.find(a.name);
      if (it == in.scalars.end()) throw InputError("missing scalar argument '" + a.name + "'");
      scalars.push_back(it->second);
    }
  }
  char error[1024] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &q.t, args.k = &k.t, args.v = &v.t, args.out = &o.t, args.lse = lse ? &lse->t : nullptr;
  args.buffers = buffers.data(), args.num_buffers = int(buffers.size());
  args.scalars = scalars.data(), args.num_scalars = int(scalars.size());
  args.num_threads = threads, args.error = error, args.error_size = sizeof error;
  if (compiled(ir)->run(args) != 0) throw InputError(error[0] ? error : "the CPU kernel failed");
  return out;
}

}  // namespace attn
