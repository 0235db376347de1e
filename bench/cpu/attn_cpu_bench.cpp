// Times attnc's CPU kernel on the benchmark variants; prints one JSON line per variant. With
// --backward, the forward (with its LSE) and the backward (dQ, dK, dV and, for alibi, the slopes'
// gradient) instead: forward_s, backward_s and their sum in min_s.
// With --direct, the forward is called as a project that checks in its source calls it: no key
// ranges (a buffer mask's kernel plans itself) instead of run_cpu_kernel's.
// --dtype bf16: Q, K, V and Out in bf16 (the forward only; the reference uses the rounded inputs).
// Usage: attn_cpu_bench [--len L] [--heads H] [--dim D] [--threads T] [--iters N] [--dump DIR] [--backward]
// [--direct] [--dtype f32|bf16] VARIANT...
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "attn/kernel_backward_abi.h"
#include "attn/loader.hpp"
#include "backends/cpu/CpuBackend.h"
#include "bench/cpu/BenchKernels.h"

namespace {

struct Options {
  int len = 4096, heads = 8, dim = 64, threads = 2, iters = 5, doc_len = 512;
  std::string dump;
  bool backward = false, direct = false, bf16 = false;
  std::vector<std::string> variants;
};

uint16_t to_bf16(float f) {  // round to nearest even (finite inputs)
  uint32_t x;
  memcpy(&x, &f, 4);
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float from_bf16(uint16_t h) {
  uint32_t x = uint32_t(h) << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

DLTensor tensor(void* data, std::vector<int64_t>& shape, DLDataType dtype = {kDLFloat, 32, 1}) {
  DLTensor t{};
  t.data = data;
  t.device = {kDLCPU, 0};
  t.ndim = int(shape.size());
  t.dtype = dtype;
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

/// --backward: forward with LSE, then backward, each timed (best and median of `iters`).
int time_backward(const Options& o) {
  const int L = o.len, H = o.heads, D = o.dim;
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const size_t n = size_t(H) * L * D;
  std::vector<float> q(n), k(n), v(n), dout(n), out(n), dq(n), dk(n), dv(n), lse(size_t(H) * L);
  for (auto* x : {&q, &k, &v, &dout})
    for (float& f : *x) f = normal(rng);
  std::vector<float> slopes(H), dslopes(H);
  for (int h = 0; h < H; ++h) slopes[h] = std::exp2(-8.0f * (h + 1) / H);
  std::vector<int> doc(L);
  for (int i = 0; i < L; ++i) doc[i] = i / o.doc_len;
  std::vector<int64_t> shape = {1, H, L, D}, row_shape = {1, H, L}, slope_shape = {H}, doc_shape = {L};
  for (const std::string& variant : o.variants) {
    attn::KernelIR ir = attn::bench::make_variant(variant, D);
    auto t0 = std::chrono::steady_clock::now();
    auto forward = attn::compile_cpu_kernel(attn::generate_cpu_kernel(ir, attn::host_cpu_target()));
    attn::CpuKernelSource src = attn::generate_cpu_backward(ir, attn::host_cpu_target());
    if (!o.dump.empty())
      std::ofstream(o.dump + "/" + variant + "_backward.cpp") << attn::single_file_source(src);
    attn::Kernel loaded = attn::process_loader().get(attn::cpu_kernel_request(src));
    auto backward = reinterpret_cast<attn_backward_fn>(loaded.entry());
    double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    DLTensor tq = tensor(q.data(), shape), tk = tensor(k.data(), shape), tv = tensor(v.data(), shape),
             to = tensor(out.data(), shape), tdo = tensor(dout.data(), shape), tdq = tensor(dq.data(), shape),
             tdk = tensor(dk.data(), shape), tdv = tensor(dv.data(), shape),
             tl = tensor(lse.data(), row_shape), ts = tensor(slopes.data(), slope_shape),
             tds = tensor(dslopes.data(), slope_shape),
             td = tensor(reinterpret_cast<float*>(doc.data()), doc_shape);
    td.dtype = {kDLInt, 32, 1};
    std::vector<const DLTensor*> buffers;
    std::vector<DLTensor*> grads;
    if (variant == "alibi") buffers.push_back(&ts), grads.push_back(&tds);
    if (variant == "documents") buffers.push_back(&td), grads.push_back(nullptr);
    char error[512] = "";
    attn_kernel_args f{};
    f.abi_version = ATTN_KERNEL_ABI_VERSION;
    f.q = &tq, f.k = &tk, f.v = &tv, f.out = &to, f.lse = &tl;
    f.buffers = buffers.data(), f.num_buffers = int(buffers.size());
    f.num_threads = o.threads, f.error = error, f.error_size = sizeof error;
    attn::TilePlanInputs plan_inputs;
    plan_inputs.q_len = plan_inputs.kv_len = L;
    if (variant == "documents") plan_inputs.buffers["doc"] = {attn::TileBuffer::Elem::I32, doc.data(), {L}};
    if (variant == "alibi") plan_inputs.buffers["slopes"] = {attn::TileBuffer::Elem::F32, slopes.data(), {H}};
    attn::CpuKeyRanges ranges = attn::cpu_key_ranges(ir, plan_inputs);
    attn::set_key_ranges(f, ranges);
    attn_backward_args b{};
    b.abi_version = ATTN_BACKWARD_ABI_VERSION;
    b.q = &tq, b.k = &tk, b.v = &tv, b.out = &to, b.lse = &tl, b.dout = &tdo, b.dq = &tdq, b.dk = &tdk,
    b.dv = &tdv;
    b.buffers = buffers.data(), b.buffer_grads = grads.data(), b.num_buffers = int(buffers.size());
    b.num_threads = o.threads, b.error = error, b.error_size = sizeof error;
    b.kv_ranges = f.kv_ranges, b.kv_ranges_block_q = f.kv_ranges_block_q;
    std::vector<double> fwd, bwd;
    for (int it = 0; it < o.iters + 1; ++it) {
      auto s0 = std::chrono::steady_clock::now();
      if (forward->run(f) != 0) return fprintf(stderr, "%s: %s\n", variant.c_str(), error), 1;
      auto s1 = std::chrono::steady_clock::now();
      if (backward(&b) != 0) return fprintf(stderr, "%s: %s\n", variant.c_str(), error), 1;
      auto s2 = std::chrono::steady_clock::now();
      if (it == 0) continue;  // warm-up
      fwd.push_back(std::chrono::duration<double>(s1 - s0).count());
      bwd.push_back(std::chrono::duration<double>(s2 - s1).count());
    }
    std::vector<double> total(fwd.size());
    for (size_t i = 0; i < fwd.size(); ++i) total[i] = fwd[i] + bwd[i];
    std::sort(fwd.begin(), fwd.end()), std::sort(bwd.begin(), bwd.end()),
        std::sort(total.begin(), total.end());
    printf(
        "{\"variant\": \"%s\", \"forward_s\": %.5f, \"backward_s\": %.5f, \"min_s\": %.5f, \"median_s\": "
        "%.5f, "
        "\"generate_s\": 0, \"compile_s\": %.2f}\n",
        variant.c_str(), fwd[0], bwd[0], total[0], total[total.size() / 2], build_s);
    fflush(stdout);
  }
  return 0;
}

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
    else if (a == "--backward")
      o.backward = true;
    else if (a == "--direct")
      o.direct = true;
    else if (a == "--dtype")
      o.bf16 = next() == "bf16";
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
  // bf16: the kernel reads bf16 copies; the reference reads the same values (rounded) as f32.
  std::vector<uint16_t> q16(o.bf16 ? q.size() : 0), k16(q16.size()), v16(q16.size()), out16(q16.size());
  for (size_t i = 0; i < q16.size(); ++i) {
    q16[i] = to_bf16(q[i]), k16[i] = to_bf16(k[i]), v16[i] = to_bf16(v[i]);
    q[i] = from_bf16(q16[i]), k[i] = from_bf16(k16[i]), v[i] = from_bf16(v16[i]);
  }
  std::vector<float> slopes(H);
  for (int h = 0; h < H; ++h) slopes[h] = std::exp2(-8.0f * (h + 1) / H);
  std::vector<int> doc(L);
  for (int i = 0; i < L; ++i) doc[i] = i / o.doc_len;
  std::vector<int64_t> shape = {1, H, L, D}, slope_shape = {H}, doc_shape = {L};

  if (o.backward && o.bf16) return fprintf(stderr, "--dtype bf16 times the forward only\n"), 1;
  if (o.backward) return time_backward(o);
  for (const std::string& variant : o.variants) {
    attn::KernelIR ir = attn::bench::make_variant(variant, D, o.bf16 ? attn::DType::BF16 : attn::DType::F32);
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
             td = tensor(doc.data(), doc_shape, {kDLInt, 32, 1});
    if (o.bf16) {
      const DLDataType bf16{kDLBfloat, 16, 1};
      tq = tensor(q16.data(), shape, bf16), tk = tensor(k16.data(), shape, bf16),
      tv = tensor(v16.data(), shape, bf16), to = tensor(out16.data(), shape, bf16);
    }
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
    if (!o.direct) attn::set_key_ranges(args, ranges);
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
    for (size_t i = 0; i < out16.size(); ++i) out[i] = from_bf16(out16[i]);
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
        "{\"variant\": \"%s\", \"dtype\": \"%s\", \"direct\": %s, \"density\": %.4f, \"median_s\": %.5f, "
        "\"min_s\": %.5f, "
        "\"gflops\": %.1f, "
        "\"cpu_s\": %.5f, \"generate_s\": %.2f, \"compile_s\": %.2f, \"max_abs_err\": %.2e}\n",
        variant.c_str(), o.bf16 ? "bf16" : "f32", o.direct ? "true" : "false", density,
        times[times.size() / 2], times[0], flops / times[times.size() / 2] / 1e9, cpu_times[0],
        std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count(),
        max_err);
    fflush(stdout);
  }
  return 0;
}
