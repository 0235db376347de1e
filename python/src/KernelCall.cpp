// call_kernel: DLPack views -> the checks every runner shares -> the target's backend (its kernel
// on the callers' tensors, in place or on host copies as the backend says).
#include "python/src/KernelCall.h"

#include <cstring>
#include <deque>
#include <tuple>

#include "attn/kernel_backward_abi.h"
#include "backends/Backend.h"
#include "backends/io/KernelIO.h"
#include "codegen/KernelIR.h"
#include "frontend/Program.h"
#include "python/src/KernelLibrary.h"
#include "runtime/KernelCallArgs.h"

namespace attn::python {

namespace {

// A HostTensor with the view's type and shape but no bytes: what validate_inputs and the ABI
// order need to see, while the data stays where the caller has it (`device`, the target's).
// `target`: the call's target, named when a tensor is not where it takes them.
HostTensor shape_of(const std::string& what, const TensorView& t, const DLDevice& device = {kDLCPU, 0},
                    const Backend* target = nullptr) {
  if (t.device.device_type != device.device_type || t.device.device_id != device.device_id)
    throw InputError(what + " is on " + device_text(t.device) + ", not " + device_text(device) +
                     (device.device_type == kDLCUDA ? " like q (every tensor of a call on one device)"
                      : target ? ": the " + std::string(target->name()) + " target takes host tensors"
                               : ": it must be in host memory"));
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
  if (t.shape.size() >= 3 && t.shape.back() > 1 && t.strides.back() != 1)
    throw InputError(what + ": the last dimension must be contiguous (stride 1), got stride " +
                     std::to_string(t.strides.back()));
}

// A ragged batch's boundaries, read: every runner checks their values before the kernel runs.
/// A dense host copy of the integer tensor `t` (`what`: a ragged batch's boundaries, a paged cache's
/// page table or key lengths) of `rank` dimensions; `shape_text` says what it holds.
HostTensor index_table(const std::string& what, const TensorView& t, size_t rank, const char* shape_text) {
  HostTensor h = shape_of(what, t);  // host memory (the targets that take ragged batches run there)
  if ((h.type != ScalarType::I32 && h.type != ScalarType::I64) || h.shape.size() != rank)
    throw InputError(what + " must be " + shape_text + ", got " + scalar_type_name(h.type) + " " +
                     h.shape_string());
  const int64_t cols = rank == 2 ? h.shape[1] : 1;
  const size_t size = scalar_type_size(h.type);
  h.bytes.resize(size_t(h.shape[0] * cols) * size);
  for (int64_t i = 0; i < h.shape[0]; ++i)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(h.bytes.data() + size_t(i * cols + j) * size,
                  static_cast<const char*>(t.data) +
                      (i * t.strides[0] + (rank == 2 ? j * t.strides[1] : 0)) * int64_t(size),
                  size);
  return h;
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

// The kernel ABI's arguments over the callers' memory: Q, K and V with their strides, Out, LSE and
// the buffers dense, on the call's device. `ir` decides whether the LSE is passed.
class InPlaceArgs {
 public:
  InPlaceArgs(const KernelIR& ir, const KernelCall& call, const KernelInputs& in, KernelOutputs& out)
      : where_(places(call, in, out)),
        args_(call_tensors(ir, in, out), call.q.device,
              [this](const HostTensor& t, bool) { return where_.at(&t); }) {
    args_.view(in.q).strides = const_cast<int64_t*>(call.q.strides.data());
    args_.view(in.k).strides = const_cast<int64_t*>(call.k.strides.data());
    args_.view(in.v).strides = const_cast<int64_t*>(call.v.strides.data());
    for (auto [view, t] : {std::pair{&call.q_descale, &in.q_descale},
                           {&call.k_descale, &in.k_descale},
                           {&call.v_descale, &in.v_descale}})
      if (!t->shape.empty()) args_.view(*t).strides = const_cast<int64_t*>(view->strides.data());
    // The boundaries, page table and key lengths are the host copies checked_shapes read, whatever
    // the call's device (the cuda target reads them there: no wait for the GPU).
    for (const HostTensor* t : {&in.cu_seqlens_q, &in.cu_seqlens_k, &in.page_table, &in.kv_lens})
      if (!t->shape.empty()) args_.view(*t).device = {kDLCPU, 0};
    args_.args().num_threads = call.threads;
  }
  attn_kernel_args& args() { return args_.args(); }
  [[noreturn]] void fail(const char* what) const {
    throw InputError(args_.error()[0] ? args_.error() : what);
  }

 private:
  static std::map<const HostTensor*, void*> places(const KernelCall& call, const KernelInputs& in,
                                                   const KernelOutputs& out) {
    std::map<const HostTensor*, void*> where{{&in.q, call.q.data},      {&in.k, call.k.data},
                                             {&in.v, call.v.data},      {&out.out, call.out.data},
                                             {&out.lse, call.lse.data}, {&out.max, call.max.data}};
    for (const auto& [name, t] : in.buffers) where[&t] = call.buffers.at(name).data;
    where[&in.q_descale] = call.q_descale.data, where[&in.k_descale] = call.k_descale.data;
    where[&in.v_descale] = call.v_descale.data;
    // A ragged batch's boundaries, a paged cache's table and lengths: the dense copies checked_shapes read.
    where[&in.cu_seqlens_q] = const_cast<uint8_t*>(in.cu_seqlens_q.bytes.data());
    where[&in.cu_seqlens_k] = const_cast<uint8_t*>(in.cu_seqlens_k.bytes.data());
    where[&in.page_table] = const_cast<uint8_t*>(in.page_table.bytes.data());
    where[&in.kv_lens] = const_cast<uint8_t*>(in.kv_lens.bytes.data());
    return where;
  }
  std::map<const HostTensor*, void*> where_;
  KernelCallArgs args_;
};

/// The backend of the call's target (one that loads kernels; none named: the first that runs in
/// place on q's device), and the device its tensors are on.
const Backend& call_backend(const KernelCall& call, DLDevice& device) {
  const Backend* b = nullptr;
  if (call.target.empty()) {
    for (const Backend* c : backends())
      if (!b && c->can(Capability::Load) && c->calls_in_place() &&
          c->device_type() == call.q.device.device_type)
        b = c;
    if (!b)
      throw InputError("attnc runs kernels from Python on CPU and CUDA tensors; q is on " +
                       device_text(call.q.device));
  } else {
    try {
      b = &find_backend(call.target, Capability::Load);
    } catch (const TargetError& e) {
      throw InputError(e.what());
    }
  }
  device = {kDLCPU, 0};
  if (b->device_type() == kDLCUDA) {
    if (call.q.device.device_type != kDLCUDA)
      throw InputError("target '" + std::string(b->name()) + "' takes tensors in GPU memory; q is on " +
                       device_text(call.q.device));
    if (call.q.device.device_id != 0)
      throw InputError("the Python package runs the " + std::string(b->name()) +
                       " target on device 0 (cuda:0); q is on " + device_text(call.q.device));
    device = call.q.device;
  }
  return *b;
}

// The shapes of the call's inputs, checked as every runner checks them (the command line's messages).
KernelInputs checked_shapes(const KernelIR& ir, const KernelCall& call) {
  DLDevice device;
  const Backend* target = &call_backend(call, device);
  KernelInputs in;
  in.q = shape_of("q", call.q, device, target), in.k = shape_of("k", call.k, device, target),
  in.v = shape_of("v", call.v, device, target);
  for (const auto& [name, t] : call.buffers)
    in.buffers[name] = shape_of("argument '" + name + "'", t, device, target);
  in.scalars = call.scalars;
  for (auto [name, view, t] : {std::tuple{"q_descale", &call.q_descale, &in.q_descale},
                               {"k_descale", &call.k_descale, &in.k_descale},
                               {"v_descale", &call.v_descale, &in.v_descale}})
    if (!view->shape.empty()) *t = shape_of(name, *view, device, target);
  // A ragged batch or paged cache: validate_inputs says what is missing.
  const char* cu_text = "a 1-D int32 tensor (sequences + 1 entries)";
  if (!call.cu_seqlens_q.shape.empty())
    in.cu_seqlens_q = index_table("cu_seqlens_q", call.cu_seqlens_q, 1, cu_text);
  if (!call.cu_seqlens_k.shape.empty())
    in.cu_seqlens_k = index_table("cu_seqlens_k", call.cu_seqlens_k, 1, cu_text);
  if (!call.page_table.shape.empty())
    in.page_table =
        index_table("page_table", call.page_table, 2, "a 2-D int32 tensor [sequences, max_pages]");
  if (!call.kv_lens.shape.empty())
    in.kv_lens = index_table("kv_lens", call.kv_lens, 1, "a 1-D int32 tensor (one per sequence)");
  if (in.cu_seqlens_q.shape.empty() != in.cu_seqlens_k.shape.empty() && !in.paged())
    throw InputError("a ragged batch needs both cu_seqlens_q and cu_seqlens_k");
  validate_inputs(ir, in);
  check_rows("q", call.q), check_rows("k", call.k), check_rows("v", call.v);
  for (const auto& [name, t] : call.buffers) check_dense(name, t);
  return in;
}

// attn_backward_args over the callers' tensors (nothing copied; a backend without a backward in
// place copies what it reads).
class BackwardArgs {
 public:
  BackwardArgs(const KernelIR& ir, const KernelCall& call, const GradientCall& grads,
               const KernelInputs& in) {
    for (const KernelArg& a : ir.args) {
      if (a.kind == KernelArg::Kind::Scalar) {
        scalars_.push_back(in.scalars.at(a.name));
        continue;
      }
      buffers_.push_back(view(call.buffers.at(a.name)));
      auto g = grads.dbuffers.find(a.name);
      grads_.push_back(g == grads.dbuffers.end() ? nullptr : view(g->second));
    }
    args_.abi_version = ATTN_BACKWARD_ABI_VERSION;
    args_.q = view(call.q), args_.k = view(call.k), args_.v = view(call.v);
    args_.out = view(grads.out), args_.lse = view(grads.lse), args_.dout = view(grads.dout);
    args_.dlse = grads.dlse.shape.empty() ? nullptr : view(grads.dlse);
    args_.dq = view(grads.dq), args_.dk = view(grads.dk), args_.dv = view(grads.dv);
    args_.buffers = buffers_.data(), args_.buffer_grads = grads_.data(),
    args_.num_buffers = int(buffers_.size());
    args_.scalars = scalars_.data(), args_.num_scalars = int(scalars_.size());
    args_.num_threads = call.threads;
    args_.error = error_, args_.error_size = sizeof error_;
    // A ragged batch's boundaries: the host copies checked_shapes read and checked.
    if (in.ragged()) {
      args_.cu_seqlens_q = &views_.emplace_back(host_view(in.cu_seqlens_q));
      args_.cu_seqlens_k = &views_.emplace_back(host_view(in.cu_seqlens_k));
    }
  }
  BackwardArgs(const BackwardArgs&) = delete;
  BackwardArgs& operator=(const BackwardArgs&) = delete;
  attn_backward_args& args() { return args_; }

 private:
  DLTensor* view(const TensorView& t) {
    DLTensor& d = views_.emplace_back();
    d.data = t.data;
    d.device = t.device;
    d.ndim = int(t.shape.size());
    d.dtype = t.dtype;
    d.shape = const_cast<int64_t*>(t.shape.data());
    d.strides = const_cast<int64_t*>(t.strides.data());
    return &d;
  }
  std::deque<DLTensor> views_;  // stable addresses
  std::vector<const DLTensor*> buffers_;
  std::vector<DLTensor*> grads_;
  std::vector<double> scalars_;
  char error_[1024] = "";
  attn_backward_args args_{};
};

// The forward's Out and LSE, which the cpu and cuda backwards read, on the call's device.
void check_forward(const GradientCall& grads, const DLDevice& device) {
  if (grads.out.shape.empty() || grads.lse.shape.empty())
    throw InputError("the backward reads the forward's out and lse; give both");
  shape_of("out", grads.out, device), shape_of("lse", grads.lse, device);
}

}  // namespace

namespace {

/// Checks `call` and loads its kernel, then runs `go(kernel, args)` on the call's tensors in place.
template <class Go>
void with_loaded_call(LibraryKernel& kernel, const KernelCall& call, Go&& go) {
  if (kernel.ir().options.return_max && call.max.shape.empty())
    throw InputError("kernel '" + kernel.ir().name + "' sets return_max: give max, a [B, Hq, Lq] f32 tensor");
  KernelInputs in = checked_shapes(kernel.ir(), call);
  DLDevice device;
  const Backend& backend = call_backend(call, device);
  // Shapes only: the caller allocated out (and lse) as make_outputs would.
  const bool lse = !call.lse.shape.empty();
  KernelOutputs out;
  out.out = shape_of("out", call.out, call.out.device);
  if (lse) out.lse = shape_of("lse", call.lse, call.lse.device);
  if (kernel.ir().options.return_max) {
    out.max = shape_of("max", call.max, call.max.device);
    const std::vector<int64_t> rows = in.ragged()
                                          ? std::vector<int64_t>{in.q.shape[0], in.q.shape[1]}
                                          : std::vector<int64_t>{in.q.shape[0], in.q.shape[1], in.q.shape[2]};
    if (out.max.shape != rows || out.max.type != ScalarType::F32)
      throw InputError(
          std::string("max must be f32 shaped like the LSE ([B, Hq, Lq], ragged [Tq, Hq]), got ") +
          scalar_type_name(out.max.type) + " " + out.max.shape_string());
  }
  try {
    const std::shared_ptr<const LoadedKernel> k = kernel.loaded(backend, lse, in, call.backward_next);
    InPlaceArgs a(kernel.ir(lse), call, in, out);
    if (go(k, a.args()) != 0) a.fail(("the " + std::string(backend.name()) + " kernel failed").c_str());
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), kernel.program().sources));
  }
}

}  // namespace

void call_kernel(LibraryKernel& kernel, const KernelCall& call) {
  with_loaded_call(kernel, call, [&](const std::shared_ptr<const LoadedKernel>& k, attn_kernel_args& args) {
    if (!call.plan) return k->call(args, call.stream);  // cuda: on the caller's stream, asynchronously
    if (call.plan->kernel != k)
      throw InputError(
          "the call's plan was made by another kernel (a call with an lse and one without load different "
          "ones); plan the call again");
    return k->call_planned(call.plan->plan.get(), args, call.stream);
  });
}

std::shared_ptr<const CallPlan> plan_call(LibraryKernel& kernel, const KernelCall& call) {
  auto made = std::make_shared<CallPlan>();
  with_loaded_call(kernel, call, [&](const std::shared_ptr<const LoadedKernel>& k, attn_kernel_args& args) {
    made->kernel = k;
    return k->plan(args, made->plan);
  });
  return made;
}

void call_kernel_backward(LibraryKernel& kernel, const KernelCall& call, const GradientCall& grads) {
  const KernelIR& ir = kernel.ir();
  const KernelInputs shapes = checked_shapes(ir, call);
  DLDevice device;
  const Backend& backend = call_backend(call, device);
  GradientRequest request;
  request.dout = shape_of("dout", grads.dout, device);
  if (!grads.dlse.shape.empty()) request.dlse = shape_of("dlse", grads.dlse, device);
  for (const auto& [name, _] : grads.dbuffers) request.buffers.push_back(name);
  validate_gradient_request(ir, shapes, request);
  check_rows("dout", grads.dout);
  if (backend.calls_in_place()) check_forward(grads, device);  // the others run the forward again
  try {
    // cpu: the run-time plan's key ranges first; cuda: launched on the caller's stream after the
    // forward, asynchronously (backends/cuda/CudaBackward.h); others: on host copies.
    BackwardArgs b(ir, call, grads, shapes);
    backend.call_backward(ir, b.args(), call.stream);
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), kernel.program().sources));
  }
}

}  // namespace attn::python
