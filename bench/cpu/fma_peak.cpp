// The machine's f32 FMA peak: 24 independent 16-lane accumulators per thread, fully unrolled.
// Usage: fma_peak [threads]; prints {"threads": T, "gflops": G}.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

typedef float v16 __attribute__((vector_size(64)));

float run(long iterations) {
  v16 acc[24];
  for (int i = 0; i < 24; ++i) acc[i] = v16{} + float(i);
  const v16 a = v16{} + 1.0000001f, b = v16{} + 0.9999999f;
  for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 24
    for (int i = 0; i < 24; ++i) acc[i] = acc[i] * a + b;
  }
  float s = 0;
  for (int i = 0; i < 24; ++i) s += acc[i][0];
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  const long iterations = 20000000;
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<std::thread> pool;
    std::vector<float> sink(threads);
    auto t0 = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { sink[t] = run(iterations); });
    for (auto& t : pool) t.join();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (sink[0] == 12345.0f) std::puts("");
  }
  double flops = 2.0 * 16 * 24 * double(iterations) * threads;
  std::printf("{\"threads\": %d, \"gflops\": %.1f}\n", threads, flops / best / 1e9);
  return 0;
}
