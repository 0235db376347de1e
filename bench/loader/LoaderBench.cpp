// The loader benchmark program: a 32-layer attention stack loaded through attn::Loader (see run.sh).
//   loader_bench model [--naive] [--parallel] [--layers N]   one cold or warm start, timed
//   loader_bench lookup                                       per-lookup overhead (warm cache)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "BenchKernels.h"
#include "attn/loader.hpp"

namespace {

using namespace attn;
using namespace attn::bench;
using Clock = std::chrono::steady_clock;

const Clock::time_point kMainStart = Clock::now();

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Gemma-like: local and global layers alternate, every fourth layer has an ALiBi bias.
LayerKind layer_kind(int layer) {
  if (layer % 4 == 3) return LayerKind::Alibi;
  return layer % 2 ? LayerKind::Causal : LayerKind::SlidingWindow;
}

struct Tensor {
  std::vector<float> data;
  std::vector<int64_t> shape;
  DLTensor dl() {
    DLTensor t{};
    t.data = data.data();
    t.ndim = static_cast<int>(shape.size());
    t.shape = shape.data();
    t.dtype = DLDataType{kDLFloat, 32, 1};
    t.device = DLDevice{kDLCPU, 0};
    return t;
  }
};

// Runs the stack once: x <- (x + attention_layer(x)) / 2; returns a checksum of the output.
double forward(const std::vector<Kernel>& layers, const std::vector<float>& slopes_data, int L) {
  const int H = 4, D = 32;
  std::mt19937 rng(42);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Tensor x{std::vector<float>(static_cast<size_t>(H) * L * D), {1, H, L, D}};
  for (float& v : x.data) v = normal(rng);
  Tensor out{x.data, x.shape}, slopes{slopes_data, {H}};
  DLTensor slopes_dl = slopes.dl();
  const DLTensor* buffers[1] = {&slopes_dl};
  char error[512] = {};
  for (const Kernel& k : layers) {
    DLTensor xd = x.dl(), od = out.dl();
    attn_kernel_args a{};
    a.abi_version = ATTN_KERNEL_ABI_VERSION;
    a.q = a.k = a.v = &xd;
    a.out = &od;
    a.buffers = buffers;
    a.num_buffers = 1;
    a.error = error;
    a.error_size = sizeof error;
    if (k(a) != 0) {
      std::fprintf(stderr, "kernel failed: %s\n", error);
      std::exit(1);
    }
    for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = 0.5f * (x.data[i] + out.data[i]);
  }
  double sum = 0;
  for (float v : x.data) sum += v;
  return sum;
}

int run_model(int argc, char** argv) {
  LoaderOptions options;
  int layers = 32;
  bool parallel = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--naive"))
      options.dedup = options.disk_cache = false;
    else if (!std::strcmp(argv[i], "--parallel"))
      parallel = true;
    else if (!std::strcmp(argv[i], "--layers") && i + 1 < argc)
      layers = std::atoi(argv[++i]);
  }
  Loader loader(options);
  std::vector<KernelRequest> requests;
  for (LayerKind k : {LayerKind::SlidingWindow, LayerKind::Causal, LayerKind::Alibi})
    requests.push_back(attention_request(k));

  Clock::time_point t0 = Clock::now();
  std::vector<Kernel> stack(layers);
  if (parallel) {
    std::vector<std::thread> threads;
    for (int i = 0; i < layers; ++i)
      threads.emplace_back([&, i] { stack[i] = loader.get(requests[static_cast<int>(layer_kind(i))]); });
    for (std::thread& t : threads) t.join();
  } else {
    for (int i = 0; i < layers; ++i) stack[i] = loader.get(requests[static_cast<int>(layer_kind(i))]);
  }
  double load_ms = ms_since(t0);
  std::vector<float> slopes = {0.5f, 0.25f, 0.125f, 0.0625f};
  double checksum = forward(stack, slopes, 128);
  double first_output_ms = ms_since(kMainStart);
  LoaderStats s = loader.stats();
  std::printf(
      "layers=%d distinct_kernels=%zu compiles=%llu memory_hits=%llu disk_hits=%llu "
      "load_ms=%.1f first_output_ms=%.1f checksum=%.6g\n",
      layers, requests.size(), (unsigned long long)s.compiles, (unsigned long long)s.memory_hits,
      (unsigned long long)s.disk_hits, load_ms, first_output_ms, checksum);
  return 0;
}

int run_lookup() {
  std::vector<KernelRequest> requests;
  for (LayerKind k : {LayerKind::SlidingWindow, LayerKind::Causal, LayerKind::Alibi})
    requests.push_back(attention_request(k));
  Loader loader;
  // The first key of a process runs `c++ --version` once (compiler identity).
  Clock::time_point t0 = Clock::now();
  loader.key_of(requests[0]);
  double first_key_ms = ms_since(t0);

  double disk_ms_max = 0, disk_ms_sum = 0;
  for (const KernelRequest& r : requests) {
    t0 = Clock::now();
    loader.get(r);
    double ms = ms_since(t0);
    disk_ms_sum += ms;
    disk_ms_max = std::max(disk_ms_max, ms);
  }
  if (loader.stats().disk_hits != requests.size()) {
    std::fprintf(stderr, "lookup needs a warm cache (run `model` first)\n");
    return 1;
  }
  const int n = 20000;
  t0 = Clock::now();
  for (int i = 0; i < n; ++i) loader.get(requests[i % 3]);
  double hit_us = ms_since(t0) * 1000.0 / n;

  // Hashing scales with the source: a generated kernel is ~300 KB.
  KernelRequest big = requests[0];
  while (big.source.size() < 300 * 1024) big.source += requests[1].source;
  t0 = Clock::now();
  for (int i = 0; i < 200; ++i) loader.key_of(big);
  double key_300k_us = ms_since(t0) * 1000.0 / 200;

  std::printf(
      "first_key_ms=%.2f disk_load_ms_avg=%.2f disk_load_ms_max=%.2f memory_hit_us=%.2f "
      "source_bytes=%zu key_300k_us=%.1f\n",
      first_key_ms, disk_ms_sum / requests.size(), disk_ms_max, hit_us, requests[0].source.size(),
      key_300k_us);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "model") return run_model(argc, argv);
    if (mode == "lookup") return run_lookup();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loader_bench: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: loader_bench model [--naive] [--parallel] [--layers N] | lookup\n");
  return 2;
}
