namespace {

/// Where a call's rows sit in the kernel's coordinates (attend): a dense batch's where they are; one
/// sequence of a ragged batch or paged cache is a batch of one whose `b` is the sequence's index,
/// whose queries may start at a later position (a paged sequence's are its last tokens), and whose
/// keys may lie in pages.
struct CallPlace {
  int64_t b0 = 0;  // `b` of the first batch entry
  int64_t q0 = 0;  // `q` of the first query row
  KeyPages pages;  // where the keys lie
};

/// A ragged or paged call's packed query side: q [Tq, Hq, D], out [Tq, Hq, Dv], lse and max
/// [Tq, Hq], and the query boundaries into `cu_q`. False, with the message written, if not.
bool check_packed_queries(void* uc, const attn_kernel_args* args, int64_t Dv, std::vector<int64_t>& cu_q) {
  if (!check_tensor(uc, args->q, "q", 3, false) || !check_tensor(uc, args->out, "out", 3, false)) return false;
  const int64_t* qs = args->q->shape;
  const int64_t* os = args->out->shape;
  if (os[0] != qs[0] || os[1] != qs[1] || os[2] != Dv)
    return fail(uc, "%s: ragged out has shape [%lld, %lld, %lld]; expected [%lld, %lld, %lld]", kKernelName,
                (long long)os[0], (long long)os[1], (long long)os[2], (long long)qs[0], (long long)qs[1],
                (long long)Dv), false;
  DLTensor* row_outs[2] = {args->lse, args->max};
  for (DLTensor* row_out : row_outs) {
    if (!row_out) continue;
    const char* what = row_out == args->lse ? "lse" : "max";
    if (!check_tensor(uc, row_out, what, 2, true)) return false;
    if (row_out->shape[0] != qs[0] || row_out->shape[1] != qs[1])
      return fail(uc, "%s: ragged %s has shape [%lld, %lld]; expected [%lld, %lld]", kKernelName, what,
                  (long long)row_out->shape[0], (long long)row_out->shape[1], (long long)qs[0], (long long)qs[1]), false;
  }
  return read_boundaries(uc, args->cu_seqlens_q, "cu_seqlens_q", qs[0], cu_q);
}

/// Checks a ragged call's tensors and runs `attend(args, place)` on each sequence's views, in order.
template <class Attend>
int attend_ragged(void* uc, const attn_kernel_args* args, const Attend& attend) {
  if (!check_tensor(uc, args->k, "k", 3, false) || !check_tensor(uc, args->v, "v", 3, false)) return -1;
  const int64_t* ks = args->k->shape;
  const int64_t* vs = args->v->shape;
  if (args->q && args->q->ndim == 3 && (ks[2] != args->q->shape[2] || vs[0] != ks[0] || vs[1] != ks[1]))
    return fail(uc, "%s: ragged k [%lld, %lld, %lld] and v [%lld, %lld, %lld] do not match q [Tq, Hq, %lld]", kKernelName,
                (long long)ks[0], (long long)ks[1], (long long)ks[2], (long long)vs[0], (long long)vs[1],
                (long long)vs[2], (long long)args->q->shape[2]), -1;
  std::vector<int64_t> cu_q, cu_k;
  if (!check_packed_queries(uc, args, vs[2], cu_q) || !read_key_boundaries(uc, args->cu_seqlens_k, ks[0], cu_q, cu_k))
    return -1;
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
    CallPlace at;
    at.b0 = int64_t(b);
    if (int status = attend(&one, at)) return status;
  }
  return 0;
}

/// The i32 tensor `t` (`name`: kv_lens [N] or page_table [N, M], `ndim` dimensions, `rows` = N) in
/// CPU memory, row-major into `out`. False, with the message written, if it is not that.
bool read_i32_table(void* uc, const DLTensor* t, const char* name, int ndim, int64_t rows, std::vector<int32_t>& out) {
  if (!t) return fail(uc, "%s: a paged call needs both page_table and kv_lens; %s is NULL", kKernelName, name), false;
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return fail(uc, "%s: %s is not in CPU memory", kKernelName, name), false;
  if (t->dtype.code != kDLInt || t->dtype.bits != 32 || t->dtype.lanes != 1)
    return fail(uc, "%s: %s has element type %s, expected i32", kKernelName, name, dtype_text(t->dtype).text), false;
  if (t->ndim != ndim || t->shape[0] != rows || (ndim == 2 && t->shape[1] < 0))
    return fail(uc, "%s: %s must be %s with one row per sequence (%lld)", kKernelName, name,
                ndim == 1 ? "1-D [N]" : "2-D [N, max_pages]", (long long)rows), false;
  const int64_t cols = ndim == 2 ? t->shape[1] : 1;
  if (!t->data && rows * cols > 0) return fail(uc, "%s: %s has no data", kKernelName, name), false;
  out.resize(size_t(rows * cols));
  const char* base = base_of(t);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      memcpy(&out[size_t(r * cols + c)], base + 4 * (r * stride_of(t, 0) + (ndim == 2 ? c * stride_of(t, 1) : 0)), 4);
  return true;
}

/// A paged call (ABI version 6): the packed queries as a ragged batch's, K/V [P, page_size, Hkv, D|Dv]
/// read through page_table [N, max_pages] for kv_lens [N] keys. Checks every page a sequence uses,
/// then runs `attend` on each sequence's views: its queries at positions kv_len - q_len on, its
/// keys a [1, Hkv, kv_len, D] view whose batch stride is the page stride (KeyPages).
template <class Attend>
int attend_paged(void* uc, const attn_kernel_args* args, const Attend& attend) {
  if (args->cu_seqlens_k)
    return fail(uc, "%s: a paged call takes its key lengths from kv_lens; cu_seqlens_k must be NULL", kKernelName), -1;
  if (!check_tensor(uc, args->k, "k", 4, false) || !check_tensor(uc, args->v, "v", 4, false)) return -1;
  const int64_t* ks = args->k->shape;
  const int64_t* vs = args->v->shape;
  const int64_t pages = ks[0], page_size = ks[1];
  if (vs[0] != pages || vs[1] != page_size || vs[2] != ks[2] || (args->q && args->q->ndim == 3 && ks[3] != args->q->shape[2]))
    return fail(uc, "%s: paged k [%lld, %lld, %lld, %lld] and v [%lld, %lld, %lld, %lld] must be [pages, page_size, Hkv, "
                "D|Dv], the same pages, with q's D", kKernelName, (long long)ks[0], (long long)ks[1], (long long)ks[2],
                (long long)ks[3], (long long)vs[0], (long long)vs[1], (long long)vs[2], (long long)vs[3]), -1;
  if (page_size < 1) return fail(uc, "%s: the pages hold no keys (page_size 0)", kKernelName), -1;
  std::vector<int64_t> cu_q;
  if (!check_packed_queries(uc, args, vs[3], cu_q)) return -1;
  const int64_t n = int64_t(cu_q.size()) - 1;
  std::vector<int32_t> kv_lens, table;
  if (!read_i32_table(uc, args->kv_lens, "kv_lens", 1, n, kv_lens) ||
      !read_i32_table(uc, args->page_table, "page_table", 2, n, table))
    return -1;
  const int64_t max_pages = args->page_table->shape[1];
  for (int64_t b = 0; b < n; ++b) {
    const int64_t kv_len = kv_lens[size_t(b)], q_len = cu_q[size_t(b + 1)] - cu_q[size_t(b)];
    if (kv_len < 0 || kv_len > max_pages * page_size)
      return fail(uc, "%s: sequence %lld has %lld keys, but its %lld pages of %lld hold %lld", kKernelName, (long long)b,
                  (long long)kv_len, (long long)max_pages, (long long)page_size, (long long)(max_pages * page_size)), -1;
    if (q_len > kv_len)
      return fail(uc, "%s: sequence %lld has %lld queries but %lld keys; a paged sequence's queries are its last "
                  "tokens, already in the cache", kKernelName, (long long)b, (long long)q_len, (long long)kv_len), -1;
    for (int64_t p = 0; p < (kv_len + page_size - 1) / page_size; ++p) {
      const int32_t page = table[size_t(b * max_pages + p)];
      if (page < 0 || page >= pages)
        return fail(uc, "%s: page_table[%lld][%lld] is %d, outside the cache's %lld pages", kKernelName, (long long)b,
                    (long long)p, int(page), (long long)pages), -1;
    }
  }
  for (int64_t b = 0; b < n; ++b) {
    const int64_t first = cu_q[size_t(b)], q_rows = cu_q[size_t(b + 1)] - first, kv_len = kv_lens[size_t(b)];
    if (q_rows == 0) continue;  // nothing to write
    // K and V as [1, Hkv, kv_len, C] views of the pages: rows within a page, heads, the page stride.
    DLTensor kv_views[2];
    int64_t shapes[2][4], strides[2][4];
    const DLTensor* sources[2] = {args->k, args->v};
    for (int i = 0; i < 2; ++i) {
      const DLTensor* t = sources[i];
      kv_views[i] = *t;
      shapes[i][0] = 1, shapes[i][1] = t->shape[2], shapes[i][2] = kv_len, shapes[i][3] = t->shape[3];
      strides[i][0] = stride_of(t, 0), strides[i][1] = stride_of(t, 2), strides[i][2] = stride_of(t, 1);
      strides[i][3] = stride_of(t, 3);
      kv_views[i].shape = shapes[i], kv_views[i].strides = strides[i];
    }
    SequenceView q, out, lse, row_max;
    attn_kernel_args one = *args;
    one.q = q.of(args->q, first, q_rows), one.out = out.of(args->out, first, q_rows);
    one.lse = lse.of(args->lse, first, q_rows), one.max = row_max.of(args->max, first, q_rows);
    one.k = &kv_views[0], one.v = &kv_views[1];
    one.kv_ranges = nullptr, one.kv_ranges_block_q = 0, one.kv_run_starts = nullptr, one.kv_runs = nullptr;
    one.cu_seqlens_q = one.cu_seqlens_k = nullptr, one.page_table = one.kv_lens = nullptr;
    CallPlace at;
    at.b0 = b, at.q0 = kv_len - q_rows;
    at.pages.table = table.data() + b * max_pages, at.pages.page_size = page_size;
    if (int status = attend(&one, at)) return status;
  }
  return 0;
}

}  // namespace
