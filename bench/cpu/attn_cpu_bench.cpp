// Times attnc's CPU kernel on the benchmark variants; prints one JSON line per variant.
// Usage: attn_cpu_bench [--len L] [--heads H] [--dim D] [--threads T] [--iters N] [--dump DIR] VARIANT...
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/CpuBackend.h"
#include "bench/cpu/BenchKernels.h"

namespace {

struct Options {
  int len = 4096, heads = 8, dim = 64, threads = 2, iters = 5, doc_len = 512;
  std::string dump;
  std::vector<std::string> variants;
};

DLTensor tensor(float* data, std::vector<int64_t>& shape) {
  DLTensor t{};
  t.data = data;
  t.device = {kDLCPU, 0};
  t.ndim = int(shape.size());
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape.data();
  return t;
}

// Mask and score of each variant, for the density and the spot check.
bool allowed(const std::string& v, int q, int kv, const std::vector<int>& doc) {
  if (v == "full") return true;
  if (kv > q) return false;
  if (v == "sliding256") return q - kv < 256;
  if (v == "documents") return doc[q] == doc[kv];
  return true;
}

double modify(const std::string& v, double s, int h, int q, int kv, const std::vector<float>& slopes) {
  if (v == "alibi") return s + slopes[h] * double(kv - q);
  if (v == "softcap") return 30.0 * std::tanh(s / 30.0);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--len")
      o.len = std::stoi(next());
    else if (a == "--heads")
      o.heads = std::stoi(next());
    else if (a == "--dim")
      o.dim = std::stoi(next());
    else if (a == "--threads")
      o.threads = std::stoi(next());
    else if (a == "--iters")
      o.iters = std::stoi(next());
    else if (a == "--dump")
      o.dump = next();
    else
      o.variants.push_back(a);
  }
  if (o.variants.empty()) o.variants = attn::bench::variant_names();
  const int L = o.len, H = o.heads, D = o.dim;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> q(size_t(H) * L * D), k(q.size()), v(q.size()), out(q.size());
  for (auto* x : {&q, &k, &v})
    for (float& f : *x) f = normal(rng);
  std::vector<float> slopes(H);
  for (int h = 0; h < H; ++h) slopes[h] = std::exp2(-8.0f * (h + 1) / H);
  std::vector<int> doc(L);
  for (int i = 0; i < L; ++i) doc[i] = i / o.doc_len;
  std::vector<int64_t> shape = {1, H, L, D}, slope_shape = {H}, doc_shape = {L};

  for (const std::string& variant : o.variants) {
    attn::KernelIR ir = attn::bench::make_variant(variant, D);
    auto t0 = std::chrono::steady_clock::now();
    attn::CpuKernelSource src = attn::generate_cpu_kernel(ir, attn::host_cpu_target());
    auto t1 = std::chrono::steady_clock::now();
    auto kernel = attn::compile_cpu_kernel(src);
    auto t2 = std::chrono::steady_clock::now();
    if (!o.dump.empty()) {
      std::ofstream(o.dump + "/" + src.header_name) << src.header;
      std::ofstream(o.dump + "/" + variant + ".cpp") << src.source;
    }
    DLTensor tq = tensor(q.data(), shape), tk = tensor(k.data(), shape), tv = tensor(v.data(), shape),
             to = tensor(out.data(), shape), ts = tensor(slopes.data(), slope_shape),
             td = tensor(reinterpret_cast<float*>(doc.data()), doc_shape);
    td.dtype = {kDLInt, 32, 1};
    std::vector<const DLTensor*> buffers;
    if (variant == "alibi") buffers.push_back(&ts);
    if (variant == "documents") buffers.push_back(&td);
    char error[512] = "";
    attn_kernel_args args{};
    args.abi_version = ATTN_KERNEL_ABI_VERSION;
    args.q = &tq, args.k = &tk, args.v = &tv, args.out = &to;
    args.buffers = buffers.data(), args.num_buffers = int(buffers.size());
    args.num_threads = o.threads, args.error = error, args.error_size = sizeof error;
    // What run_cpu_kernel passes: the run-time plan's key ranges (documents; empty otherwise).
    attn::TilePlanInputs plan_inputs;
    plan_inputs.q_len = plan_inputs.kv_len = L;
    if (variant == "documents") plan_inputs.buffers["doc"] = {attn::TileBuffer::Elem::I32, doc.data(), {L}};
    if (variant == "alibi") plan_inputs.buffers["slopes"] = {attn::TileBuffer::Elem::F32, slopes.data(), {H}};
    attn::CpuKeyRanges ranges = attn::cpu_key_ranges(ir, plan_inputs);
    attn::set_key_ranges(args, ranges);
    std::vector<double> times, cpu_times;
    for (int it = 0; it < o.iters + 1; ++it) {
      auto s = std::chrono::steady_clock::now();
      std::clock_t c0 = std::clock();
      if (kernel->run(args) != 0) {
        fprintf(stderr, "%s: %s\n", variant.c_str(), error);
        return 1;
      }
      if (it > 0) {
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
        cpu_times.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC);
      }
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu_times.begin(), cpu_times.end());
    double allowed_pairs = 0;
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) allowed_pairs += allowed(variant, i, j, doc);
    double density = allowed_pairs / (double(L) * L);
    double flops = 4.0 * H * allowed_pairs * D;
    // Spot check a few rows against a double-precision loop.
    double max_err = 0;
    for (int h : {0, H - 1})
      for (int i : {0, 1, 255, L / 2 + 3, L - 1}) {
        std::vector<double> s(L), acc(D, 0.0);
        double m = -INFINITY, l = 0;
        for (int j = 0; j < L; ++j) {
          if (!allowed(variant, i, j, doc)) continue;
          double dot = 0;
          for (int d = 0; d < D; ++d)
            dot += double(q[(size_t(h) * L + i) * D + d]) * k[(size_t(h) * L + j) * D + d];
          s[j] = modify(variant, dot / std::sqrt(double(D)), h, i, j, slopes);
          m = std::max(m, s[j]);
        }
        for (int j = 0; j < L; ++j) {
          if (!allowed(variant, i, j, doc)) continue;
          double p = std::exp(s[j] - m);
          l += p;
          for (int d = 0; d < D; ++d) acc[d] += p * v[(size_t(h) * L + j) * D + d];
        }
        for (int d = 0; d < D; ++d)
          max_err = std::max(max_err, std::abs(acc[d] / l - out[(size_t(h) * L + i) * D + d]));
      }
    printf(
        "{\"variant\": \"%s\", \"density\": %.4f, \"median_s\": %.5f, \"min_s\": %.5f, \"gflops\": %.1f, "
        "\"cpu_s\": %.5f, \"generate_s\": %.2f, \"compile_s\": %.2f, \"max_abs_err\": %.2e}\n",
        variant.c_str(), density, times[times.size() / 2], times[0], flops / times[times.size() / 2] / 1e9,
        cpu_times[0], std::chrono::duration<double>(t1 - t0).count(),
        std::chrono::duration<double>(t2 - t1).count(), max_err);
    fflush(stdout);
  }
  return 0;
}
