namespace {

/// A ragged batch (attn_kernel_args version 5, attn_backward_args version 2) as a dense one per
/// sequence: sequence b is rows [cu[b], cu[b + 1]) of the packed Q [Tq, Hq, D], K, V
/// [Tk, Hkv, D|Dv], Out [Tq, Hq, Dv] and LSE, max [Tq, Hq] (the backward's dOut, dQ, dK, dV and
/// dLSE likewise), and the dense entry runs on its [1, H, L, C] views with `b` set to b. No copy
/// is made: a view is the packed tensor's memory with the sequence's offset and strides.
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

/// The keys' boundaries `t` (cu_seqlens_k) against `total` packed key rows, as many as the queries'
/// `cu_q`, into `cu_k`. False, with the message written, if not.
bool read_key_boundaries(void* uc, const DLTensor* t, int64_t total, const std::vector<int64_t>& cu_q,
                         std::vector<int64_t>& cu_k) {
  if (!read_boundaries(uc, t, "cu_seqlens_k", total, cu_k)) return false;
  if (cu_q.size() == cu_k.size()) return true;
  return fail(uc, "%s: cu_seqlens_q has %zu entries and cu_seqlens_k %zu; both are sequences + 1", kKernelName,
              cu_q.size(), cu_k.size()), false;
}

}  // namespace
