// A 32-layer attention stack over generated kernels: the loader compiles each distinct kernel once
// (and not at all when its disk cache is warm). Links only attn_runtime: no ANTLR, no Halide.
//
// usage: model KERNELS_DIR [--layers N] [--naive]
//   KERNELS_DIR: the output of `attnc compile samples/model/model.attn -t cpu -o KERNELS_DIR`
//   --naive:     no per-key de-duplication and no disk cache (one compile per layer)
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "attn/loader.hpp"
#include "samples/ManifestKernels.h"
#include "samples/SampleTensor.h"

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point kProcessStart = Clock::now();

constexpr int64_t kHeads = 4, kHeadDim = 32, kModel = kHeads * kHeadDim, kLength = 256;

using Tensor = samples::Tensor<float>;


// y[L, out] = x[L, in] * w[in, out]
void matmul(const std::vector<float>& x, const std::vector<float>& w, std::vector<float>& y, int64_t in,
            int64_t out) {
  for (int64_t i = 0; i < kLength; ++i)
    for (int64_t o = 0; o < out; ++o) {
      float s = 0;
      for (int64_t k = 0; k < in; ++k) s += x[i * in + k] * w[k * out + o];
      y[i * out + o] = s;
    }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: model KERNELS_DIR [--layers N] [--naive]\n";
    return 2;
  }
  std::string dir = argv[1];
  int layers = 32;
  bool naive = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--naive") == 0)
      naive = true;
    else if (std::strcmp(argv[i], "--layers") == 0 && i + 1 < argc)
      layers = std::atoi(argv[++i]);
  }
  try {
    nlohmann::json manifest = nlohmann::json::parse(samples::read_text(dir + "/manifest.json"));
    std::vector<attn::KernelRequest> kinds;
    std::vector<bool> has_slopes;
    for (const auto& k : manifest["kernels"]) {
      kinds.push_back(samples::request_for(k, dir));
      has_slopes.push_back(!k["args"].empty());
    }
    attn::LoaderOptions options;
    options.dedup = !naive;
    options.disk_cache = !naive;
    attn::Loader loader(options);

    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    auto random = [&](int64_t n, float scale) {
      std::vector<float> v(static_cast<size_t>(n));
      for (float& x : v) x = normal(rng) * scale;
      return v;
    };
    std::vector<float> x = random(kLength * kModel, 1.0f);
    Tensor slopes({kHeads});
    for (int64_t h = 0; h < kHeads; ++h) slopes.data[h] = -std::pow(2.0f, -8.0f * (h + 1) / kHeads);
    const DLTensor* buffers[] = {&slopes.dl};
    Tensor q({1, kHeads, kLength, kHeadDim}), k({1, kHeads, kLength, kHeadDim}),
        v({1, kHeads, kLength, kHeadDim});
    Tensor out({1, kHeads, kLength, kHeadDim});
    std::vector<float> proj(kLength * kModel), y(kLength * kModel);
    double first_output_ms = 0;

    for (int layer = 0; layer < layers; ++layer) {
      size_t kind = static_cast<size_t>(layer) % kinds.size();
      attn::Kernel kernel = loader.get(kinds[kind]);
      float scale = 1.0f / std::sqrt(static_cast<float>(kModel));
      // Q, K, V projections, laid out [1, H, L, D].
      for (Tensor* t : {&q, &k, &v}) {
        std::vector<float> w = random(kModel * kModel, scale);
        matmul(x, w, proj, kModel, kModel);
        for (int64_t i = 0; i < kLength; ++i)
          for (int64_t h = 0; h < kHeads; ++h)
            for (int64_t d = 0; d < kHeadDim; ++d)
              t->data[(h * kLength + i) * kHeadDim + d] = proj[i * kModel + h * kHeadDim + d];
      }
      char error[512] = "";
      attn_kernel_args args{};
      args.abi_version = ATTN_KERNEL_ABI_VERSION;
      args.q = &q.dl;
      args.k = &k.dl;
      args.v = &v.dl;
      args.out = &out.dl;
      args.buffers = has_slopes[kind] ? buffers : nullptr;
      args.num_buffers = has_slopes[kind] ? 1 : 0;
      args.error = error;
      args.error_size = sizeof error;
      if (kernel(args) != 0)
        throw std::runtime_error(std::string("layer ") + std::to_string(layer) + ": " + error);
      for (int64_t i = 0; i < kLength; ++i)
        for (int64_t h = 0; h < kHeads; ++h)
          for (int64_t d = 0; d < kHeadDim; ++d)
            proj[i * kModel + h * kHeadDim + d] = out.data[(h * kLength + i) * kHeadDim + d];
      std::vector<float> wo = random(kModel * kModel, scale);
      matmul(proj, wo, y, kModel, kModel);
      // Residual connection, then RMS normalization of each position.
      for (int64_t i = 0; i < kLength; ++i) {
        double ss = 0;
        for (int64_t c = 0; c < kModel; ++c)
          ss += double(x[i * kModel + c] + y[i * kModel + c]) * (x[i * kModel + c] + y[i * kModel + c]);
        float inv = 1.0f / std::sqrt(static_cast<float>(ss / kModel) + 1e-6f);
        for (int64_t c = 0; c < kModel; ++c)
          x[i * kModel + c] = (x[i * kModel + c] + y[i * kModel + c]) * inv;
      }
      if (layer == 0)
        first_output_ms = std::chrono::duration<double, std::milli>(Clock::now() - kProcessStart).count();
    }
    double total_ms = std::chrono::duration<double, std::milli>(Clock::now() - kProcessStart).count();
    double sum = 0;
    for (float f : x) sum += std::fabs(f);
    attn::LoaderStats s = loader.stats();
    std::cout << "layers:               " << layers << "\n"
              << "distinct kernels:     " << kinds.size() << "\n"
              << "compiles performed:   " << s.compiles << "\n"
              << "cache hits:           " << s.memory_hits << " in memory, " << s.disk_hits << " on disk\n"
              << "time to first output: " << first_output_ms << " ms\n"
              << "total time:           " << total_ms << " ms\n"
              << "output mean |x|:      " << sum / static_cast<double>(x.size()) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "model: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
