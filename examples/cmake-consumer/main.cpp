// Runs the generated kernel window16 on random inputs and checks it against a naive loop; also
// creates a loader to show that the runtime library links with its dependencies.
#include <attn/loader.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "window16.h"

namespace {

constexpr int64_t kB = 1, kH = 2, kL = 100, kD = 32, kWindow = 16;

DLTensor view(std::vector<float>& data, std::vector<int64_t>& shape) {
  DLTensor t{};
  t.data = data.data();
  t.device = {kDLCPU, 0};
  t.ndim = static_cast<int>(shape.size());
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape.data();
  return t;
}

// softmax(q k^T / sqrt(D)) v over the keys q - 16 < kv <= q.
std::vector<float> naive(const std::vector<float>& q, const std::vector<float>& k,
                         const std::vector<float>& v) {
  std::vector<float> out(q.size());
  for (int64_t h = 0; h < kB * kH; ++h)
    for (int64_t i = 0; i < kL; ++i) {
      const float* qi = &q[(h * kL + i) * kD];
      std::vector<double> w;
      double top = -INFINITY;
      for (int64_t j = 0; j < kL; ++j) {
        if (j > i || i - j >= kWindow) continue;
        double s = 0;
        for (int64_t d = 0; d < kD; ++d) s += qi[d] * k[(h * kL + j) * kD + d];
        w.push_back(s / std::sqrt(double(kD)));
        top = std::max(top, w.back());
      }
      double sum = 0;
      for (double& x : w) sum += (x = std::exp(x - top));
      for (int64_t d = 0; d < kD; ++d) {
        double acc = 0;
        for (size_t n = 0; n < w.size(); ++n)
          acc += w[n] * v[(h * kL + i - int64_t(w.size()) + 1 + n) * kD + d];
        out[(h * kL + i) * kD + d] = float(acc / sum);
      }
    }
  return out;
}

}  // namespace

int main() {
  attn_loader_options options{};
  options.no_disk_cache = 1;
  attn_loader* loader = attn_loader_create(&options);
  attn_loader_stats stats{};
  attn_loader_stats_get(loader, &stats);
  attn_loader_destroy(loader);
  if (stats.compiles != 0) return 1;

  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  std::vector<float> q(kB * kH * kL * kD), k(q.size()), v(q.size()), out(q.size());
  for (auto* t : {&q, &k, &v})
    for (float& x : *t) x = normal(rng);
  std::vector<int64_t> shape{kB, kH, kL, kD};
  DLTensor tq = view(q, shape), tk = view(k, shape), tv = view(v, shape), tout = view(out, shape);
  char error[512] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &tq;
  args.k = &tk;
  args.v = &tv;
  args.out = &tout;
  args.error = error;
  args.error_size = sizeof error;
  if (attn_window16(&args) != 0) {
    std::fprintf(stderr, "window16: %s\n", error);
    return 1;
  }
  std::vector<float> want = naive(q, k, v);
  double worst = 0;
  for (size_t i = 0; i < out.size(); ++i) worst = std::max(worst, double(std::fabs(out[i] - want[i])));
  std::printf("window16: max |kernel - naive| = %.3g\n", worst);
  return worst < 1e-4 ? 0 : 1;
}
