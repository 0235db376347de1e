// check_ragged_backward: a ragged batch's backward through the launcher, against the f64 backward
// reference on dense copies of each sequence (bench/gpu/KitRaggedBackward.h).
#include "bench/gpu/KitRaggedBackward.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>

#include "bench/gpu/KitCheck.h"
#include "runtime/CudaBackwardLaunch.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/KernelCallArgs.h"

namespace attn::kit {

namespace {

/// max |got - want| / max(1, max |want|), NaN counting as infinite.
struct Relative {
  double worst = 0, scale = 1;
  void add(double got, double want) {
    scale = std::max(scale, std::abs(want));
    worst = std::max(worst, std::isnan(got) || std::isnan(want) ? INFINITY : std::abs(got - want));
  }
  double value() const { return worst / scale; }
};

}  // namespace

GradientErrors check_ragged_backward(CudaDevice& device, const CudaModule& fwd_module,
                                     const CudaModule& module, const BackwardSource& src, const Kit& k,
                                     const CudaLaunchInfo& ref_info, std::mt19937& rng) {
  GradientErrors result;
  const std::vector<int64_t> q_lens = {1, 0, 77, 130, 3}, k_lens = {1, 5, 133, 64, 0};
  const int64_t hq = 4, hkv = 2, d = src.head_dim, dv = src.value_dim, n = int64_t(q_lens.size());
  std::vector<int32_t> cu_q = {0}, cu_k = {0};
  for (int64_t s = 0; s < n; ++s)
    cu_q.push_back(cu_q.back() + int32_t(q_lens[size_t(s)])),
        cu_k.push_back(cu_k.back() + int32_t(k_lens[size_t(s)]));
  const int64_t tq = cu_q.back(), tk = cu_k.back();
  const HostTensor q = random_tensor(src.dtype, {tq, hq, d}, rng),
                   kt = random_tensor(src.dtype, {tk, hkv, d}, rng),
                   v = random_tensor(src.dtype, {tk, hkv, dv}, rng),
                   dout = random_tensor(src.dtype, {tq, hq, dv}, rng);
  const std::vector<HostTensor> buffers = make_buffers(k.args, hq, 300, rng);
  // Each sequence's f64 forward (its Out and LSE, which the backward reads), on dense copies with
  // its index as the mask's b; a sequence without keys: Out 0, LSE -inf.
  HostTensor out(src.dtype, {tq, hq, dv}), lse(ScalarType::F32, {tq, hq});
  std::vector<std::vector<double>> seq_lse(static_cast<size_t>(n));
  std::vector<CudaPreparedLaunch> dense(static_cast<size_t>(n));
  for (int64_t s = 0; s < n; ++s) {
    const int64_t ql = q_lens[size_t(s)], kl = k_lens[size_t(s)], q0 = cu_q[size_t(s)];
    if (ql == 0) continue;
    if (kl == 0) {
      for (int64_t r = 0; r < ql * hq; ++r) lse.set(q0 * hq + r, -INFINITY);
      continue;
    }
    const CudaLaunchRequest req =
        request_for(k, sequence_rows(q, q0, ql), sequence_rows(kt, cu_k[size_t(s)], kl),
                    sequence_rows(v, cu_k[size_t(s)], kl), buffers);
    dense[size_t(s)] = prepare_cuda_launch(device, ref_info, req);
    dense[size_t(s)].params.batch_base = static_cast<int>(s);
    const Reference r = run_reference(device, fwd_module, ref_info, dense[size_t(s)]);
    if (r.out_of_range) {
      result.error = "ragged backward: the kit's inputs read out of range";
      return result;
    }
    for (int64_t h = 0; h < hq; ++h)
      for (int64_t i = 0; i < ql; ++i) {
        const size_t row = size_t(h * ql + i);
        lse.set((q0 + i) * hq + h, r.lse[row]);
        for (int64_t c = 0; c < dv; ++c)
          out.set(((q0 + i) * hq + h) * dv + c, r.out[row * size_t(dv) + size_t(c)]);
      }
    seq_lse[size_t(s)] = r.lse;
  }

  // The launcher's ragged backward on the packed tensors; dQ, dK, dV and the gradients start as
  // NaN (0xff bytes), so rows it must zero and does not show.
  std::deque<CudaBuffer> memory;
  std::deque<DLTensor> views;
  auto on_device = [&](const HostTensor& t, bool upload) {
    memory.push_back(device.alloc(std::max<size_t>(t.bytes.size(), 4)));
    if (upload) {
      device.upload(memory.back(), t.bytes.data(), t.bytes.size());
    } else {
      const std::vector<uint8_t> nan(t.bytes.size(), 0xff);
      device.upload(memory.back(), nan.data(), nan.size());
    }
    DLTensor view = host_view(t);
    view.data = reinterpret_cast<void*>(memory.back().ptr());
    view.device = {kDLCUDA, 0};
    views.push_back(view);
    return &views.back();
  };
  const HostTensor dq(src.dtype, {tq, hq, d}), dk(src.dtype, {tk, hkv, d}), dvt(src.dtype, {tk, hkv, dv});
  attn_backward_args args{};
  args.abi_version = ATTN_BACKWARD_ABI_VERSION;
  args.q = on_device(q, true), args.k = on_device(kt, true), args.v = on_device(v, true);
  args.out = on_device(out, true), args.lse = on_device(lse, true), args.dout = on_device(dout, true);
  DLTensor* gq = on_device(dq, false);
  DLTensor* gk = on_device(dk, false);
  DLTensor* gv = on_device(dvt, false);
  args.dq = gq, args.dk = gk, args.dv = gv;
  std::vector<const DLTensor*> buffer_views;
  std::vector<DLTensor*> grad_views;
  std::vector<HostTensor> grads;
  grads.reserve(buffers.size());
  std::vector<std::string> names;
  std::vector<double> scalars;
  size_t b = 0;
  for (const ArgSpec& a : k.args) {
    if (!a.buffer) {
      scalars.push_back(16);
      continue;
    }
    const HostTensor& t = buffers[b++];
    names.push_back(a.name);
    buffer_views.push_back(on_device(t, true));
    const bool wanted = a.elem == "f32" && std::find(src.site_buffers.begin(), src.site_buffers.end(),
                                                     a.name) != src.site_buffers.end();
    if (wanted) grads.emplace_back(ScalarType::F32, t.shape);
    grad_views.push_back(wanted ? on_device(grads.back(), false) : nullptr);
  }
  args.buffers = buffer_views.data(), args.buffer_grads = grad_views.data();
  args.num_buffers = static_cast<int>(buffer_views.size());
  args.scalars = scalars.data(), args.num_scalars = static_cast<int>(scalars.size());
  HostTensor cu_q_t(ScalarType::I32, {n + 1}), cu_k_t(ScalarType::I32, {n + 1});
  std::memcpy(cu_q_t.bytes.data(), cu_q.data(), cu_q.size() * 4);
  std::memcpy(cu_k_t.bytes.data(), cu_k.data(), cu_k.size() * 4);
  DLTensor cu_q_view = host_view(cu_q_t), cu_k_view = host_view(cu_k_t);
  args.cu_seqlens_q = &cu_q_view, args.cu_seqlens_k = &cu_k_view;
  std::shared_ptr<CudaDevice> unowned(&device, [](CudaDevice*) {});
  std::shared_ptr<CudaErrorWord> word = CudaErrorWord::make(unowned, names);
  try {
    launch_cuda_backward_module(device, 0, module, src, names, args, nullptr, *word);
  } catch (const std::exception& e) {
    result.error = std::string("ragged backward: ") + e.what();
    return result;
  }
  if (std::string e = word->synchronize_and_take(); !e.empty()) {
    result.error = "ragged backward: " + e;
    return result;
  }
  auto fetch = [&](const DLTensor* view, const HostTensor& like) {
    HostTensor t = like;
    device.download(t.bytes.data(),
                    CudaBuffer::borrow(reinterpret_cast<uint64_t>(view->data), t.bytes.size()),
                    t.bytes.size());
    return t;
  };
  const HostTensor got_q = fetch(gq, dq), got_k = fetch(gk, dk), got_v = fetch(gv, dvt);

  // The f64 backward reference per sequence on its dense copies (the same f64 LSE), gradients summed.
  Relative eq, ek, ev, eb;
  std::map<size_t, std::vector<double>> grad_sums;  // by position among the wanted gradients
  for (int64_t s = 0; s < n; ++s) {
    const int64_t ql = q_lens[size_t(s)], kl = k_lens[size_t(s)], q0 = cu_q[size_t(s)], k0 = cu_k[size_t(s)];
    if (ql == 0 || kl == 0) {  // the launcher's zero rows
      for (int64_t i = 0; i < ql * hq * d && kl == 0; ++i) eq.add(got_q.get(q0 * hq * d + i), 0.0);
      for (int64_t i = 0; i < kl * hkv * d && ql == 0; ++i) ek.add(got_k.get(k0 * hkv * d + i), 0.0);
      for (int64_t i = 0; i < kl * hkv * dv && ql == 0; ++i) ev.add(got_v.get(k0 * hkv * dv + i), 0.0);
      continue;
    }
    const HostTensor sdout = sequence_rows(dout, q0, ql);
    CudaBuffer dout_memory = device.alloc(sdout.bytes.size());
    device.upload(dout_memory, sdout.bytes.data(), sdout.bytes.size());
    long long grad_numel = 0, site_base[ATTN_CUDA_MAX_SITES];
    std::fill(site_base, site_base + ATTN_CUDA_MAX_SITES, -1);
    std::vector<std::pair<long long, int64_t>> wanted;  // offset, numel, in wanted order
    size_t bi = 0;
    for (const ArgSpec& a : k.args) {
      if (!a.buffer) continue;
      const HostTensor& t = buffers[bi++];
      if (a.elem != "f32" ||
          std::find(src.site_buffers.begin(), src.site_buffers.end(), a.name) == src.site_buffers.end())
        continue;
      for (size_t site = 0; site < src.site_buffers.size() && site < ATTN_CUDA_MAX_SITES; ++site)
        if (src.site_buffers[site] == a.name) site_base[site] = grad_numel;
      wanted.emplace_back(grad_numel, t.numel());
      grad_numel += t.numel();
    }
    attn_cuda_params inputs = dense[size_t(s)].params;
    inputs.error = nullptr;
    const ReferenceGradients ref =
        reference_backward(device, module, inputs, reinterpret_cast<const void*>(dout_memory.ptr()),
                           seq_lse[size_t(s)], site_base, grad_numel, d, dv);
    const std::vector<double>&wq = ref.dq, &wk = ref.dk, &wv = ref.dv;
    // Dense [1, H, L, C] against packed [T, H, C] rows.
    for (int64_t h = 0; h < hq; ++h)
      for (int64_t i = 0; i < ql; ++i)
        for (int64_t c = 0; c < d; ++c)
          eq.add(got_q.get(((q0 + i) * hq + h) * d + c), wq[size_t((h * ql + i) * d + c)]);
    for (int64_t h = 0; h < hkv; ++h)
      for (int64_t j = 0; j < kl; ++j) {
        for (int64_t c = 0; c < d; ++c)
          ek.add(got_k.get(((k0 + j) * hkv + h) * d + c), wk[size_t((h * kl + j) * d + c)]);
        for (int64_t c = 0; c < dv; ++c)
          ev.add(got_v.get(((k0 + j) * hkv + h) * dv + c), wv[size_t((h * kl + j) * dv + c)]);
      }
    if (grad_numel > 0) {
      const std::vector<double>& wg = ref.grad;
      for (size_t w = 0; w < wanted.size(); ++w) {
        std::vector<double>& sum = grad_sums[w];
        sum.resize(size_t(wanted[w].second), 0.0);
        for (int64_t i = 0; i < wanted[w].second; ++i) sum[size_t(i)] += wg[size_t(wanted[w].first + i)];
      }
    }
  }
  // The buffer gradients: the launcher's sum over the sequences against the references' sum.
  size_t w = 0;
  for (size_t i = 0; i < grad_views.size(); ++i) {
    if (!grad_views[i]) continue;
    const HostTensor got = fetch(grad_views[i], grads[w]);
    const std::vector<double>& sum = grad_sums[w];
    for (int64_t e = 0; e < got.numel(); ++e)
      eb.add(got.get(e), e < int64_t(sum.size()) ? sum[size_t(e)] : 0.0);
    result.buffers = true;
    ++w;
  }
  result.dq = eq.value(), result.dk = ek.value(), result.dv = ev.value(), result.dbuffers = eb.value();
  return result;
}

}  // namespace attn::kit
