// An independent attention for tests: plain loops over HostTensors with C++ lambdas for the mask
// and the score, written without any of attnc's IR or evaluator.
#pragma once

#include <cmath>
#include <functional>
#include <random>

#include "runtime/HostTensor.h"

namespace attn::test {

using MaskFn = std::function<bool(int b, int h, int q, int kv)>;
using ScoreFn = std::function<double(double s, int b, int h, int q, int kv)>;

struct NaiveResult {
  std::vector<double> out;  ///< [B, Hq, Lq, Dv]
  std::vector<double> lse;  ///< [B, Hq, Lq]
};

inline NaiveResult naive_attention(const HostTensor& q, const HostTensor& k, const HostTensor& v,
                                   const MaskFn& mask, const ScoreFn& score, double scale) {
  int B = static_cast<int>(q.shape[0]), Hq = static_cast<int>(q.shape[1]), Lq = static_cast<int>(q.shape[2]);
  int D = static_cast<int>(q.shape[3]), Hkv = static_cast<int>(k.shape[1]),
      Lkv = static_cast<int>(k.shape[2]);
  int Dv = static_cast<int>(v.shape[3]);
  NaiveResult r;
  r.out.assign(static_cast<size_t>(B) * Hq * Lq * Dv, 0.0);
  r.lse.assign(static_cast<size_t>(B) * Hq * Lq, -INFINITY);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < Hq; ++h) {
      int hk = h / (Hq / Hkv);
      for (int i = 0; i < Lq; ++i) {
        std::vector<double> s(static_cast<size_t>(Lkv), -INFINITY);
        double m = -INFINITY;
        for (int j = 0; j < Lkv; ++j) {
          if (!mask(b, h, i, j)) continue;
          double dot = 0;
          for (int d = 0; d < D; ++d)
            dot += q.get(((int64_t(b) * Hq + h) * Lq + i) * D + d) *
                   k.get(((int64_t(b) * Hkv + hk) * Lkv + j) * D + d);
          s[j] = score(scale * dot, b, h, i, j);
          m = std::max(m, s[j]);
        }
        if (m == -INFINITY) continue;
        double sum = 0;
        size_t o = ((size_t(b) * Hq + h) * Lq + i);
        for (int j = 0; j < Lkv; ++j) {
          if (s[j] == -INFINITY) continue;
          double w = std::exp(s[j] - m);
          sum += w;
          for (int d = 0; d < Dv; ++d)
            r.out[o * Dv + d] += w * v.get(((int64_t(b) * Hkv + hk) * Lkv + j) * Dv + d);
        }
        for (int d = 0; d < Dv; ++d) r.out[o * Dv + d] /= sum;
        r.lse[o] = m + std::log(sum);
      }
    }
  return r;
}

/// A tensor of normally distributed values (rounded to `type`).
inline HostTensor random_tensor(ScalarType type, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor t(type, std::move(shape));
  std::normal_distribution<double> n(0.0, 1.0);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, n(rng));
  return t;
}

}  // namespace attn::test
