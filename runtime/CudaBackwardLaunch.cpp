// launch_cuda_backward_module: the backward's parameter block from DLPack tensors, then its four
// launches in stream order.
#include "runtime/CudaBackwardLaunch.h"

#include <map>
#include <stdexcept>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

uint64_t address_of(const DLTensor* t) { return reinterpret_cast<uint64_t>(t->data) + t->byte_offset; }

/// Checks `t` (on device `ordinal`, `ndim`-D, a contiguous last dimension, 16-byte aligned rows
/// when `rows16`) and sets the batch, head and row strides of a [B, H, L, ...] tensor.
void take(const DLTensor* t, const std::string& name, int ndim, int ordinal, bool rows16, long long (&s)[3]) {
  if (!t) throw std::invalid_argument("the CUDA backward needs " + name);
  if (t->device.device_type != kDLCUDA || t->device.device_id != ordinal)
    throw std::invalid_argument(name + " is not in the memory of CUDA device " + std::to_string(ordinal));
  if (t->ndim != ndim)
    throw std::invalid_argument(name + " has " + std::to_string(t->ndim) + " dimensions, expected " +
                                std::to_string(ndim));
  const std::vector<long long> st = dl_strides(t);
  if (ndim > ATTN_CUDA_MAX_RANK)
    throw std::invalid_argument(name + " has more than " + std::to_string(ATTN_CUDA_MAX_RANK) +
                                " dimensions");
  if (ndim > 0 && t->shape[ndim - 1] > 1 && st[size_t(ndim - 1)] != 1)
    throw std::invalid_argument("the last dimension of " + name + " must be contiguous");
  if (rows16 && (address_of(t) % 16 != 0 || (ndim > 2 && (st[2] * t->dtype.bits / 8) % 16 != 0)))
    throw std::invalid_argument("the CUDA backward needs 16-byte aligned rows of " + name);
  for (int d = 0; d < 3; ++d) s[d] = d < ndim ? st[size_t(d)] : 1;
}

}  // namespace

void launch_cuda_backward_module(CudaDevice& device, int ordinal, const CudaModule& module,
                                 const CudaBackwardInfo& info, const std::vector<std::string>& buffer_names,
                                 const attn_backward_args& a, void* stream, CudaErrorWord& word) {
  attn_cuda_bwd_params bp{};
  attn_cuda_params& p = bp.fwd;
  long long unused[3];
  take(a.q, "q", 4, ordinal, true, p.q_stride), take(a.k, "k", 4, ordinal, true, p.k_stride);
  take(a.v, "v", 4, ordinal, true, p.v_stride), take(a.out, "out", 4, ordinal, true, p.out_stride);
  take(a.lse, "lse", 3, ordinal, false, p.lse_stride), take(a.dout, "dout", 4, ordinal, true, bp.dout_stride);
  take(a.dq, "dq", 4, ordinal, true, bp.dq_stride), take(a.dk, "dk", 4, ordinal, true, bp.dk_stride);
  take(a.dv, "dv", 4, ordinal, true, bp.dv_stride);
  if (a.dlse) take(a.dlse, "dlse", 3, ordinal, false, bp.dlse_stride);
  for (const DLTensor* t :
       std::initializer_list<const DLTensor*>{a.q, a.k, a.v, a.out, a.dout, a.dq, a.dk, a.dv})
    if (dl_scalar_type(t->dtype) != info.dtype)
      throw std::invalid_argument(std::string("q, k, v, out, dout and the gradients must be ") +
                                  scalar_type_name(info.dtype));
  if (a.q->shape[3] != info.head_dim || a.v->shape[3] != info.value_dim)
    throw std::invalid_argument("the backward was generated for head_dim " + std::to_string(info.head_dim) +
                                " and value_dim " + std::to_string(info.value_dim));
  p.q = reinterpret_cast<const void*>(address_of(a.q)), p.k = reinterpret_cast<const void*>(address_of(a.k));
  p.v = reinterpret_cast<const void*>(address_of(a.v)), p.out = reinterpret_cast<void*>(address_of(a.out));
  p.lse = reinterpret_cast<float*>(address_of(a.lse));
  bp.dout = reinterpret_cast<const void*>(address_of(a.dout));
  bp.dlse = a.dlse ? reinterpret_cast<const float*>(address_of(a.dlse)) : nullptr;
  bp.dq = reinterpret_cast<void*>(address_of(a.dq)), bp.dk = reinterpret_cast<void*>(address_of(a.dk));
  bp.dv = reinterpret_cast<void*>(address_of(a.dv));
  p.batch = static_cast<int>(a.q->shape[0]), p.q_heads = static_cast<int>(a.q->shape[1]);
  p.kv_heads = static_cast<int>(a.k->shape[1]);
  p.q_len = static_cast<int>(a.q->shape[2]), p.kv_len = static_cast<int>(a.k->shape[2]);
  if (p.kv_heads <= 0 || p.q_heads % p.kv_heads != 0)
    throw std::invalid_argument("query heads must be a multiple of key/value heads");
  p.scale = static_cast<float>(info.scale);
  p.scale_log2 = static_cast<float>(info.scale * 1.4426950408889634);
  p.error = word.device_ptr();  // zeroed once; read at the next synchronization

  // Buffers in declaration order, and where each wanted gradient starts in grad_out.
  if (a.num_buffers > ATTN_CUDA_MAX_BUFFERS || a.num_scalars > ATTN_CUDA_MAX_SCALARS)
    throw std::invalid_argument("too many arguments for the CUDA backward");
  if (static_cast<size_t>(a.num_buffers) != buffer_names.size())
    throw std::invalid_argument("the backward takes " + std::to_string(buffer_names.size()) +
                                " tensor arguments, got " + std::to_string(a.num_buffers));
  for (int i = 0; i < a.num_scalars; ++i) p.scalars[i] = a.scalars[i];
  std::map<std::string, long long> base;
  std::vector<std::pair<long long, const DLTensor*>> wanted;  // grad_out offset, the caller's gradient
  std::vector<std::vector<long long>> extents;                // for the error word's message
  for (int i = 0; i < a.num_buffers; ++i) {
    const DLTensor* t = a.buffers[i];
    const std::string& name = buffer_names[size_t(i)];
    if (!t) throw std::invalid_argument("missing buffer argument '" + name + "'");
    take(t, name, t->ndim, ordinal, false, unused);
    attn_cuda_buffer& b = p.buffers[i];
    extents.emplace_back(t->shape, t->shape + t->ndim);
    b.data = reinterpret_cast<const void*>(address_of(t));
    b.rank = t->ndim;
    long long numel = 1;
    for (int d = b.rank - 1; d >= 0; --d) b.shape[d] = t->shape[d], b.stride[d] = numel, numel *= t->shape[d];
    if (const DLTensor* g = a.buffer_grads ? a.buffer_grads[i] : nullptr) {
      take(g, "the gradient of " + name, g->ndim, ordinal, false, unused);
      base[name] = bp.grad_numel;
      wanted.emplace_back(bp.grad_numel, g);
      bp.grad_numel += numel;
    }
  }
  for (size_t s = 0; s < ATTN_CUDA_MAX_SITES; ++s)
    bp.site_base[s] =
        s < info.site_buffers.size() && base.count(info.site_buffers[s]) ? base[info.site_buffers[s]] : -1;
  word.note_extents(std::move(extents));

  // Workspace, in stream order: delta, and the buffer gradients' partial slots and sums.
  CudaStreamScratch scratch(device, stream);
  bp.delta = reinterpret_cast<float*>(scratch.alloc(size_t(p.batch) * p.q_heads * p.q_len * 4));
  const unsigned q_tiles = (unsigned(p.q_len) + info.block_m - 1) / info.block_m;
  if (bp.grad_numel > 0) {
    bp.grad_slots = p.batch * p.q_heads * int(q_tiles) * (info.block_m / 16);  // a slot per dq warp
    bp.grad_partial =
        reinterpret_cast<float*>(scratch.alloc(size_t(bp.grad_slots) * size_t(bp.grad_numel) * 4, true));
    bp.grad_out = reinterpret_cast<float*>(scratch.alloc(size_t(bp.grad_numel) * 4));
  }
  if (p.q_len <= 0 || p.kv_len <= 0) return;
  const unsigned B = unsigned(p.batch), Hq = unsigned(p.q_heads), Hkv = unsigned(p.kv_heads);
  device.launch(module, info.pre, {(unsigned(p.q_len) + 3) / 4, Hq, B}, 128, 0, &bp, sizeof bp, stream);
  device.launch(module, info.dkdv, {(unsigned(p.kv_len) + info.block_n - 1) / info.block_n, Hkv, B},
                unsigned(info.threads), unsigned(info.dkdv_smem), &bp, sizeof bp, stream);
  device.launch(module, info.dq, {q_tiles, Hq, B}, unsigned(info.threads), unsigned(info.dq_smem), &bp,
                sizeof bp, stream);
  if (bp.grad_numel > 0) {
    device.launch(module, info.grad, {unsigned((bp.grad_numel + 255) / 256), 1, 1}, 256, 0, &bp, sizeof bp,
                  stream);
    for (const auto& [offset, g] : wanted) {
      size_t bytes = 4;
      for (int d = 0; d < g->ndim; ++d) bytes *= size_t(g->shape[d]);
      scratch.copy(address_of(g), reinterpret_cast<uint64_t>(bp.grad_out + offset), bytes);
    }
  }
}

}  // namespace attn
