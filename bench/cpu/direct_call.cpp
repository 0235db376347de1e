// A direct call of a checked-in document-causal kernel (kv_ranges NULL), as a project calls it:
// 1x4x8192x64 f32, documents of 512, 2 threads; prints the median and best of 7 calls after one
// warm-up. Built beside `attnc compile`'s output (bench/results/cpu.md has the commands).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
#include "doc_causal.h"

int main() {
  const int64_t H = 4, L = 8192, D = 64;
  std::vector<float> q(H * L * D), k(q.size()), v(q.size()), out(q.size());
  std::mt19937 rng(7);
  std::normal_distribution<float> n(0, 1);
  for (auto* x : {&q, &k, &v})
    for (float& f : *x) f = n(rng);
  std::vector<int32_t> doc(L);
  for (int64_t i = 0; i < L; ++i) doc[i] = int32_t(i / 512);
  int64_t shape[4] = {1, H, L, D}, doc_shape[1] = {L};
  auto view = [&](void* p, int64_t* s, int nd, DLDataType t) {
    DLTensor d{};
    d.data = p, d.device = {kDLCPU, 0}, d.ndim = nd, d.dtype = t, d.shape = s;
    return d;
  };
  DLTensor tq = view(q.data(), shape, 4, {kDLFloat, 32, 1}), tk = view(k.data(), shape, 4, {kDLFloat, 32, 1}),
           tv = view(v.data(), shape, 4, {kDLFloat, 32, 1}),
           to = view(out.data(), shape, 4, {kDLFloat, 32, 1}),
           td = view(doc.data(), doc_shape, 1, {kDLInt, 32, 1});
  const DLTensor* buffers[] = {&td};
  char error[512] = "";
  attn_kernel_args a{};
  a.abi_version = ATTN_KERNEL_ABI_VERSION;
  a.q = &tq, a.k = &tk, a.v = &tv, a.out = &to, a.buffers = buffers, a.num_buffers = 1;
  a.num_threads = 2, a.error = error, a.error_size = sizeof error;
  std::vector<double> t;
  for (int i = 0; i < 8; ++i) {
    auto s = std::chrono::steady_clock::now();
    if (attn_doc_causal(&a)) return std::fprintf(stderr, "%s\n", error), 1;
    if (i) t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count() * 1e3);
  }
  std::sort(t.begin(), t.end());
  std::printf("direct call: median %.1f ms, min %.1f ms\n", t[t.size() / 2], t[0]);
}
