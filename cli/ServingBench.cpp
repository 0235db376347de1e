// `attnc bench --serving TRACE.json`: the trace's requests (each a q_len and a kv_len: a prefill
// chunk or a decoding token over its context) as one paged call, the way a server's step calls
// attention once per layer (docs/guide.md, "Paged KV caches").
#include "cli/ServingBench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "backends/Backend.h"
#include "cli/KernelSession.h"
#include "codegen/Lower.h"

namespace attn::cli {

namespace {

struct Trace {
  int64_t page_size = 0, heads = 0, kv_heads = 0, head_dim = 0;
  std::vector<std::pair<int64_t, int64_t>> requests;  // (q_len, kv_len)
};

Trace read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("--serving: cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  Trace t;
  try {
    const nlohmann::json j = nlohmann::json::parse(text.str());
    t.page_size = j.at("page_size"), t.heads = j.at("heads"), t.kv_heads = j.at("kv_heads");
    t.head_dim = j.at("head_dim");
    for (const auto& r : j.at("requests")) t.requests.emplace_back(r.at("q_len"), r.at("kv_len"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError("--serving " + path +
                     ": not a serving trace (page_size, heads, kv_heads, head_dim and "
                     "requests of q_len and kv_len): " +
                     e.what());
  }
  if (t.page_size < 1 || t.heads < 1 || t.kv_heads < 1 || t.head_dim < 1 || t.requests.empty())
    throw InputError("--serving " + path +
                     ": page_size, heads, kv_heads and head_dim must be positive, with at "
                     "least one request");
  for (const auto& [q, kv] : t.requests)
    if (q < 0 || kv < q)
      throw InputError("--serving " + path + ": a request has q_len " + std::to_string(q) + " and kv_len " +
                       std::to_string(kv) + " (0 <= q_len <= kv_len)");
  return t;
}

}  // namespace

int bench_serving(const KernelIR& ir, const Backend& target, const BenchOptions& o) {
  const Trace trace = read_trace(o.serving);
  const int64_t n = int64_t(trace.requests.size()), ps = trace.page_size;
  int64_t tokens = 0, keys = 0, pages = 0, widest = 1;
  for (const auto& [q, kv] : trace.requests) {
    tokens += q, keys += kv, pages += (kv + ps - 1) / ps;
    widest = std::max(widest, (kv + ps - 1) / ps);
  }
  // The cache's pages handed out in a shuffled order, as a server's allocator would.
  std::mt19937 rng(2026);
  std::vector<int32_t> order(static_cast<size_t>(pages));
  for (int64_t i = 0; i < pages; ++i) order[size_t(i)] = int32_t(i);
  std::shuffle(order.begin(), order.end(), rng);
  const ScalarType type = io_scalar_type(kernel_options(ir).dtype);
  KernelInputs in;
  in.q = random_tensor(type, {tokens, trace.heads, trace.head_dim}, rng);
  in.k = random_tensor(type, {pages, ps, trace.kv_heads, trace.head_dim}, rng);
  in.v = random_tensor(type, {pages, ps, trace.kv_heads, trace.head_dim}, rng);
  in.cu_seqlens_q = HostTensor(ScalarType::I32, {n + 1});
  in.page_table = HostTensor(ScalarType::I32, {n, widest});
  in.kv_lens = HostTensor(ScalarType::I32, {n});
  size_t next = 0;
  for (int64_t b = 0, at = 0; b < n; ++b) {
    const auto [q, kv] = trace.requests[size_t(b)];
    in.cu_seqlens_q.set(b + 1, double(at += q));
    in.kv_lens.set(b, double(kv));
    for (int64_t p = 0; p < widest; ++p)
      in.page_table.set(b * widest + p, p < (kv + ps - 1) / ps ? double(order[next++]) : -1.0);
  }
  bind_kernel_args(ir, o.args, in);
  validate_inputs(ir, in);

  std::vector<double> ms;
  for (int i = 0; i < o.warmup + o.iters; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    (void)target.run(ir, in, o.threads);
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (i >= o.warmup) ms.push_back(t);
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2], per_second = double(tokens) / (median * 1e-3);
  if (o.json) {
    nlohmann::ordered_json j;
    j["kernel"] = kernel_name(ir);
    j["target"] = o.target;
    j["trace"] = o.serving;
    j["requests"] = n;
    j["query_tokens"] = tokens;
    j["keys"] = keys;
    j["pages"] = pages;
    j["page_size"] = ps;
    j["dtype"] = scalar_type_name(type);
    j["ms"] = {{"median", median}, {"min", sorted.front()}, {"max", sorted.back()}, {"all", ms}};
    j["tokens_per_s"] = per_second;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::printf("%s on %s: %lld requests, %lld query tokens over %lld keys in %lld pages of %lld, %s\n",
              kernel_name(ir).c_str(), o.target.c_str(), (long long)n, (long long)tokens, (long long)keys,
              (long long)pages, (long long)ps, scalar_type_name(type));
  std::printf("step: median %.3f ms, min %.3f, max %.3f (%d timed after %d warm-up); %.0f query tokens/s\n",
              median, sorted.front(), sorted.back(), o.iters, o.warmup, per_second);
  return 0;
}

}  // namespace attn::cli
