// call_kernel: DLPack views -> the checks every runner shares -> attn_kernel_args or a host copy.
#include "python/src/KernelCall.h"

#include <cstring>

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "backends/spirv/RunVulkan.h"
#include "codegen/KernelIR.h"
#include "frontend/Program.h"
#include "python/src/KernelLibrary.h"
#include "runtime/KernelCallArgs.h"

namespace attn::python {

namespace {

// A HostTensor with the view's type and shape but no bytes: what validate_inputs and the ABI
// order need to see, while the data stays where the caller has it.
HostTensor shape_of(const std::string& what, const TensorView& t) {
  if (t.device.device_type != kDLCPU)
    throw InputError(what + " is not in host memory (DLPack device type " +
                     std::to_string(t.device.device_type) +
                     "): the Python package runs the cpu, reference and vulkan targets on host tensors");
  HostTensor h;
  try {
    h.type = dl_scalar_type(t.dtype);
  } catch (const std::invalid_argument&) {
    throw InputError(what + " has an element type attnc does not take (DLPack code " +
                     std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) + " bits)");
  }
  h.shape = t.shape;
  return h;
}

// Q, K and V may have any strides but a contiguous last dimension (docs/language.md, section 8).
void check_rows(const std::string& what, const TensorView& t) {
  if (t.shape.size() == 4 && t.shape[3] > 1 && t.strides[3] != 1)
    throw InputError(what + ": the last dimension must be contiguous (stride 1), got stride " +
                     std::to_string(t.strides[3]));
}

// Buffers are read as dense row-major arrays (the kernel and the tile planner index them flat).
void check_dense(const std::string& name, const TensorView& t) {
  int64_t expect = 1;
  for (size_t d = t.shape.size(); d-- > 0;) {
    if (t.shape[d] != 1 && t.strides[d] != expect)
      throw InputError("argument '" + name + "' must be contiguous (row-major), got strides with " +
                       std::to_string(t.strides[d]) + " at dimension " + std::to_string(d));
    expect *= t.shape[d];
  }
}

// A dense host copy of a strided view, for the targets that take host tensors.
HostTensor gather(const HostTensor& like, const TensorView& t) {
  HostTensor h(like.type, like.shape);
  const size_t es = scalar_type_size(like.type), rank = t.shape.size();
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0, n = h.numel(); i < n; ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) offset += index[d] * t.strides[d];
    std::memcpy(h.bytes.data() + size_t(i) * es, static_cast<const char*>(t.data) + offset * int64_t(es), es);
    for (size_t d = rank; d-- > 0;)
      if (++index[d] < t.shape[d])
        break;
      else
        index[d] = 0;
  }
  return h;
}

void run_on_cpu(LibraryKernel& kernel, const KernelCall& call, const KernelInputs& in, KernelOutputs& out) {
  const KernelIR& ir = kernel.ir();
  std::map<const HostTensor*, void*> where{{&in.q, call.q.data},
                                           {&in.k, call.k.data},
                                           {&in.v, call.v.data},
                                           {&out.out, call.out.data},
                                           {&out.lse, call.lse.data}};
  for (const auto& [name, t] : in.buffers) where[&t] = call.buffers.at(name).data;
  KernelCallArgs args(call_tensors(ir, in, out), {kDLCPU, 0},
                      [&](const HostTensor& t, bool) { return where.at(&t); });
  args.view(in.q).strides = const_cast<int64_t*>(call.q.strides.data());
  args.view(in.k).strides = const_cast<int64_t*>(call.k.strides.data());
  args.view(in.v).strides = const_cast<int64_t*>(call.v.strides.data());
  // Buffer masks: the run-time plan's key runs per query tile, as run_cpu_kernel gives them. A
  // kernel without buffers has its closed-form ranges built in, so the planner is skipped.
  CpuKeyRanges ranges;
  if (!in.buffers.empty()) {
    try {
      TilePlanInputs plan;
      plan.q_len = in.q.shape[2], plan.kv_len = in.k.shape[2];
      plan.scalars = in.scalars;
      for (const auto& [name, t] : in.buffers)
        plan.buffers[name] = tile_buffer_view(t.type, call.buffers.at(name).data, t.shape);
      ranges = cpu_key_ranges(ir, plan);
    } catch (const std::logic_error&) {  // inputs the planner cannot read: the kernel reports them
      ranges = {};
    }
  }
  args.args().num_threads = call.threads;
  set_key_ranges(args.args(), ranges);
  if (kernel.cpu_kernel()->run(args.args()) != 0)
    throw InputError(args.error()[0] ? args.error() : "the CPU kernel failed");
}

void run_on_host_copies(LibraryKernel& kernel, const KernelCall& call, const KernelInputs& shapes) {
  KernelInputs in;
  in.q = gather(shapes.q, call.q), in.k = gather(shapes.k, call.k), in.v = gather(shapes.v, call.v);
  for (const auto& [name, t] : shapes.buffers) in.buffers[name] = gather(t, call.buffers.at(name));
  in.scalars = shapes.scalars;
  KernelOutputs r =
      call.target == "reference" ? run_reference(kernel.ir(), in, call.threads) : run_vulkan(kernel.ir(), in);
  std::memcpy(call.out.data, r.out.bytes.data(), r.out.bytes.size());
  if (!r.lse.bytes.empty()) std::memcpy(call.lse.data, r.lse.bytes.data(), r.lse.bytes.size());
}

// The shapes of the call's inputs, checked as every runner checks them (the command line's messages).
KernelInputs checked_shapes(const KernelIR& ir, const KernelCall& call) {
  if (call.target != "cpu" && call.target != "reference" && call.target != "vulkan")
    throw InputError("unknown target '" + call.target + "' (the Python package runs cpu, reference, vulkan)");
  KernelInputs in;
  in.q = shape_of("q", call.q), in.k = shape_of("k", call.k), in.v = shape_of("v", call.v);
  for (const auto& [name, t] : call.buffers) in.buffers[name] = shape_of("argument '" + name + "'", t);
  in.scalars = call.scalars;
  validate_inputs(ir, in);
  check_rows("q", call.q), check_rows("k", call.k), check_rows("v", call.v);
  for (const auto& [name, t] : call.buffers) check_dense(name, t);
  return in;
}

void copy_into(const TensorView& to, const HostTensor& from) {
  std::memcpy(to.data, from.bytes.data(), from.bytes.size());
}

}  // namespace

void call_kernel(LibraryKernel& kernel, const KernelCall& call) {
  const KernelIR& ir = kernel.ir();
  KernelInputs in = checked_shapes(ir, call);
  // Shapes only: the caller allocated out (and lse) as make_outputs would.
  KernelOutputs out;
  out.out = shape_of("out", call.out);
  if (ir.options.lse) out.lse = shape_of("lse", call.lse);
  try {
    if (call.target == "cpu")
      run_on_cpu(kernel, call, in, out);
    else
      run_on_host_copies(kernel, call, in);
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), kernel.program().sources));
  }
}

void call_kernel_backward(LibraryKernel& kernel, const KernelCall& call, const GradientCall& grads) {
  const KernelIR& ir = kernel.ir();
  const KernelInputs shapes = checked_shapes(ir, call);
  KernelInputs in;
  in.q = gather(shapes.q, call.q), in.k = gather(shapes.k, call.k), in.v = gather(shapes.v, call.v);
  for (const auto& [name, t] : shapes.buffers) in.buffers[name] = gather(t, call.buffers.at(name));
  in.scalars = shapes.scalars;
  GradientRequest request;
  request.dout = gather(shape_of("dout", grads.dout), grads.dout);
  if (grads.dlse.data) request.dlse = gather(shape_of("dlse", grads.dlse), grads.dlse);
  for (const auto& [name, _] : grads.dbuffers) request.buffers.push_back(name);
  validate_gradient_request(ir, in, request);
  try {
    KernelGradients g = call.target == "reference" ? run_reference_backward(ir, in, request, call.threads)
                        : call.target == "vulkan"  ? run_vulkan_backward(ir, in, request)
                                                   : run_cpu_backward(ir, in, request, call.threads);
    copy_into(grads.dq, g.dq), copy_into(grads.dk, g.dk), copy_into(grads.dv, g.dv);
    for (const auto& [name, t] : grads.dbuffers) copy_into(t, g.buffers.at(name));
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), kernel.program().sources));
  }
}

}  // namespace attn::python
