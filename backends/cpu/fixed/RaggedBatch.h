namespace {

/// A ragged batch (ABI version 5) as a dense one per sequence: sequence b is rows
/// [cu[b], cu[b + 1]) of the packed Q [Tq, Hq, D], K, V [Tk, Hkv, D|Dv], Out [Tq, Hq, Dv] and
/// LSE, max [Tq, Hq], and the dense entry runs on its [1, H, L, C] views with `b` set to b. No
/// copy is made: a view is the packed tensor's memory with the sequence's offset and strides.
struct SequenceView {
  DLTensor tensor{};
  int64_t shape[4]{};
  int64_t strides[4]{};

  /// Rows [first, first + rows) of the packed `t` ([T, H, C] or [T, H]) as [1, H, rows, C] or
  /// [1, H, rows]; null for a null `t`.
  DLTensor* of(const DLTensor* t, int64_t first, int64_t rows) {
    if (!t) return nullptr;
    tensor = *t;
    tensor.ndim = t->ndim + 1;
    tensor.shape = shape, tensor.strides = strides;
    const int64_t row_stride = stride_of(t, 0);
    shape[0] = 1, shape[1] = t->shape[1], shape[2] = rows;
    strides[0] = row_stride * rows, strides[1] = stride_of(t, 1), strides[2] = row_stride;
    if (t->ndim == 3) shape[3] = t->shape[2], strides[3] = stride_of(t, 2);
    tensor.byte_offset = t->byte_offset + uint64_t(first * row_stride * (t->dtype.bits / 8));
    return &tensor;
  }
};

/// The sequence boundaries `t` holds (cu_seqlens_q or _k, `name`): i32 or i64 [N + 1] in CPU
/// memory, 0 first, non-decreasing, ending at `total` rows. False, with the message written, if not.
bool read_boundaries(void* uc, const DLTensor* t, const char* name, int64_t total, std::vector<int64_t>& cu) {
  if (!t) return fail(uc, "%s: a ragged batch needs both cu_seqlens_q and cu_seqlens_k; %s is NULL", kKernelName, name), false;
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return fail(uc, "%s: %s is not in CPU memory", kKernelName, name), false;
  const bool i32 = t->dtype.code == kDLInt && t->dtype.bits == 32 && t->dtype.lanes == 1;
  const bool i64 = t->dtype.code == kDLInt && t->dtype.bits == 64 && t->dtype.lanes == 1;
  if (!i32 && !i64)
    return fail(uc, "%s: %s has element type %s, expected i32", kKernelName, name, dtype_text(t->dtype).text), false;
  if (t->ndim != 1 || t->shape[0] < 1)
    return fail(uc, "%s: %s must be 1-D with at least one entry (sequences + 1)", kKernelName, name), false;
  if (!t->data) return fail(uc, "%s: %s has no data", kKernelName, name), false;
  const char* base = base_of(t);
  cu.resize(size_t(t->shape[0]));
  for (int64_t i = 0; i < t->shape[0]; ++i) {
    const char* at = base + i * stride_of(t, 0) * (i32 ? 4 : 8);
    int32_t small;
    if (i32) memcpy(&small, at, 4), cu[size_t(i)] = small;
    else memcpy(&cu[size_t(i)], at, 8);
  }
  if (cu[0] != 0) return fail(uc, "%s: %s starts at %lld, not 0", kKernelName, name, (long long)cu[0]), false;
  for (size_t i = 1; i < cu.size(); ++i)
    if (cu[i] < cu[i - 1])
      return fail(uc, "%s: %s decreases at entry %zu (%lld after %lld)", kKernelName, name, i, (long long)cu[i],
                  (long long)cu[i - 1]), false;
  if (cu.back() != total)
    return fail(uc, "%s: %s ends at %lld, but the packed tensor has %lld rows", kKernelName, name, (long long)cu.back(),
                (long long)total), false;
  return true;
}

/// Checks a ragged call's tensors and runs `attend(args, b)` on each sequence's views, in order.
template <class Attend>
int attend_ragged(void* uc, const attn_kernel_args* args, const Attend& attend) {
  if (!check_tensor(uc, args->q, "q", 3, false) || !check_tensor(uc, args->k, "k", 3, false) ||
      !check_tensor(uc, args->v, "v", 3, false) || !check_tensor(uc, args->out, "out", 3, false))
    return -1;
  const int64_t* qs = args->q->shape;
  const int64_t* ks = args->k->shape;
  const int64_t* vs = args->v->shape;
  const int64_t* os = args->out->shape;
  if (ks[2] != qs[2] || vs[0] != ks[0] || vs[1] != ks[1])
    return fail(uc, "%s: ragged k [%lld, %lld, %lld] and v [%lld, %lld, %lld] do not match q [Tq, Hq, %lld]", kKernelName,
                (long long)ks[0], (long long)ks[1], (long long)ks[2], (long long)vs[0], (long long)vs[1],
                (long long)vs[2], (long long)qs[2]), -1;
  if (os[0] != qs[0] || os[1] != qs[1] || os[2] != vs[2])
    return fail(uc, "%s: ragged out has shape [%lld, %lld, %lld]; expected [%lld, %lld, %lld]", kKernelName,
                (long long)os[0], (long long)os[1], (long long)os[2], (long long)qs[0], (long long)qs[1],
                (long long)vs[2]), -1;
  DLTensor* row_outs[2] = {args->lse, args->max};
  for (DLTensor* row_out : row_outs) {
    if (!row_out) continue;
    const char* what = row_out == args->lse ? "lse" : "max";
    if (!check_tensor(uc, row_out, what, 2, true)) return -1;
    if (row_out->shape[0] != qs[0] || row_out->shape[1] != qs[1])
      return fail(uc, "%s: ragged %s has shape [%lld, %lld]; expected [%lld, %lld]", kKernelName, what,
                  (long long)row_out->shape[0], (long long)row_out->shape[1], (long long)qs[0], (long long)qs[1]), -1;
  }
  std::vector<int64_t> cu_q, cu_k;
  if (!read_boundaries(uc, args->cu_seqlens_q, "cu_seqlens_q", qs[0], cu_q) ||
      !read_boundaries(uc, args->cu_seqlens_k, "cu_seqlens_k", ks[0], cu_k))
    return -1;
  if (cu_q.size() != cu_k.size())
    return fail(uc, "%s: cu_seqlens_q has %zu entries and cu_seqlens_k %zu; both are sequences + 1", kKernelName,
                cu_q.size(), cu_k.size()), -1;
  for (size_t b = 0; b + 1 < cu_q.size(); ++b) {
    const int64_t q0 = cu_q[b], q_rows = cu_q[b + 1] - q0, k0 = cu_k[b], k_rows = cu_k[b + 1] - k0;
    if (q_rows == 0) continue;  // nothing to write
    SequenceView q, k, v, out, lse, row_max;
    attn_kernel_args one = *args;
    one.q = q.of(args->q, q0, q_rows), one.k = k.of(args->k, k0, k_rows), one.v = v.of(args->v, k0, k_rows);
    one.out = out.of(args->out, q0, q_rows);
    one.lse = lse.of(args->lse, q0, q_rows), one.max = row_max.of(args->max, q0, q_rows);
    one.kv_ranges = nullptr, one.kv_ranges_block_q = 0, one.kv_run_starts = nullptr, one.kv_runs = nullptr;
    one.cu_seqlens_q = one.cu_seqlens_k = nullptr;
    if (int status = attend(&one, int64_t(b))) return status;
  }
  return 0;
}

}  // namespace
