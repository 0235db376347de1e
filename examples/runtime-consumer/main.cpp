// Loads the kernel of the .attn file named on the command line (kernels/doc_causal.attn: causal
// attention inside packed documents) at run time, runs it on random inputs and checks it against
// a naive loop. A bad file prints the compiler's located diagnostics and exits with 1.
#include <attn/compile.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <vector>

namespace {

constexpr int64_t kB = 1, kH = 2, kL = 200, kD = 32;

template <typename T>
DLTensor view(std::vector<T>& data, std::vector<int64_t>& shape, DLDataType dtype) {
  DLTensor t{};
  t.data = data.data();
  t.device = {kDLCPU, 0};
  t.ndim = static_cast<int>(shape.size());
  t.dtype = dtype;
  t.shape = shape.data();
  return t;
}

// softmax(q k^T / sqrt(D)) v over the keys kv <= q of q's document.
std::vector<float> naive(const std::vector<float>& q, const std::vector<float>& k,
                         const std::vector<float>& v, const std::vector<int32_t>& doc) {
  std::vector<float> out(q.size());
  for (int64_t h = 0; h < kB * kH; ++h)
    for (int64_t i = 0; i < kL; ++i) {
      std::vector<int64_t> keys;
      std::vector<double> w;
      double top = -INFINITY;
      for (int64_t j = 0; j <= i; ++j) {
        if (doc[j] != doc[i]) continue;
        double s = 0;
        for (int64_t d = 0; d < kD; ++d) s += q[(h * kL + i) * kD + d] * k[(h * kL + j) * kD + d];
        keys.push_back(j);
        w.push_back(s / std::sqrt(double(kD)));
        top = std::max(top, w.back());
      }
      double sum = 0;
      for (double& x : w) sum += (x = std::exp(x - top));
      for (int64_t d = 0; d < kD; ++d) {
        double acc = 0;
        for (size_t n = 0; n < keys.size(); ++n) acc += w[n] * v[(h * kL + keys[n]) * kD + d];
        out[(h * kL + i) * kD + d] = float(acc / sum);
      }
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: runtime_consumer FILE.attn\n");
    return 2;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  attn::CompiledKernel kernel = [&] {
    try {
      // The file's only kernel, for this CPU, through the process's loader and its disk cache.
      return attn::compile_kernel(argv[1], text.str());
    } catch (const attn::SourceError& e) {
      std::cerr << e.what();
      std::exit(1);
    }
  }();
  attn::LoaderStats stats = attn::process_loader().stats();
  std::printf("%s: %s (compiles %llu, disk hits %llu)\n", kernel.name().c_str(),
              kernel.kernel().key().c_str(), (unsigned long long)stats.compiles,
              (unsigned long long)stats.disk_hits);

  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  std::vector<float> q(kB * kH * kL * kD), k(q.size()), v(q.size()), out(q.size());
  for (auto* t : {&q, &k, &v})
    for (float& x : *t) x = normal(rng);
  // Three packed documents: positions 0-69, 70-119 and 120-199.
  std::vector<int32_t> doc(kL);
  for (int64_t i = 0; i < kL; ++i) doc[i] = i < 70 ? 0 : i < 120 ? 1 : 2;
  std::vector<int64_t> shape{kB, kH, kL, kD}, doc_shape{kL};
  DLTensor tq = view(q, shape, {kDLFloat, 32, 1}), tk = view(k, shape, {kDLFloat, 32, 1}),
           tv = view(v, shape, {kDLFloat, 32, 1}), tout = view(out, shape, {kDLFloat, 32, 1});
  DLTensor tdoc = view(doc, doc_shape, {kDLInt, 32, 1});
  const DLTensor* buffers[] = {&tdoc};  // kernel.params(), in declaration order: doc
  char error[512] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &tq;
  args.k = &tk;
  args.v = &tv;
  args.out = &tout;
  args.buffers = buffers;
  args.num_buffers = 1;
  args.error = error;
  args.error_size = sizeof error;
  // No kv_ranges given: the call plans the key ranges from doc, as `attnc run` does.
  if (kernel(args) != 0) {
    std::fprintf(stderr, "%s: %s\n", kernel.name().c_str(), error);
    return 1;
  }
  std::vector<float> want = naive(q, k, v, doc);
  double worst = 0;
  for (size_t i = 0; i < out.size(); ++i) worst = std::max(worst, double(std::fabs(out[i] - want[i])));
  std::printf("%s: max |kernel - naive| = %.3g\n", kernel.name().c_str(), worst);
  return worst < 1e-4 ? 0 : 1;
}
