// run_cuda_backward: the forward through run_cuda (with its LSE), then the backward's kernels
// compiled by NVRTC (the cubin kept in the loader's disk cache, keyed by source and architecture)
// and launched in the order attn/cuda_backward_abi.h gives, on device copies of the tensors; for
// masks that read buffers, with the run-time tile plan both ways (plan_cuda_backward_tiles); and
// launch_cuda_backward: the same kernels on the caller's device tensors and stream
// (runtime/CudaBackwardLaunch.h).
#include <algorithm>
#include <deque>
#include <map>
#include <mutex>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "attn/loader.hpp"
#include "backends/cuda/CudaBackward.h"
#include "backends/io/RaggedBatch.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/CudaBackwardLaunch.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/CudaLauncher.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/Nvrtc.h"
#include "runtime/Sha256.h"
#include "runtime/TilePlanText.h"
#include "runtime/TilePlanner.h"

namespace attn {

namespace {

/// The cubin of `source` for `arch`: from the loader's cache, else compiled and stored there.
std::vector<uint8_t> backward_cubin(const std::string& source, const std::string& name,
                                    const std::string& arch) {
  const std::string key = "attnc cuda backward cubin 1\n" + arch + "\nnvrtc " + nvrtc_version() + "\n" +
                          to_hex(sha256(source.data(), source.size()));
  if (std::optional<std::vector<uint8_t>> cached = process_loader().load_blob(key)) return *cached;
  NvrtcOptions o;
  o.arch = arch;
  std::vector<uint8_t> cubin = nvrtc_compile(source, name, o).cubin;
  process_loader().store_blob(key, cubin);
  return cubin;
}

/// Row-major strides of a contiguous [B, H, L, C] tensor: batch, head, row.
void set_strides(long long (&s)[3], const HostTensor& t) {
  s[2] = t.shape.size() > 3 ? t.shape[3] : 1;
  s[1] = s[2] * t.shape[2];
  s[0] = s[1] * t.shape[1];
}

/// One device per ordinal for the process (opening one retains its primary context and makes events).
std::shared_ptr<CudaDevice> shared_device(int ordinal) {
  static std::mutex mutex;
  static std::map<int, std::shared_ptr<CudaDevice>> devices;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<CudaDevice>& d = devices[ordinal];
  if (!d) d = CudaDevice::open(ordinal);
  return d;
}

/// The backward of one kernel at one pair of head dims, printed and loaded once per process.
struct LoadedBackward {
  CudaBackwardSource src;
  std::shared_ptr<CudaModule> module;
  /// The launches' error word: zeroed once, read at the next synchronization (take_cuda_errors()).
  std::shared_ptr<CudaErrorWord> word;
};

const LoadedBackward& loaded_backward(const std::shared_ptr<CudaDevice>& device, int ordinal,
                                      const KernelIR& ir, int head_dim, int value_dim) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<LoadedBackward>> loaded;  // entries never move
  const std::string key = kernel_hash(ir) + " " + std::to_string(head_dim) + " " + std::to_string(value_dim) +
                          " " + std::to_string(ordinal);
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<LoadedBackward>& l = loaded[key];
  if (!l) {
    CudaPrintOptions po;
    po.sm = device->sm();
    po.head_dim = head_dim, po.value_dim = value_dim;
    KernelIR specialized = ir;
    specialized.options.head_dim = head_dim, specialized.options.value_dim = value_dim;
    auto fresh = std::make_unique<LoadedBackward>();
    fresh->src = print_cuda_backward(specialized, po);
    fresh->module = device->load(
        backward_cubin(fresh->src.cu, fresh->src.launch.dq + ".cu", "sm_" + std::to_string(po.sm)));
    std::vector<std::string> names;
    for (const KernelArg& arg : ir.args)
      if (arg.kind != KernelArg::Kind::Scalar) names.push_back(arg.name);
    fresh->word = CudaErrorWord::make(device, std::move(names));
    l = std::move(fresh);
  }
  return *l;
}

}  // namespace

CudaBackwardTilePlan plan_cuda_backward_tiles(const CudaBackwardSource& src, const KernelInputs& in) {
  CudaBackwardTilePlan out;
  if (src.tile_plan.empty() || in.q.shape[2] <= 0 || in.k.shape[2] <= 0) return out;
  const TilePlanProgram program = read_tile_plan_program(src.tile_plan);
  TilePlanInputs plan_in;
  plan_in.q_len = in.q.shape[2], plan_in.kv_len = in.k.shape[2];
  plan_in.scalars = in.scalars;
  for (const auto& [name, tensor] : in.buffers) plan_in.buffers[name] = tile_buffer_view(tensor);
  const TileGrid grid = plan_tile_grid(program, plan_in);
  CudaTileRuns rows = cuda_tile_runs(grid), cols = cuda_tile_runs(transpose_tile_grid(grid));
  out.rows = std::move(rows.rows), out.runs = std::move(rows.runs);
  out.cols = std::move(cols.rows), out.col_runs = std::move(cols.runs);
  return out;
}

void launch_cuda_backward(const KernelIR& ir, const attn_backward_args& a, void* stream, int ordinal) {
  const bool ragged = a.abi_version >= 2 && (a.cu_seqlens_q || a.cu_seqlens_k);
  const int rank = ragged ? 3 : 4;  // a ragged batch's tensors are packed [T, H, D]
  if (!a.q || !a.v || a.q->ndim != rank || a.v->ndim != rank)
    throw InputError(ragged ? "the CUDA backward of a ragged batch needs q and v as 3-D tensors [T, H, D]"
                            : "the CUDA backward needs q and v as 4-D tensors [B, H, L, D]");
  std::shared_ptr<CudaDevice> device = shared_device(ordinal);
  const int head_dim = static_cast<int>(a.q->shape[rank - 1]),
            value_dim = static_cast<int>(a.v->shape[rank - 1]);
  const LoadedBackward& l = loaded_backward(device, ordinal, ir, head_dim, value_dim);
  const CudaBackwardSource& src = l.src;
  std::vector<std::string> names;
  for (const KernelArg& arg : ir.args)
    if (arg.kind != KernelArg::Kind::Scalar) names.push_back(arg.name);
  try {
    launch_cuda_backward_module(*device, ordinal, *l.module, src.launch, names, a, stream, *l.word);
  } catch (const std::invalid_argument& e) {  // tensors it cannot take: the caller's error
    throw InputError(e.what());
  }
}

namespace {

/// A ragged batch's backward on the GPU: the inputs, the forward's Out and LSE and dOut uploaded,
/// then the launcher's per-sequence launches (launch_cuda_backward_module) on DLPack views of them,
/// the boundaries from host memory; the gradients downloaded.
KernelGradients ragged_backward(const std::shared_ptr<CudaDevice>& device, int ordinal,
                                const CudaModule& module, const CudaBackwardSource& src, const KernelIR& ir,
                                const KernelInputs& in, const GradientRequest& request,
                                const KernelOutputs& fwd) {
  KernelGradients grads = make_gradients(ir, in, request);
  std::deque<CudaBuffer> memory;  // grows without moving what it holds
  std::deque<DLTensor> views;
  auto on_device = [&](const HostTensor& t, bool upload) {
    memory.push_back(device->alloc(std::max<size_t>(t.bytes.size(), 4)));
    if (upload)
      device->upload(memory.back(), t.bytes.data(), t.bytes.size());
    else
      device->zero(memory.back());
    DLTensor d = host_view(t);
    d.data = reinterpret_cast<void*>(memory.back().ptr());
    d.device = {kDLCUDA, ordinal};
    views.push_back(d);
    return &views.back();
  };
  attn_backward_args args{};
  args.abi_version = ATTN_BACKWARD_ABI_VERSION;
  args.q = on_device(in.q, true), args.k = on_device(in.k, true), args.v = on_device(in.v, true);
  args.out = on_device(fwd.out, true), args.lse = on_device(fwd.lse, true);
  args.dout = on_device(request.dout, true);
  if (!request.dlse.shape.empty()) args.dlse = on_device(request.dlse, true);
  DLTensor* dq = on_device(grads.dq, false);
  DLTensor* dk = on_device(grads.dk, false);
  DLTensor* dv = on_device(grads.dv, false);
  args.dq = dq, args.dk = dk, args.dv = dv;
  std::vector<const DLTensor*> buffers;
  std::vector<DLTensor*> buffer_grads;
  std::vector<std::string> names;
  std::vector<double> scalars;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      scalars.push_back(in.scalars.at(a.name));
      continue;
    }
    names.push_back(a.name);
    buffers.push_back(on_device(in.buffers.at(a.name), true));
    auto g = grads.buffers.find(a.name);
    buffer_grads.push_back(g == grads.buffers.end() ? nullptr : on_device(g->second, false));
  }
  args.buffers = buffers.data(), args.buffer_grads = buffer_grads.data(),
  args.num_buffers = int(buffers.size());
  args.scalars = scalars.data(), args.num_scalars = int(scalars.size());
  DLTensor cu_q = host_view(in.cu_seqlens_q), cu_k = host_view(in.cu_seqlens_k);
  args.cu_seqlens_q = &cu_q, args.cu_seqlens_k = &cu_k;
  std::shared_ptr<CudaErrorWord> word = CudaErrorWord::make(device, names);
  try {
    launch_cuda_backward_module(*device, ordinal, module, src.launch, names, args, nullptr, *word);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  if (std::string error = word->synchronize_and_take(); !error.empty()) throw CudaError(error);
  auto download = [&](HostTensor& t, const DLTensor* d) {
    device->download(t.bytes.data(), CudaBuffer::borrow(reinterpret_cast<uint64_t>(d->data), t.bytes.size()),
                     t.bytes.size());
  };
  download(grads.dq, dq), download(grads.dk, dk), download(grads.dv, dv);
  for (size_t i = 0; i < names.size(); ++i)
    if (buffer_grads[i]) download(grads.buffers.at(names[i]), buffer_grads[i]);
  return grads;
}

}  // namespace

CudaBackwardResult run_cuda_backward(const KernelIR& ir, const KernelInputs& in,
                                     const GradientRequest& request, const CudaRunOptions& options) {
  validate_inputs(ir, in);
  validate_gradient_request(ir, in, request);
  // The device and the backward's source first: what the backward cannot do fails before any work.
  std::shared_ptr<CudaDevice> device = CudaDevice::open(options.device);
  CudaPrintOptions po;
  po.sm = device->sm();
  po.head_dim = static_cast<int>(in.q.shape.back());  // [B, H, L, D], or [T, H, D] ragged
  po.value_dim = static_cast<int>(in.v.shape.back());
  KernelIR specialized = ir;
  specialized.options.head_dim = po.head_dim;
  specialized.options.value_dim = po.value_dim;
  const CudaBackwardSource src = print_cuda_backward(specialized, po);
  std::shared_ptr<CudaModule> module =
      device->load(backward_cubin(src.cu, src.launch.dq + ".cu", "sm_" + std::to_string(po.sm)));
  // The forward, with its LSE whatever the kernel sets.
  KernelIR with_lse = ir;
  with_lse.options.lse = true;
  CudaRunResult forward = run_cuda(with_lse, in, options);
  if (in.ragged()) {
    CudaBackwardResult result;
    result.gradients =
        ragged_backward(device, options.device, *module, src, ir, in, request, forward.outputs);
    result.outputs = std::move(forward.outputs);
    return result;
  }

  // Device copies: inputs uploaded, outputs zeroed.
  std::deque<CudaBuffer> memory;  // grows without moving what it holds
  auto upload = [&](const HostTensor& t) {
    memory.push_back(device->alloc(std::max<size_t>(t.bytes.size(), 4)));
    device->upload(memory.back(), t.bytes.data(), t.bytes.size());
    return reinterpret_cast<void*>(memory.back().ptr());
  };
  auto zeroed = [&](size_t bytes) {
    memory.push_back(device->alloc(std::max<size_t>(bytes, 4)));
    device->zero(memory.back());
    return &memory.back();
  };
  const KernelOutputs& fwd = forward.outputs;
  attn_cuda_bwd_params bp{};
  attn_cuda_params& p = bp.fwd;
  p.q = upload(in.q), p.k = upload(in.k), p.v = upload(in.v);
  p.out = upload(fwd.out);
  p.lse = static_cast<float*>(upload(fwd.lse));
  set_strides(p.q_stride, in.q), set_strides(p.k_stride, in.k), set_strides(p.v_stride, in.v);
  set_strides(p.out_stride, fwd.out), set_strides(p.lse_stride, fwd.lse);
  p.batch = static_cast<int>(in.q.shape[0]), p.q_heads = static_cast<int>(in.q.shape[1]);
  p.kv_heads = static_cast<int>(in.k.shape[1]);
  p.q_len = static_cast<int>(in.q.shape[2]), p.kv_len = static_cast<int>(in.k.shape[2]);
  p.scale = static_cast<float>(src.launch.scale);
  p.scale_log2 = static_cast<float>(src.launch.scale * 1.4426950408889634);
  std::vector<std::string> buffer_names;
  int buffer = 0, scalar = 0;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      p.scalars[scalar++] = in.scalars.at(a.name);
      continue;
    }
    const HostTensor& t = in.buffers.at(a.name);
    attn_cuda_buffer& b = p.buffers[buffer++];
    b.data = upload(t);
    b.rank = static_cast<int>(t.shape.size());
    long long stride = 1;
    for (int d = b.rank - 1; d >= 0; --d) b.shape[d] = t.shape[d], b.stride[d] = stride, stride *= t.shape[d];
    buffer_names.push_back(a.name);
  }
  CudaBuffer* error = zeroed(sizeof(attn_cuda_error));
  p.error = reinterpret_cast<attn_cuda_error*>(error->ptr());
  // Masks that read buffers: the plan's runs for dq's walk over key tiles and dkdv's over query tiles.
  const CudaBackwardTilePlan plan = plan_cuda_backward_tiles(src, in);
  if (!plan.rows.empty()) {
    auto ints = [&](const std::vector<int>& v) {
      memory.push_back(device->alloc(v.size() * sizeof(int)));
      device->upload(memory.back(), v.data(), v.size() * sizeof(int));
      return reinterpret_cast<const int*>(memory.back().ptr());
    };
    p.tile_rows = ints(plan.rows), p.tile_runs = ints(plan.runs);
    bp.tile_cols = ints(plan.cols), bp.tile_col_runs = ints(plan.col_runs);
  }

  KernelGradients grads = make_gradients(ir, in, request);
  bp.dout = upload(request.dout);
  set_strides(bp.dout_stride, request.dout);
  if (!request.dlse.shape.empty()) {
    bp.dlse = static_cast<const float*>(upload(request.dlse));
    set_strides(bp.dlse_stride, request.dlse);
  }
  CudaBuffer* dq = zeroed(grads.dq.bytes.size());
  CudaBuffer* dk = zeroed(grads.dk.bytes.size());
  CudaBuffer* dv = zeroed(grads.dv.bytes.size());
  bp.dq = reinterpret_cast<void*>(dq->ptr()), bp.dk = reinterpret_cast<void*>(dk->ptr());
  bp.dv = reinterpret_cast<void*>(dv->ptr());
  set_strides(bp.dq_stride, grads.dq), set_strides(bp.dk_stride, grads.dk),
      set_strides(bp.dv_stride, grads.dv);
  bp.delta = reinterpret_cast<float*>(zeroed(size_t(p.batch) * p.q_heads * p.q_len * 4)->ptr());

  // Buffer gradients: the requested buffers end to end; each read site adds to its buffer's.
  std::map<std::string, long long> base;
  for (const std::string& name : request.buffers) {
    base[name] = bp.grad_numel;
    bp.grad_numel += in.buffers.at(name).numel();
  }
  for (size_t s = 0; s < ATTN_CUDA_MAX_SITES; ++s)
    bp.site_base[s] = s < src.launch.site_buffers.size() && base.count(src.launch.site_buffers[s])
                          ? base[src.launch.site_buffers[s]]
                          : -1;
  const unsigned q_tiles = (unsigned(p.q_len) + src.launch.block_m - 1) / src.launch.block_m;
  CudaBuffer* grad_partial = nullptr;
  CudaBuffer* grad_out = nullptr;
  if (bp.grad_numel > 0) {
    bp.grad_slots = p.batch * p.q_heads * int(q_tiles) * (src.launch.block_m / 16);  // a slot per dq warp
    grad_partial = zeroed(size_t(bp.grad_slots) * size_t(bp.grad_numel) * 4);
    grad_out = zeroed(size_t(bp.grad_numel) * 4);
    bp.grad_partial = reinterpret_cast<float*>(grad_partial->ptr());
    bp.grad_out = reinterpret_cast<float*>(grad_out->ptr());
  }

  const unsigned B = unsigned(p.batch), Hq = unsigned(p.q_heads), Hkv = unsigned(p.kv_heads);
  auto backward = [&] {
    if (grad_partial) device->zero(*grad_partial);
    device->launch(*module, src.launch.pre, {(unsigned(p.q_len) + 3) / 4, Hq, B}, 128, 0, &bp, sizeof bp);
    if (p.kv_len > 0)
      device->launch(*module, src.launch.dkdv,
                     {(unsigned(p.kv_len) + src.launch.block_n - 1) / src.launch.block_n, Hkv, B},
                     unsigned(src.launch.threads), unsigned(src.launch.dkdv_smem), &bp, sizeof bp);
    device->launch(*module, src.launch.dq, {q_tiles, Hq, B}, unsigned(src.launch.threads),
                   unsigned(src.launch.dq_smem), &bp, sizeof bp);
    if (grad_partial)
      device->launch(*module, src.launch.grad, {unsigned((bp.grad_numel + 255) / 256), 1, 1}, 256, 0, &bp,
                     sizeof bp);
  };
  CudaBackwardResult result;
  // Without keys only a sink's gradient flows (attn_bwd_dq, rows that reach no key).
  if (p.q_len > 0 && (p.kv_len > 0 || src.launch.sink)) {
    backward();
    device->synchronize();
    for (int i = 0; i < options.timed_repeats; ++i)
      result.times_ms.push_back(forward.times_ms.at(size_t(i)) + device->time_ms(backward));
  }
  attn_cuda_error err;
  device->download(&err, *error, sizeof err);
  if (err.flag) {
    const bool known = err.buffer >= 0 && size_t(err.buffer) < buffer_names.size();
    const HostTensor* t = known ? &in.buffers.at(buffer_names[size_t(err.buffer)]) : nullptr;
    const long long extent =
        t && err.dim >= 0 && size_t(err.dim) < t->shape.size() ? t->shape[size_t(err.dim)] : 0;
    throw CudaError("buffer '" + (known ? buffer_names[size_t(err.buffer)] : std::string("?")) + "' index " +
                    std::to_string(err.index) + " is out of range [0, " + std::to_string(extent) +
                    ") in dimension " + std::to_string(err.dim));
  }
  device->download(grads.dq.bytes.data(), *dq, grads.dq.bytes.size());
  device->download(grads.dk.bytes.data(), *dk, grads.dk.bytes.size());
  device->download(grads.dv.bytes.data(), *dv, grads.dv.bytes.size());
  if (grad_out) {
    std::vector<float> all(size_t(bp.grad_numel));
    device->download(all.data(), *grad_out, all.size() * 4);
    for (const std::string& name : request.buffers) {
      HostTensor& g = grads.buffers.at(name);
      std::copy_n(all.begin() + base[name], g.numel(), g.data<float>());
    }
  }
  result.outputs = std::move(forward.outputs);
  result.gradients = std::move(grads);
  return result;
}

}  // namespace attn
