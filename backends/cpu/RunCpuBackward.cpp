// run_cpu_backward: the forward (for Out and its LSE), then the generated backward through the
// attn_backward_args ABI, HostTensors in and out.
#include <unistd.h>

#include <future>
#include <map>
#include <mutex>
#include <set>
#include <vector>
#include <stdexcept>

#include "attn/kernel_backward_abi.h"
#include "attn/loader.hpp"
#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

/// The backwards compiled in this process, by the hash of their IR (head dims fixed).
struct CompiledBackwards {
  std::mutex mutex;
  std::map<std::string, Kernel> kernels;
  std::set<std::string> preparing;  ///< prepare_cpu_backward started these
  /// The background compiles, waited for at exit: the loader (constructed first, so destroyed
  /// after this) must outlive them.
  std::vector<std::future<void>> pending;
  const pid_t owner = getpid();

  ~CompiledBackwards() {
    // A child forked while a compile ran has no thread to wait for: its futures are left alone.
    if (getpid() != owner) new std::vector<std::future<void>>(std::move(pending));
  }
};

CompiledBackwards& compiled_backwards() {
  (void)process_loader();
  static CompiledBackwards backwards;
  return backwards;
}

/// The backward's kernel for a call: its IR with the call's head dims, and that IR's hash.
struct BackwardOfCall {
  KernelIR ir;
  std::string key;
  BackwardOfCall(const KernelIR& call_ir, HeadDims call)
      : ir(with_call_head_dims(call_ir, call.head_dim, call.value_dim)), key(kernel_hash(ir)) {}
};

}  // namespace

// One compiled backward per distinct kernel in this process (as run_cpu_kernel's forwards). The
// loader resolves the entry as an attn_kernel_fn; it is the backward's signature (the source says).
attn_backward_fn cpu_backward_entry(const KernelIR& call_ir, HeadDims call) {
  CompiledBackwards& c = compiled_backwards();
  const auto [ir, key] = BackwardOfCall(call_ir, call);
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (auto it = c.kernels.find(key); it != c.kernels.end())
      return reinterpret_cast<attn_backward_fn>(it->second.entry());
  }
  // A prepared backward: its source is in the cache, and its compile done or in flight.
  Kernel kernel = process_loader().get(host_kernel_request(ir, process_loader(), CpuEntry::Backward));
  std::lock_guard<std::mutex> lock(c.mutex);
  return reinterpret_cast<attn_backward_fn>(c.kernels.emplace(key, kernel).first->second.entry());
}

void prepare_cpu_backward(const KernelIR& call_ir, HeadDims call) {
  CompiledBackwards& c = compiled_backwards();
  const auto [ir, key] = BackwardOfCall(call_ir, call);
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.kernels.count(key) || !c.preparing.insert(key).second) return;
  }
  try {
    KernelRequest request = host_kernel_request(ir, process_loader(), CpuEntry::Backward);
    std::future<void> compile = std::async(std::launch::async, [request = std::move(request)] {
      try {
        (void)process_loader().get(request);
      } catch (const std::exception&) {  // cpu_backward_entry compiles it again and reports
      }
    });
    std::lock_guard<std::mutex> lock(c.mutex);
    c.pending.push_back(std::move(compile));
  } catch (const std::exception&) {  // likewise: the generator's error comes back there
  }
}

KernelGradients run_cpu_backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& request,
                                 int threads) {
  validate_inputs(ir, in);
  validate_gradient_request(ir, in, request);
  // The forward with its LSE, whether or not the kernel returns it.
  KernelIR with_lse = ir;
  with_lse.options.lse = true;
  KernelOutputs fwd = run_cpu_kernel(with_lse, in, threads);
  KernelGradients grads = make_gradients(ir, in, request);

  std::vector<DLTensor> buffers, buffer_grads;
  std::vector<const DLTensor*> buffer_ptrs;
  std::vector<DLTensor*> grad_ptrs;
  std::vector<double> scalars;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      scalars.push_back(in.scalars.at(a.name));
      continue;
    }
    buffers.push_back(host_view(in.buffers.at(a.name)));
    auto g = grads.buffers.find(a.name);
    buffer_grads.push_back(g == grads.buffers.end() ? DLTensor{} : host_view(g->second));
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    buffer_ptrs.push_back(&buffers[i]);
    grad_ptrs.push_back(buffer_grads[i].ndim ? &buffer_grads[i] : nullptr);  // ndim 0: not wanted
  }
  DLTensor q = host_view(in.q), k = host_view(in.k), v = host_view(in.v), out = host_view(fwd.out), lse = host_view(fwd.lse);
  DLTensor dout = host_view(request.dout), dq = host_view(grads.dq), dk = host_view(grads.dk), dv = host_view(grads.dv);
  DLTensor dlse = request.dlse.shape.empty() ? DLTensor{} : host_view(request.dlse);
  char error[1024] = "";
  attn_backward_args args{};
  args.abi_version = ATTN_BACKWARD_ABI_VERSION;
  args.q = &q, args.k = &k, args.v = &v, args.out = &out, args.lse = &lse, args.dout = &dout;
  args.dlse = request.dlse.shape.empty() ? nullptr : &dlse;
  args.dq = &dq, args.dk = &dk, args.dv = &dv;
  args.buffers = buffer_ptrs.data(), args.buffer_grads = grad_ptrs.data(), args.num_buffers = int(buffers.size());
  args.scalars = scalars.data(), args.num_scalars = int(scalars.size());
  args.num_threads = threads;
  args.error = error, args.error_size = sizeof error;
  // A ragged batch: the kernel runs each sequence on views of the packed tensors, planning its own
  // key ranges. A dense batch with a buffer mask: the run-time plan's, as for the forward.
  DLTensor cu_q, cu_k;
  CpuKeyRanges ranges;
  if (in.ragged()) {
    cu_q = host_view(in.cu_seqlens_q), cu_k = host_view(in.cu_seqlens_k);
    args.cu_seqlens_q = &cu_q, args.cu_seqlens_k = &cu_k;
  } else {
    ranges = cpu_key_ranges(ir, in);
    args.kv_ranges = ranges.ranges.empty() ? nullptr : ranges.ranges.data();
    args.kv_ranges_block_q = ranges.block_q;
  }
  if (cpu_backward_entry(ir, input_head_dims(in))(&args) != 0)
    throw InputError(error[0] ? error : "the CPU backward kernel failed");
  return grads;
}

}  // namespace attn
