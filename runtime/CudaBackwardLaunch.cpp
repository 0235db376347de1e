// launch_cuda_backward_module: the backward's parameter block from DLPack tensors, then its four
// launches in stream order.
#include "runtime/CudaBackwardLaunch.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "runtime/CudaKernelArgs.h"
#include "runtime/CudaRagged.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

uint64_t address_of(const DLTensor* t) { return reinterpret_cast<uint64_t>(t->data) + t->byte_offset; }

/// Checks `t` (on device `ordinal`, `ndim`-D, a contiguous last dimension, 16-byte aligned rows
/// when `rows16`) and sets the batch, head and row strides of a [B, H, L, ...] tensor, or with
/// `packed` of a ragged batch's [T, H, ...]: {0, head, token}.
void take(const DLTensor* t, const std::string& name, int ndim, int ordinal, bool rows16, long long (&s)[3],
          bool packed = false) {
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
  const long long row = packed ? st[0] : ndim > 2 ? st[2] : 0;
  if (rows16 && (address_of(t) % 16 != 0 || (row * t->dtype.bits / 8) % 16 != 0))
    throw std::invalid_argument("the CUDA backward needs 16-byte aligned rows of " + name);
  if (packed) {
    s[0] = 0, s[1] = ndim > 1 ? st[1] : 1, s[2] = st[0];
    return;
  }
  for (int d = 0; d < 3; ++d) s[d] = d < ndim ? st[size_t(d)] : 1;
}

/// Zeroes rows [row, row + rows) of the packed [T, H, C] tensor `t` (`es` bytes an element) in
/// stream order; they must be one block of memory (a dense tensor).
void zero_rows(CudaStreamScratch& scratch, const DLTensor* t, const char* name, int64_t row, int64_t rows,
               size_t es) {
  if (rows <= 0) return;
  const std::vector<long long> st = dl_strides(t);
  if (st[1] != t->shape[2] || st[0] != t->shape[1] * t->shape[2])
    throw std::invalid_argument(
        std::string("a ragged batch with a sequence that has no queries or no keys needs ") + name +
        " dense (its rows are zeroed)");
  const size_t per_row = size_t(t->shape[1] * t->shape[2]) * es;
  scratch.zero(address_of(t) + size_t(row) * per_row, size_t(rows) * per_row);
}

/// `base` moved on `rows` rows of `stride` elements of `es` bytes.
template <class T>
T* rows_on(T* base, int64_t rows, long long stride, size_t es) {
  using Byte = std::conditional_t<std::is_const_v<T>, const char, char>;
  return reinterpret_cast<T*>(reinterpret_cast<Byte*>(base) + rows * stride * static_cast<long long>(es));
}

}  // namespace

attn_cuda_bwd_params cuda_backward_sequence_params(const attn_cuda_bwd_params& packed, const CudaSequence& s,
                                                   int index, size_t elem_bytes) {
  attn_cuda_bwd_params one = packed;
  one.fwd = cuda_sequence_params(packed.fwd, s, index, elem_bytes, elem_bytes);
  one.dout = rows_on(packed.dout, s.q_row, packed.dout_stride[2], elem_bytes);
  one.dq = rows_on(packed.dq, s.q_row, packed.dq_stride[2], elem_bytes);
  if (packed.dlse) one.dlse = packed.dlse + s.q_row * packed.dlse_stride[2];
  one.dk = rows_on(packed.dk, s.k_row, packed.dk_stride[2], elem_bytes);
  one.dv = rows_on(packed.dv, s.k_row, packed.dv_stride[2], elem_bytes);
  return one;
}

void launch_cuda_backward_module(CudaDevice& device, int ordinal, const CudaModule& module,
                                 const CudaBackwardInfo& info, const std::vector<std::string>& buffer_names,
                                 const attn_backward_args& a, void* stream, CudaErrorWord& word) {
  attn_cuda_bwd_params bp{};
  attn_cuda_params& p = bp.fwd;
  long long unused[3];
  // Dense [B, H, L, C] (the LSE [B, H, L]), or a ragged batch's packed [T, H, C] ([T, H]).
  const bool ragged = a.abi_version >= 2 && (a.cu_seqlens_q || a.cu_seqlens_k);
  const int n = ragged ? 3 : 4, rows = n - 1;
  take(a.q, "q", n, ordinal, true, p.q_stride, ragged), take(a.k, "k", n, ordinal, true, p.k_stride, ragged);
  take(a.v, "v", n, ordinal, true, p.v_stride, ragged),
      take(a.out, "out", n, ordinal, true, p.out_stride, ragged);
  take(a.lse, "lse", rows, ordinal, false, p.lse_stride, ragged);
  take(a.dout, "dout", n, ordinal, true, bp.dout_stride, ragged);
  take(a.dq, "dq", n, ordinal, true, bp.dq_stride, ragged),
      take(a.dk, "dk", n, ordinal, true, bp.dk_stride, ragged);
  take(a.dv, "dv", n, ordinal, true, bp.dv_stride, ragged);
  if (a.dlse) take(a.dlse, "dlse", rows, ordinal, false, bp.dlse_stride, ragged);
  for (const DLTensor* t :
       std::initializer_list<const DLTensor*>{a.q, a.k, a.v, a.out, a.dout, a.dq, a.dk, a.dv})
    if (dl_scalar_type(t->dtype) != info.dtype)
      throw std::invalid_argument(std::string("q, k, v, out, dout and the gradients must be ") +
                                  scalar_type_name(info.dtype));
  if (a.q->shape[n - 1] != info.head_dim || a.v->shape[n - 1] != info.value_dim)
    throw std::invalid_argument("the backward was generated for head_dim " + std::to_string(info.head_dim) +
                                " and value_dim " + std::to_string(info.value_dim));
  p.q = reinterpret_cast<const void*>(address_of(a.q)), p.k = reinterpret_cast<const void*>(address_of(a.k));
  p.v = reinterpret_cast<const void*>(address_of(a.v)), p.out = reinterpret_cast<void*>(address_of(a.out));
  p.lse = reinterpret_cast<float*>(address_of(a.lse));
  bp.dout = reinterpret_cast<const void*>(address_of(a.dout));
  bp.dlse = a.dlse ? reinterpret_cast<const float*>(address_of(a.dlse)) : nullptr;
  bp.dq = reinterpret_cast<void*>(address_of(a.dq)), bp.dk = reinterpret_cast<void*>(address_of(a.dk));
  bp.dv = reinterpret_cast<void*>(address_of(a.dv));
  p.batch = ragged ? 1 : static_cast<int>(a.q->shape[0]), p.q_heads = static_cast<int>(a.q->shape[1]);
  p.kv_heads = static_cast<int>(a.k->shape[1]);
  p.q_len = static_cast<int>(a.q->shape[ragged ? 0 : 2]),
  p.kv_len = static_cast<int>(a.k->shape[ragged ? 0 : 2]);
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
  std::vector<CudaSequence> seqs;  // a ragged batch's, checked as the forward's
  if (ragged) {
    const std::string why =
        read_ragged_layout(a.cu_seqlens_q, a.cu_seqlens_k, a.q->shape[0], a.k->shape[0], seqs,
                           [&](void* dst, const void* src, size_t bytes) {
                             scratch.download(dst, reinterpret_cast<uint64_t>(src), bytes);
                           });
    if (!why.empty()) throw std::invalid_argument(why);
  } else {
    seqs.push_back({0, p.q_len, 0, p.kv_len, 0});  // the dense batch: one launch of every entry
  }
  const size_t es = scalar_type_size(info.dtype);
  auto q_tiles_of = [&](int64_t q_len) { return (q_len + info.block_m - 1) / info.block_m; };
  // Which sequences launch: those with queries and keys, and with a sink those with queries only
  // (attn_bwd_dq gives their rows' sink gradients and zero dQ rows).
  auto launches = [&](const CudaSequence& s) { return s.q_len > 0 && (s.k_len > 0 || info.sink); };
  int64_t delta_rows = 0, slots = 0;  // the largest launch's rows, every launch's slots (a slot per dq warp)
  for (const CudaSequence& s : seqs) {
    delta_rows = std::max<int64_t>(delta_rows, int64_t(p.batch) * p.q_heads * s.q_len);
    if (launches(s)) slots += int64_t(p.batch) * p.q_heads * q_tiles_of(s.q_len) * (info.block_m / 16);
  }
  bp.delta = reinterpret_cast<float*>(scratch.alloc(size_t(delta_rows) * 4));  // launches in order reuse it
  if (bp.grad_numel > 0) {
    bp.grad_slots = static_cast<int>(slots);
    bp.grad_partial =
        reinterpret_cast<float*>(scratch.alloc(size_t(slots) * size_t(bp.grad_numel) * 4, true));
    bp.grad_out = reinterpret_cast<float*>(scratch.alloc(size_t(bp.grad_numel) * 4));
  }
  // Each sequence (a dense batch: the batch) as a dense batch of one on views of the packed
  // tensors, its index as the mask's b; its buffer-gradient slots after the previous sequence's,
  // so that one sum adds every slot in order. A sequence without keys gets zero dQ rows, one
  // without queries zero dK and dV rows.
  int64_t slot = 0;
  for (size_t i = 0; i < seqs.size(); ++i) {
    const CudaSequence& s = seqs[i];
    if (ragged && !launches(s)) {
      if (s.k_len == 0) zero_rows(scratch, a.dq, "dq", s.q_row, s.q_len, es);
      if (s.q_len == 0)
        zero_rows(scratch, a.dk, "dk", s.k_row, s.k_len, es),
            zero_rows(scratch, a.dv, "dv", s.k_row, s.k_len, es);
      continue;
    }
    if (!launches(s)) continue;
    attn_cuda_bwd_params one = ragged ? cuda_backward_sequence_params(bp, s, static_cast<int>(i), es) : bp;
    if (bp.grad_partial) one.grad_partial = bp.grad_partial + slot * bp.grad_numel;
    const unsigned B = unsigned(one.fwd.batch), Hq = unsigned(p.q_heads), Hkv = unsigned(p.kv_heads);
    const unsigned q_len = unsigned(one.fwd.q_len), kv_len = unsigned(one.fwd.kv_len);
    const unsigned q_tiles = unsigned(q_tiles_of(q_len));
    slot += int64_t(B) * Hq * q_tiles * (info.block_m / 16);
    device.launch(module, info.pre, {(q_len + 3) / 4, Hq, B}, 128, 0, &one, sizeof one, stream);
    if (kv_len > 0)
      device.launch(module, info.dkdv, {(kv_len + info.block_n - 1) / info.block_n, Hkv, B},
                    unsigned(info.threads), unsigned(info.dkdv_smem), &one, sizeof one, stream);
    device.launch(module, info.dq, {q_tiles, Hq, B}, unsigned(info.threads), unsigned(info.dq_smem), &one,
                  sizeof one, stream);
  }
  if (bp.grad_numel > 0) {
    if (slot > 0)
      device.launch(module, info.grad, {unsigned((bp.grad_numel + 255) / 256), 1, 1}, 256, 0, &bp, sizeof bp,
                    stream);
    for (const auto& [offset, g] : wanted) {
      size_t bytes = 4;
      for (int d = 0; d < g->ndim; ++d) bytes *= size_t(g->shape[d]);
      if (slot > 0)
        scratch.copy(address_of(g), reinterpret_cast<uint64_t>(bp.grad_out + offset), bytes);
      else
        scratch.zero(address_of(g), bytes);  // no launch: nothing flowed back
    }
  }
}

}  // namespace attn
