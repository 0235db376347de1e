// A serving step over one paged KV cache: the requests of a trace (samples/serving/trace.json: 64
// requests, half prefilling the last chunk of their prompt, half decoding one token) attend through
// a kernel that attnc compiled and attn::Loader loads, reading K and V where their pages lie
// (docs/guide.md, "Paged KV caches"). Prints the time of a step and the query tokens per second, for
// the whole batch and for its decoding half alone. Links only attn_runtime.
//
// usage: serving KERNELS_DIR TRACE.json [--steps N] [--threads T]
//   KERNELS_DIR: the output of `attnc compile samples/serving/serving.attn -t cpu -o KERNELS_DIR`
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <vector>

#include "attn/loader.hpp"
#include "samples/ManifestKernels.h"
#include "samples/SampleTensor.h"

namespace {

using Clock = std::chrono::steady_clock;

uint16_t to_bf16(float f) {  // round to nearest even (finite values)
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float from_bf16(uint16_t h) {
  uint32_t x = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

using samples::Tensor;

struct Request {
  int64_t q_len, kv_len;
};

/// One batch layout over the cache: the requests' packed queries, their page table and key counts.
struct Batch {
  Tensor<int32_t> cu_seqlens_q, page_table, kv_lens;
  Tensor<uint16_t> q, out;
  int64_t tokens = 0;

  Batch(const std::vector<Request>& requests, const std::vector<std::vector<int32_t>>& pages, int64_t heads,
        int64_t head_dim, std::mt19937& rng)
      : cu_seqlens_q({int64_t(requests.size()) + 1}),
        page_table({int64_t(requests.size()), max_pages(pages)}),
        kv_lens({int64_t(requests.size())}),
        q({total_queries(requests), heads, head_dim}),
        out({total_queries(requests), heads, head_dim}) {
    const int64_t width = page_table.shape[1];
    for (size_t b = 0; b < requests.size(); ++b) {
      tokens += requests[b].q_len;
      cu_seqlens_q.data[b + 1] = int32_t(tokens);
      kv_lens.data[b] = int32_t(requests[b].kv_len);
      std::fill_n(page_table.data.begin() + int64_t(b) * width, width, -1);  // never read
      std::copy(pages[b].begin(), pages[b].end(), page_table.data.begin() + int64_t(b) * width);
    }
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (uint16_t& x : q.data) x = to_bf16(normal(rng));
  }
  static int64_t max_pages(const std::vector<std::vector<int32_t>>& pages) {
    size_t most = 1;
    for (const auto& p : pages) most = std::max(most, p.size());
    return int64_t(most);
  }
  static int64_t total_queries(const std::vector<Request>& requests) {
    int64_t n = 0;
    for (const Request& r : requests) n += r.q_len;
    return n;
  }
};

/// Runs `batch` `steps` times; prints the median and best step and the query tokens per second.
void serve(const attn::Kernel& kernel, Batch& batch, const DLTensor& k_cache, const DLTensor& v_cache,
           int steps, int threads, const char* what) {
  char error[512] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &batch.q.dl, args.k = &k_cache, args.v = &v_cache, args.out = &batch.out.dl;
  args.cu_seqlens_q = &batch.cu_seqlens_q.dl;
  args.page_table = &batch.page_table.dl, args.kv_lens = &batch.kv_lens.dl;
  args.num_threads = threads;
  args.error = error, args.error_size = sizeof error;
  std::vector<double> ms;
  for (int step = 0; step < steps; ++step) {
    const Clock::time_point t0 = Clock::now();
    if (kernel(args) != 0) throw std::runtime_error(std::string(what) + ": " + error);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (uint16_t x : batch.out.data) sum += std::fabs(from_bf16(x));
  std::printf("%-26s %6lld query tokens  step %9.2f ms (best %9.2f)  %10.0f tokens/s  mean |out| %.4f\n",
              what, (long long)batch.tokens, sorted[sorted.size() / 2], sorted.front(),
              double(batch.tokens) / (sorted[sorted.size() / 2] * 1e-3), sum / double(batch.out.data.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: serving KERNELS_DIR TRACE.json [--steps N] [--threads T]\n";
    return 2;
  }
  const std::string dir = argv[1], trace_path = argv[2];
  int steps = 3, threads = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--steps") == 0)
      steps = std::max(1, std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--threads") == 0)
      threads = std::atoi(argv[i + 1]);
  }
  try {
    const nlohmann::json manifest = nlohmann::json::parse(samples::read_text(dir + "/manifest.json"));
    const nlohmann::json trace = nlohmann::json::parse(samples::read_text(trace_path));
    const int64_t page_size = trace["page_size"], heads = trace["heads"], kv_heads = trace["kv_heads"],
                  head_dim = trace["head_dim"];
    std::vector<Request> requests;
    for (const auto& r : trace["requests"]) requests.push_back({r["q_len"], r["kv_len"]});

    attn::Loader loader;
    const Clock::time_point t0 = Clock::now();
    const attn::Kernel kernel = loader.get(samples::request_for(manifest["kernels"][0], dir));
    const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

    // The cache: every request's pages, handed out in a shuffled order as a server's allocator would.
    std::vector<std::vector<int32_t>> pages(requests.size());
    int32_t total = 0;
    for (size_t b = 0; b < requests.size(); ++b)
      total += int32_t((requests[b].kv_len + page_size - 1) / page_size);
    std::vector<int32_t> order(static_cast<size_t>(total));
    for (int32_t i = 0; i < total; ++i) order[size_t(i)] = i;
    std::mt19937 rng(7);
    std::shuffle(order.begin(), order.end(), rng);
    size_t next = 0;
    for (size_t b = 0; b < requests.size(); ++b)
      for (int64_t p = 0; p < (requests[b].kv_len + page_size - 1) / page_size; ++p)
        pages[b].push_back(order[next++]);
    Tensor<uint16_t> k_cache({total, page_size, kv_heads, head_dim}),
        v_cache({total, page_size, kv_heads, head_dim});
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (auto* cache : {&k_cache, &v_cache})
      for (uint16_t& x : cache->data) x = to_bf16(normal(rng));

    // The whole step, then its decoding requests alone (the same cache, another layout).
    std::vector<Request> decoding;
    std::vector<std::vector<int32_t>> decoding_pages;
    for (size_t b = 0; b < requests.size(); ++b)
      if (requests[b].q_len == 1) decoding.push_back(requests[b]), decoding_pages.push_back(pages[b]);
    Batch mixed(requests, pages, heads, head_dim, rng),
        decode(decoding, decoding_pages, heads, head_dim, rng);
    std::printf(
        "%zu requests, %lld pages of %lld keys (%.0f MB of bf16 K and V), %lld/%lld heads, D %lld; "
        "kernel loaded in %.1f ms\n",
        requests.size(), (long long)total, (long long)page_size, 2.0 * double(k_cache.data.size()) * 2 / 1e6,
        (long long)heads, (long long)kv_heads, (long long)head_dim, load_ms);
    serve(kernel, mixed, k_cache.dl, v_cache.dl, steps, threads, "prefill chunks + decoding");
    serve(kernel, decode, k_cache.dl, v_cache.dl, steps, threads, "decoding alone");
  } catch (const std::exception& e) {
    std::cerr << "serving: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
