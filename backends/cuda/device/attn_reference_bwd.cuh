// ---- attnc device library: a naive backward in double precision, for checks on a GPU --------
// Appended to a generated backward's source by bench/gpu/kit_check.cpp (never by the printer): the
// mask, score, sink and derivatives of the same source (attn_score_grad, attn_site_partial,
// attn_site_offset, attn_sink_site_*), one thread per query row, then one per key. No dLSE: the gradients of
// sum(dOut * Out). Launch attn_reference_bwd_rows first (it writes delta), then _keys. Entry b of
// the tensors is the mask's and score's b + p.batch_base (a ragged batch's sequence).
struct attn_ref_bwd_params {
  attn_cuda_params p;     // q, k, v, buffers, scalars, lengths and strides (p.out, p.lse unused)
  const attn_elem* dout;  // [B, Hq, Lq, Dv], contiguous
  const double* lse;      // [B, Hq, Lq]: the f64 forward's (-inf: a row that reached no key)
  double* delta;          // [B, Hq, Lq], written by _rows: rowsum(P * dP)
  double* dq;             // [B, Hq, Lq, D]
  double* dk;             // [B, Hkv, Lkv, D]
  double* dv;             // [B, Hkv, Lkv, Dv]
  double* grad;           // buffer gradients end to end (zeroed), or 0
  long long site_base[ATTN_CUDA_MAX_SITES];  // where read site s's buffer starts in grad, -1: none
};

namespace attn_ref {

__device__ const attn_elem* q_row(const attn_cuda_params& p, int b, int h, int q) {
  return static_cast<const attn_elem*>(p.q) + b * p.q_stride[0] + h * p.q_stride[1] + q * p.q_stride[2];
}
__device__ const attn_elem* k_row(const attn_cuda_params& p, int b, int h, int kv) {
  return static_cast<const attn_elem*>(p.k) + b * p.k_stride[0] + h * p.k_stride[1] + kv * p.k_stride[2];
}
__device__ const attn_elem* v_row(const attn_cuda_params& p, int b, int h, int kv) {
  return static_cast<const attn_elem*>(p.v) + b * p.v_stride[0] + h * p.v_stride[1] + kv * p.v_stride[2];
}

/// The raw score scale * q.k (as the kernels round it, to float) of an allowed pair.
__device__ float raw_score(const attn_cuda_params& p, const attn_elem* qr, const attn_elem* kr) {
  double dot = 0;
  for (int d = 0; d < ATTN_D; ++d) dot += static_cast<double>(attn_dev::to_f32(qr[d])) * attn_dev::to_f32(kr[d]);
  return static_cast<float>(dot * p.scale);
}

/// P and dP of (q, kv) for row `row` (false: masked out, both 0).
__device__ bool probability(const attn_ref_bwd_params& r, int b, int h, int q, int kv, double lse,
                            float& raw, double& prob, double& dprob) {
  const attn_cuda_params& p = r.p;
  prob = dprob = 0;
  if (lse == -attn_dev::inf() || !attn_mask(b + p.batch_base, h, q, kv, p)) return false;
  const int kvh = h / (p.q_heads / p.kv_heads);
  raw = raw_score(p, q_row(p, b, h, q), k_row(p, b, kvh, kv));
  prob = exp(static_cast<double>(attn_score(raw, b + p.batch_base, h, q, kv, p)) - lse);
  const attn_elem* dor = r.dout + ((static_cast<long long>(b) * p.q_heads + h) * p.q_len + q) * ATTN_DV;
  const attn_elem* vr = v_row(p, b, kvh, kv);
  for (int c = 0; c < ATTN_DV; ++c) dprob += static_cast<double>(attn_dev::to_f32(dor[c])) * attn_dev::to_f32(vr[c]);
  return true;
}

}  // namespace attn_ref

/// One thread per (b, h, q): delta, dQ and the buffer gradients of the score and the sink (f64
/// atomics).
extern "C" __global__ void attn_reference_bwd_rows(const attn_ref_bwd_params r) {
  const attn_cuda_params& p = r.p;
  const long long row = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (row >= static_cast<long long>(p.batch) * p.q_heads * p.q_len) return;
  const int q = static_cast<int>(row % p.q_len), h = static_cast<int>((row / p.q_len) % p.q_heads);
  const int b = static_cast<int>(row / (static_cast<long long>(p.q_len) * p.q_heads));
  const int kvh = h / (p.q_heads / p.kv_heads);
  const double lse = r.lse[row];
  double delta = 0;
  for (int kv = 0; kv < p.kv_len; ++kv) {
    float raw;
    double prob, dprob;
    if (attn_ref::probability(r, b, h, q, kv, lse, raw, prob, dprob)) delta += prob * dprob;
  }
  r.delta[row] = delta;
  double dq[ATTN_D];
  for (int d = 0; d < ATTN_D; ++d) dq[d] = 0;
  for (int kv = 0; kv < p.kv_len; ++kv) {
    float raw;
    double prob, dprob;
    if (!attn_ref::probability(r, b, h, q, kv, lse, raw, prob, dprob)) continue;
    const double ds = prob * (dprob - delta);  // d loss / d score'
    const double draw = ds * attn_score_grad(raw, b + p.batch_base, h, q, kv, p) * p.scale;
    const attn_elem* kr = attn_ref::k_row(p, b, kvh, kv);
    for (int d = 0; d < ATTN_D; ++d) dq[d] += draw * attn_dev::to_f32(kr[d]);
    if (r.grad)
      for (int s = 0; s < ATTN_BWD_SITES && s < ATTN_CUDA_MAX_SITES; ++s) {
        if (r.site_base[s] < 0) continue;
        const long long at = attn_site_offset(s, b + p.batch_base, h, q, kv, p);
        if (at >= 0)
          atomicAdd(&r.grad[r.site_base[s] + at],
                    ds * attn_site_partial(s, raw, b + p.batch_base, h, q, kv, p));
      }
  }
  for (int d = 0; d < ATTN_D; ++d) r.dq[row * ATTN_D + d] = dq[d];
#if ATTN_BWD_SINK_SITES > 0
  // The sink (one more key of value 0): d loss / d t = -exp(t - LSE) delta.
  const double t = attn_dev::sink_logit(p, b + p.batch_base, h, q);
  if (r.grad && t != -attn_dev::inf())
    for (int s = 0; s < ATTN_BWD_SINK_SITES && ATTN_BWD_SITES + s < ATTN_CUDA_MAX_SITES; ++s) {
      const long long base = r.site_base[ATTN_BWD_SITES + s];
      const long long at = base >= 0 ? attn_sink_site_offset(s, b + p.batch_base, h, q, p) : -1;
      if (at >= 0)
        atomicAdd(&r.grad[base + at],
                  -exp(t - lse) * delta * attn_sink_site_partial(s, b + p.batch_base, h, q, p));
    }
#endif
}

/// One thread per (b, kv head, kv): dK and dV over the group's query heads and every query.
extern "C" __global__ void attn_reference_bwd_keys(const attn_ref_bwd_params r) {
  const attn_cuda_params& p = r.p;
  const long long key = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (key >= static_cast<long long>(p.batch) * p.kv_heads * p.kv_len) return;
  const int kv = static_cast<int>(key % p.kv_len), kvh = static_cast<int>((key / p.kv_len) % p.kv_heads);
  const int b = static_cast<int>(key / (static_cast<long long>(p.kv_len) * p.kv_heads));
  const int group = p.q_heads / p.kv_heads;
  double dk[ATTN_D], dv[ATTN_DV];
  for (int d = 0; d < ATTN_D; ++d) dk[d] = 0;
  for (int c = 0; c < ATTN_DV; ++c) dv[c] = 0;
  for (int h = kvh * group; h < (kvh + 1) * group; ++h)
    for (int q = 0; q < p.q_len; ++q) {
      const long long row = (static_cast<long long>(b) * p.q_heads + h) * p.q_len + q;
      float raw;
      double prob, dprob;
      if (!attn_ref::probability(r, b, h, q, kv, r.lse[row], raw, prob, dprob)) continue;
      const double draw =
          prob * (dprob - r.delta[row]) * attn_score_grad(raw, b + p.batch_base, h, q, kv, p) * p.scale;
      const attn_elem* qr = attn_ref::q_row(p, b, h, q);
      const attn_elem* dor = r.dout + row * ATTN_DV;
      for (int d = 0; d < ATTN_D; ++d) dk[d] += draw * attn_dev::to_f32(qr[d]);
      for (int c = 0; c < ATTN_DV; ++c) dv[c] += prob * attn_dev::to_f32(dor[c]);
    }
  for (int d = 0; d < ATTN_D; ++d) r.dk[key * ATTN_D + d] = dk[d];
  for (int c = 0; c < ATTN_DV; ++c) r.dv[key * ATTN_DV + c] = dv[c];
}
