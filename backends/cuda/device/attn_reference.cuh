// ---- attnc device library: a naive forward in double precision, for checks on a GPU ---------
// Appended to a generated kernel's source by bench/gpu/kit_check.cpp (never by the printer): one
// warp per (b, h, q) row, lane l taking keys l, l + 32, ... (decode rows over 32k keys stay
// quick), the mask, score and sink functions of the same source, two passes. Launch 32 threads
// per row in blocks of a multiple of 32.
struct attn_ref_params {
  attn_cuda_params p;
  double* out;  // [B, Hq, Lq, Dv]
  double* lse;  // [B, Hq, Lq]
  double* max;  // [B, Hq, Lq]: the largest kept score (return_max)
};

extern "C" __global__ void attn_reference_fwd(const attn_ref_params r) {
  const attn_cuda_params& p = r.p;
  const long long row = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (row >= static_cast<long long>(p.batch) * p.q_heads * p.q_len) return;  // whole warps
  const int q = static_cast<int>(row % p.q_len), h = static_cast<int>((row / p.q_len) % p.q_heads);
  if (q < p.q_first) return;  // an absent row (before a paged sequence's first query)
  const int z = static_cast<int>(row / (static_cast<long long>(p.q_len) * p.q_heads));  // the entry
  const int b = z + p.batch_base;  // the mask's and score's b
  const int kvh = h / (p.q_heads / p.kv_heads);
  const attn_in* qr =
      static_cast<const attn_in*>(p.q) + z * p.q_stride[0] + h * p.q_stride[1] + q * p.q_stride[2];
  // An FP8 call's descale factors of (b, kv head): Q's times K's on the scores, V's on Out.
  double qk_descale = 1, v_descale = 1;
#if ATTN_FP8
  auto factor = [&](int t) {
    return p.descale[t] ? double(p.descale[t][b * p.descale_stride[t][0] + kvh * p.descale_stride[t][1]])
                        : 1.0;
  };
  qk_descale = factor(0) * factor(1), v_descale = factor(2);
#endif
  auto score_at = [&](int kv) -> double {
    if (!attn_mask(b, h, q, kv, p)) return -attn_dev::inf();
    const attn_in* kr =
        attn_dev::key_row(p, static_cast<const attn_in*>(p.k) + z * p.k_stride[0] + kvh * p.k_stride[1], kv,
                          p.k_stride[2], p.k_page_stride);
    double dot = 0;
    for (int d = 0; d < ATTN_D; ++d) dot += static_cast<double>(attn_dev::to_f32(qr[d])) * attn_dev::to_f32(kr[d]);
    return attn_score(static_cast<float>(dot * qk_descale * p.scale), b, h, q, kv, p);
  };
  double m = -attn_dev::inf();
  for (int kv = lane; kv < p.kv_len; kv += 32) m = fmax(m, score_at(kv));
  for (int o = 16; o > 0; o /= 2) m = fmax(m, __shfl_xor_sync(0xffffffffu, m, o));
  double acc[ATTN_DV];
  for (int c = 0; c < ATTN_DV; ++c) acc[c] = 0;
  double sum = 0;
  if (m != -attn_dev::inf()) {
    for (int kv = lane; kv < p.kv_len; kv += 32) {
      const double s = score_at(kv);
      if (s == -attn_dev::inf()) continue;
      const double w = exp(s - m);
      sum += w;
      const attn_in* vr =
          attn_dev::key_row(p, static_cast<const attn_in*>(p.v) + z * p.v_stride[0] + kvh * p.v_stride[1], kv,
                            p.v_stride[2], p.v_page_stride);
      for (int c = 0; c < ATTN_DV; ++c) acc[c] += w * attn_dev::to_f32(vr[c]);
    }
  }
  for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  for (int c = 0; c < ATTN_DV; ++c)
    for (int o = 16; o > 0; o /= 2) acc[c] += __shfl_xor_sync(0xffffffffu, acc[c], o);
  if (lane != 0) return;
  r.max[row] = m;
  // The sink: one more key of value 0 whose score is its logit t (-inf: none).
  const double t = attn_dev::sink_logit(p, b, h, q);
  if (t != -attn_dev::inf()) {
    const double top = fmax(m, t), keep = m == -attn_dev::inf() ? 0.0 : exp(m - top);
    for (int c = 0; c < ATTN_DV; ++c) acc[c] *= keep;
    sum = sum * keep + exp(t - top);
    m = top;
  }
  for (int c = 0; c < ATTN_DV; ++c) r.out[row * ATTN_DV + c] = sum > 0 ? acc[c] * v_descale / sum : 0.0;
  r.lse[row] = sum > 0 ? m + log(sum) : -attn_dev::inf();
}
