// The machine's f32 FMA peak, per vector ISA: independent accumulators, fully unrolled, as many as
// the ISA's register file holds without spilling (AVX-512: 24 of 32 zmm; AVX2: 12 of 16 ymm, with
// the two operands; enough in flight for two FMA ports of 4-5 cycles' latency either way).
// Usage: fma_peak [threads]; prints {"threads": T, "gflops": G, "avx512_gflops": A, "avx2_gflops": B}:
// gflops is the widest ISA this CPU runs, a peak it lacks is 0.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

template <int Lanes>
struct Vec {
  typedef float type __attribute__((vector_size(4 * Lanes)));
};

template <int Lanes, int Accumulators>
inline __attribute__((always_inline)) float fma_loop(long iterations) {
  typedef typename Vec<Lanes>::type V;
  V acc[Accumulators];
  for (int i = 0; i < Accumulators; ++i) acc[i] = V{} + float(i);
  const V a = V{} + 1.0000001f, b = V{} + 0.9999999f;
  for (long it = 0; it < iterations; ++it) {
#pragma GCC unroll 24
    for (int i = 0; i < Accumulators; ++i) acc[i] = acc[i] * a + b;
  }
  float s = 0;
  for (int i = 0; i < Accumulators; ++i) s += acc[i][0];
  return s;
}

struct Probe {
  const char* name;
  int lanes, accumulators;
  bool supported;
  float (*run)(long);
};

#if defined(__x86_64__)
// Each ISA's loop is compiled for that ISA whatever -march says (an AVX-512 loop built for AVX2
// splits every zmm into two ymm and spills: ~8 GFLOP/s), and run only where the CPU has it.
__attribute__((target("avx512f"))) float run_avx512(long n) { return fma_loop<16, 24>(n); }
__attribute__((target("avx2,fma"))) float run_avx2(long n) { return fma_loop<8, 12>(n); }

std::vector<Probe> probes() {
  __builtin_cpu_init();
  return {{"avx512", 16, 24, bool(__builtin_cpu_supports("avx512f")), run_avx512},
          {"avx2", 8, 12, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), run_avx2}};
}
#else
float run_native(long n) { return fma_loop<4, 12>(n); }  // 128-bit vectors (NEON: 32 registers)
std::vector<Probe> probes() { return {{"native", 4, 12, true, run_native}}; }
#endif

/// Best of three timed runs on `threads` threads.
double gflops(const Probe& p, int threads) {
  const long iterations = 20000000;
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<std::thread> pool;
    std::vector<float> sink(threads);
    auto t0 = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { sink[t] = p.run(iterations); });
    for (auto& t : pool) t.join();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (sink[0] == 12345.0f) std::puts("");
  }
  return 2.0 * p.lanes * p.accumulators * double(iterations) * threads / best / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  double widest = 0;
  std::printf("{\"threads\": %d", threads);
  for (const Probe& p : probes()) {
    double g = p.supported ? gflops(p, threads) : 0.0;
    if (widest == 0) widest = g;
    std::printf(", \"%s_gflops\": %.1f", p.name, g);
  }
  std::printf(", \"gflops\": %.1f}\n", widest);
  return 0;
}
