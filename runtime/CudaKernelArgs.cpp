// The cuda launcher's reading of a kernel-ABI call: checks, the parameter block, a ragged batch's
// or paged cache's layout (runtime/CudaKernelArgs.h).
#include "runtime/CudaKernelArgs.h"

#include <cstring>

namespace attn {

namespace {

bool dtype_is(const DLTensor* t, ScalarType s) {
  switch (s) {
    case ScalarType::BF16: return t->dtype.code == kDLBfloat && t->dtype.bits == 16;
    case ScalarType::F16: return t->dtype.code == kDLFloat && t->dtype.bits == 16;
    case ScalarType::F8E4M3: return t->dtype.code == ATTN_DL_FLOAT8_E4M3FN && t->dtype.bits == 8;
    case ScalarType::F8E5M2: return t->dtype.code == ATTN_DL_FLOAT8_E5M2 && t->dtype.bits == 8;
    default: return t->dtype.code == kDLFloat && t->dtype.bits == 32;
  }
}

/// An FP8 call's descale factor `t` (`name`) into `factor` and `stride`: f32 in GPU memory, [1] or
/// [batch, kv_heads] (a ragged batch's batch is its sequences). "" or the message.
std::string take_descale(const DLTensor* t, const char* name, int64_t batch, int64_t kv_heads,
                         const float*& factor, long long (&stride)[2]) {
  factor = nullptr, stride[0] = stride[1] = 0;
  if (!t) return {};
  const bool one = t->ndim == 1 && t->shape[0] == 1;
  if (!one && !(t->ndim == 2 && t->shape[0] == batch && t->shape[1] == kv_heads))
    return std::string(name) + " must be f32 [1] or [" + std::to_string(batch) + ", " +
           std::to_string(kv_heads) + "] (one factor, or one per batch entry and key/value head)";
  if (!dtype_is(t, ScalarType::F32) || t->device.device_type != kDLCUDA)
    return std::string(name) + " must be an f32 tensor in GPU memory";
  if (!one) {
    const std::vector<long long> s = dl_strides(t);
    stride[0] = s[0], stride[1] = s[1];
  }
  factor = static_cast<const float*>(dl_data(t));
  return {};
}

/// The call's row maxima (kernel option return_max; ABI version 4), or null.
const DLTensor* row_maxima(const attn_kernel_args* a) { return a->abi_version >= 4 ? a->max : nullptr; }

}  // namespace

bool cuda_call_is_paged(const attn_kernel_args* a) {
  return a->abi_version >= 6 && (a->page_table || a->kv_lens);
}

bool cuda_call_is_ragged(const attn_kernel_args* a) {
  return cuda_call_is_paged(a) || (a->abi_version >= 5 && (a->cu_seqlens_q || a->cu_seqlens_k));
}

namespace {

/// The i32 (or i64) entries of `t` (`name`, `rank` dimensions, row-major, rows of `t->shape[1]`
/// entries when 2-D) into `out`: read from CPU memory, or from GPU memory through `download` (a
/// wait for the device). "" or the message.
std::string read_table(const DLTensor* t, const std::string& name, int rank, std::vector<int64_t>& out,
                       const CudaDownload& download) {
  const bool i32 = t->dtype.code == kDLInt && t->dtype.bits == 32 && t->dtype.lanes == 1;
  const bool i64 = t->dtype.code == kDLInt && t->dtype.bits == 64 && t->dtype.lanes == 1;
  if (!i32 && !i64) return name + " must hold i32";
  if (t->ndim != rank || t->shape[0] < (rank == 1 ? 1 : 0) || (!t->data && t->shape[0] > 0))
    return name +
           (rank == 1 ? " must be 1-D with at least one entry" : " must be 2-D [sequences, max_pages]");
  const std::vector<long long> st = dl_strides(t);
  const int64_t rows = t->shape[0], cols = rank == 2 ? t->shape[1] : 1;
  const long long row_stride = st[0], col_stride = rank == 2 ? st[1] : 1;
  if (row_stride < 0 || col_stride < 0) return name + " must have non-negative strides";
  out.assign(static_cast<size_t>(rows * cols), 0);
  if (out.empty()) return {};
  const size_t es = i32 ? 4 : 8;
  const size_t bytes = static_cast<size_t>((rows - 1) * row_stride + (cols - 1) * col_stride + 1) * es;
  std::vector<char> raw(bytes);
  if (t->device.device_type == kDLCUDA)
    download(raw.data(), dl_data(t), bytes);
  else if (t->device.device_type == kDLCPU || t->device.device_type == kDLCUDAHost)
    std::memcpy(raw.data(), dl_data(t), bytes);
  else
    return name + " must be in CPU or GPU memory";
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const char* at = raw.data() + static_cast<size_t>(r * row_stride + c * col_stride) * es;
      int32_t small = 0;
      int64_t& v = out[static_cast<size_t>(r * cols + c)];
      if (i32)
        std::memcpy(&small, at, 4), v = small;
      else
        std::memcpy(&v, at, 8);
    }
  return {};
}

}  // namespace

std::string read_ragged_layout(const DLTensor* cu_seqlens_q, const DLTensor* cu_seqlens_k, int64_t tq,
                               int64_t tk, std::vector<CudaSequence>& out, const CudaDownload& download) {
  out.clear();
  if (!cu_seqlens_q) return "a ragged batch or paged cache needs cu_seqlens_q";
  if (!cu_seqlens_k) return "a ragged batch needs both cu_seqlens_q and cu_seqlens_k; cu_seqlens_k is NULL";
  std::vector<int64_t> cu_q, cu_k;
  if (std::string why = read_table(cu_seqlens_q, "cu_seqlens_q", 1, cu_q, download); !why.empty()) return why;
  if (std::string why = read_table(cu_seqlens_k, "cu_seqlens_k", 1, cu_k, download); !why.empty()) return why;
  return check_ragged_layout(cu_q, cu_k, tq, tk, out);
}

std::string read_cuda_layout(const attn_kernel_args* a, std::vector<CudaSequence>& out,
                             std::vector<int32_t>& table, int64_t& max_pages, const CudaDownload& download) {
  out.clear(), table.clear(), max_pages = 0;
  if (!cuda_call_is_ragged(a)) return {};
  if (!cuda_call_is_paged(a))
    return read_ragged_layout(a->cu_seqlens_q, a->cu_seqlens_k, a->q->shape[0], a->k->shape[0], out,
                              download);
  std::vector<int64_t> cu_q;
  if (!a->cu_seqlens_q) return "a ragged batch or paged cache needs cu_seqlens_q";
  if (std::string why = read_table(a->cu_seqlens_q, "cu_seqlens_q", 1, cu_q, download); !why.empty())
    return why;
  if (a->cu_seqlens_k) return "a paged KV cache takes its key lengths from kv_lens, not cu_seqlens_k";
  if (!a->page_table || !a->kv_lens) return "a paged KV cache needs both page_table and kv_lens";
  std::vector<int64_t> entries, lens;
  if (std::string why = read_table(a->page_table, "page_table", 2, entries, download); !why.empty())
    return why;
  if (std::string why = read_table(a->kv_lens, "kv_lens", 1, lens, download); !why.empty()) return why;
  PagedLayout layout;
  layout.table.assign(entries.begin(), entries.end());
  layout.kv_lens.assign(lens.begin(), lens.end());
  layout.max_pages = a->page_table->shape[1], layout.pages = a->k->shape[0],
  layout.page_size = a->k->shape[1];
  if (a->page_table->shape[0] != static_cast<int64_t>(cu_q.size()) - 1)
    return "page_table must be i32 [" + std::to_string(cu_q.size() - 1) +
           ", max_pages] (one row per sequence)";
  table = layout.table, max_pages = layout.max_pages;
  return check_paged_layout(cu_q, layout, a->q->shape[0], out);
}

std::string fill_cuda_params(const CudaLaunchInfo& info, const attn_kernel_args* a, attn_cuda_params& p) {
  if (!a || a->abi_version < 1 || a->abi_version > ATTN_KERNEL_ABI_VERSION)
    return "attn_kernel_args version mismatch";
  const bool fp8 = info.dtype == ScalarType::F8E4M3 || info.dtype == ScalarType::F8E5M2;
  if (a->abi_version >= 7 && !fp8 && (a->q_descale || a->k_descale || a->v_descale))
    return "descale factors are for fp8 kernels (dtype e4m3 or e5m2)";
  const bool ragged = cuda_call_is_ragged(a), paged = cuda_call_is_paged(a);
  // Dense [B, H, L, C]; ragged [T, H, C]; a paged cache's K and V [pages, page_size, H, C].
  const int q_rank = ragged ? 3 : 4, kv_rank = paged ? 4 : q_rank;
  const DLTensor* qkv[] = {a->q, a->k, a->v, a->out};
  for (const DLTensor* t : qkv) {
    const int rank = t == a->k || t == a->v ? kv_rank : q_rank;
    if (!t || t->ndim != rank)
      return paged    ? "a paged call's q and out must be 3-D [T, H, D], k and v 4-D [pages, page_size, H, D]"
             : ragged ? "a ragged batch's q, k, v and out must be 3-D tensors [T, H, D]"
                      : "q, k, v and out must be 4-D tensors [B, H, L, D]";
    if (t->device.device_type != kDLCUDA) return "the cuda target takes tensors in GPU memory (kDLCUDA)";
    if (!dtype_is(t, t == a->out ? cuda_out_type(info.dtype) : info.dtype))
      return fp8 ? std::string("q, k and v must be ") + scalar_type_name(info.dtype) + " and out bf16"
                 : std::string("q, k, v and out must be ") + scalar_type_name(info.dtype);
    const std::vector<long long> st = dl_strides(t);
    if (st[rank - 1] != 1) return "the last dimension of q, k, v and out must be contiguous";
    bool rows_aligned = st[ragged && rank == 3 ? 0 : 2] % 8 == 0;  // a row is a token; pages too
    if (paged && rank == 4) rows_aligned = st[0] % 8 == 0 && st[1] % 8 == 0 && st[2] % 8 == 0;
    if (info.needs_16b_rows && ((reinterpret_cast<uintptr_t>(dl_data(t)) % 16) != 0 || !rows_aligned))
      return "the tensor-core kernel needs 16-byte aligned rows";
  }
  if (a->q->shape[q_rank - 1] != info.head_dim || a->v->shape[kv_rank - 1] != info.value_dim)
    return "the kernel was compiled for head_dim " + std::to_string(info.head_dim) + " and value_dim " +
           std::to_string(info.value_dim);
  if (ragged) {
    const int64_t *qs = a->q->shape, *ks = a->k->shape, *vs = a->v->shape, *os = a->out->shape;
    for (int d = 0; d + 1 < kv_rank; ++d)
      if (vs[d] != ks[d]) return "k and v must have the same shape but for the last dimension";
    if (os[0] != qs[0] || os[1] != qs[1] || os[2] != vs[kv_rank - 1])
      return "a ragged batch's or paged call's out must be [Tq, Hq, Dv]";
    for (const DLTensor* rows : {static_cast<const DLTensor*>(a->lse), row_maxima(a)})
      if (rows && (rows->ndim != 2 || rows->shape[0] != qs[0] || rows->shape[1] != qs[1]))
        return std::string("a ragged batch's or paged call's ") + (rows == a->lse ? "lse" : "max") +
               " must be [Tq, Hq]";
  }
  for (const DLTensor* rows : {static_cast<const DLTensor*>(a->lse), row_maxima(a)})
    if (rows && (rows->device.device_type != kDLCUDA || !dtype_is(rows, ScalarType::F32)))
      return std::string(rows == a->lse ? "lse" : "max") + " must be an f32 tensor in GPU memory";
  if (a->num_buffers > ATTN_CUDA_MAX_BUFFERS || a->num_scalars > ATTN_CUDA_MAX_SCALARS)
    return "too many kernel arguments";
  std::memset(&p, 0, sizeof p);
  p.q = dl_data(a->q);
  p.k = dl_data(a->k);
  p.v = dl_data(a->v);
  p.out = const_cast<void*>(dl_data(a->out));
  const DLTensor* const* tensors[] = {&a->q, &a->k, &a->v, const_cast<const DLTensor* const*>(&a->out)};
  long long* strides[] = {p.q_stride, p.k_stride, p.v_stride, p.out_stride};
  for (int i = 0; i < 4; ++i) {
    const std::vector<long long> s = dl_strides(*tensors[i]);
    if ((i == 1 || i == 2) && paged)  // {0, head, row in a page}; pages k_page_stride apart
      strides[i][0] = 0, strides[i][1] = s[2], strides[i][2] = s[1];
    else if (ragged)  // {0, head, token}
      strides[i][0] = 0, strides[i][1] = s[1], strides[i][2] = s[0];
    else
      for (int d = 0; d < 3; ++d) strides[i][d] = s[d];
  }
  if (paged) {
    p.k_page_stride = dl_strides(a->k)[0], p.v_page_stride = dl_strides(a->v)[0];
    p.page_size = static_cast<int>(a->k->shape[1]);
  }
  // The LSE and the row maxima: [B, Hq, Lq], or a ragged batch's [Tq, Hq] as {0, head, token}.
  auto row_floats = [&](const DLTensor* t, long long(&stride)[3]) -> float* {
    if (!t) return nullptr;
    std::vector<long long> s = dl_strides(t);
    if (ragged)
      stride[0] = 0, stride[1] = s[1], stride[2] = s[0];
    else
      for (int d = 0; d < 3 && d < t->ndim; ++d) stride[d] = s[d];
    return static_cast<float*>(const_cast<void*>(dl_data(t)));
  };
  p.lse = row_floats(a->lse, p.lse_stride);
  p.max = row_floats(row_maxima(a), p.max_stride);
  // A ragged batch's lengths are the packed totals here; each sequence's launch has its own.
  p.batch = ragged ? 1 : static_cast<int>(a->q->shape[0]);
  p.q_heads = static_cast<int>(a->q->shape[1]);
  p.kv_heads = static_cast<int>(a->k->shape[paged ? 2 : 1]);
  p.q_len = static_cast<int>(a->q->shape[ragged ? 0 : 2]);
  p.kv_len = paged ? 0 : static_cast<int>(a->k->shape[ragged ? 0 : 2]);
  if (p.kv_heads <= 0 || p.q_heads % p.kv_heads != 0)
    return "query heads must be a multiple of key/value heads";
  p.scale = static_cast<float>(info.scale);
  p.scale_log2 = static_cast<float>(info.scale * 1.4426950408889634);
  if (fp8 && a->abi_version >= 7) {  // one factor per batch entry, or per sequence of a ragged batch
    const int64_t entries = !ragged                                         ? a->q->shape[0]
                            : a->cu_seqlens_q && a->cu_seqlens_q->ndim == 1 ? a->cu_seqlens_q->shape[0] - 1
                                                                            : 0;
    const DLTensor* descales[] = {a->q_descale, a->k_descale, a->v_descale};
    const char* names[] = {"q_descale", "k_descale", "v_descale"};
    for (int t = 0; t < 3; ++t)
      if (std::string why =
              take_descale(descales[t], names[t], entries, p.kv_heads, p.descale[t], p.descale_stride[t]);
          !why.empty())
        return why;
  }
  for (int i = 0; i < a->num_buffers; ++i) {
    const DLTensor* t = a->buffers[i];
    if (t->ndim > ATTN_CUDA_MAX_RANK) return "tensor arguments have at most 4 dimensions";
    if (t->device.device_type != kDLCUDA) return "the cuda target takes tensors in GPU memory (kDLCUDA)";
    std::vector<long long> s = dl_strides(t);
    p.buffers[i].data = dl_data(t);
    p.buffers[i].rank = t->ndim;
    for (int d = 0; d < t->ndim; ++d) {
      p.buffers[i].shape[d] = t->shape[d];
      p.buffers[i].stride[d] = s[d];
    }
  }
  for (int i = 0; i < a->num_scalars; ++i) p.scalars[i] = a->scalars[i];
  return {};
}

}  // namespace attn
