// A host program over a module `attnc compile -t vulkan` wrote (sliding.spv.h, generated at build
// time as a project would check it in): attn::Loader builds its pipeline (and keeps the driver's
// pipeline cache on disk) and runs it on host tensors; the result is checked against a naive loop.
// Links only attn_runtime: no ANTLR, no Halide, no SPIR-V Tools.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "attn/loader.hpp"
#include "attn/vulkan.hpp"
#include "sliding.spv.h"

namespace {

constexpr int64_t kHeads = 2, kLength = 100, kDim = ATTN_SLIDING_HEAD_DIM;

DLTensor view(std::vector<float>& data, std::vector<int64_t>& shape) {
  DLTensor t{};
  t.data = data.data();
  t.device = {kDLCPU, 0};
  t.ndim = static_cast<int>(shape.size());
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape.data();
  return t;
}

// Out and LSE of one query row, the mask of sliding.attn written out.
void naive_row(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
               int64_t h, int64_t i, float* out, float* lse) {
  const float* qi = &q[(h * kLength + i) * kDim];
  std::vector<double> s;
  double top = -INFINITY;
  for (int64_t j = 0; j <= i && j < kLength; ++j) {
    double dot = 0;
    for (int64_t d = 0; d < kDim; ++d) dot += qi[d] * k[(h * kLength + j) * kDim + d];
    s.push_back(i - j < 32 ? dot / std::sqrt(double(kDim)) : -INFINITY);
    top = std::max(top, s.back());
  }
  double sum = 0;
  for (double& x : s) sum += (x = std::exp(x - top));
  for (int64_t d = 0; d < kDim; ++d) {
    double acc = 0;
    for (size_t j = 0; j < s.size(); ++j) acc += s[j] * v[(h * kLength + int64_t(j)) * kDim + d];
    out[d] = static_cast<float>(acc / sum);
  }
  *lse = static_cast<float>(top + std::log(sum));
}

}  // namespace

int main() {
  attn::Loader loader;
  loader.add_compiler(attn::make_vulkan_compiler());
  attn::Kernel kernel;
  try {
    kernel = loader.get(
        attn::vulkan_kernel_request(ATTN_SLIDING_LAYOUT, attn_sliding_spirv, attn_sliding_spirv_words));
  } catch (const attn::LoadError& e) {
    std::fprintf(stderr, "vulkan_host: %s\n", e.what());
    return 1;
  }

  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  const size_t n = size_t(kHeads * kLength * kDim);
  std::vector<float> q(n), k(n), v(n), out(n), lse(size_t(kHeads * kLength));
  for (std::vector<float>* t : {&q, &k, &v})
    for (float& x : *t) x = normal(rng);
  std::vector<int64_t> shape = {1, kHeads, kLength, kDim}, lse_shape = {1, kHeads, kLength};
  DLTensor tq = view(q, shape), tk = view(k, shape), tv = view(v, shape), tout = view(out, shape),
           tlse = view(lse, lse_shape);
  char error[512] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &tq;
  args.k = &tk;
  args.v = &tv;
  args.out = &tout;
  args.lse = &tlse;
  args.error = error;
  args.error_size = sizeof error;
  if (int status = kernel(args)) {
    std::fprintf(stderr, "vulkan_host: the kernel failed (status %d): %s\n", status, error);
    return 1;
  }

  double worst = 0;
  std::vector<float> row(static_cast<size_t>(kDim));
  for (int64_t h = 0; h < kHeads; ++h)
    for (int64_t i = 0; i < kLength; ++i) {
      float want_lse = 0;
      naive_row(q, k, v, h, i, row.data(), &want_lse);
      for (int64_t d = 0; d < kDim; ++d)
        worst =
            std::max(worst, double(std::fabs(row[size_t(d)] - out[size_t((h * kLength + i) * kDim + d)])));
      worst = std::max(worst, double(std::fabs(want_lse - lse[size_t(h * kLength + i)])));
    }
  std::printf("sliding on Vulkan: largest difference from the naive loop %.2g\n", worst);
  return worst <= 1e-4 ? 0 : 1;
}
