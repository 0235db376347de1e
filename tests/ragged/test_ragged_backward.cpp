// The backward of a ragged batch (attn_backward_args version 2): the reference against finite
// differences of its own forward (sinks, a score that reads `b`, a buffer mask, empty and one-row
// sequences), the CPU kernels (f32 and bf16, GQA, Lq != Lk both ways, 1 and 2 threads, the same
// bits whatever the thread count) and the vulkan target (a dispatch per sequence) against the
// reference, and bad boundaries (test_paged.cpp: a paged cache has no backward).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>
#include <string>
#include <utility>

#include "backends/Backend.h"
#include "backends/reference/Reference.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/ragged/RaggedSupport.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kProgram = R"attn(
import std.masks;
// A buffer mask (each sequence plans its own keys), a score and a sink that read `b`, the
// sequence's index, and the call's lengths.
kernel docs_bias_sink(doc: tensor<i32>[len], bias: tensor<f32>[batch], sinks: tensor<f32>[heads]) {
  mask = doc[q] == doc[kv] && kv <= q + 3;
  score = score * (1.0 + 0.1 * bias[b]) + float(kv_len - q_len) * 0.01;
  sink = sinks[h] + bias[b];
  lse = true;
}
kernel causal_bf16 { mask = causal_from_end; dtype = bf16; lse = true; }
kernel all_keys { }
)attn";

// Empty sequences (no queries, no keys, or neither), one-row ones, Lq != Lk both ways, lengths
// that are not tile multiples.
const std::vector<int64_t> kQLens = {5, 0, 1, 40, 70, 0}, kKvLens = {5, 3, 90, 40, 69, 0};

KernelInputs ragged_inputs(const KernelIR& ir, ScalarType t, int Hq, int Hkv, int D, std::mt19937& rng) {
  KernelInputs in;
  in.q = random_tensor(t, {total(kQLens), Hq, D}, rng);
  in.k = random_tensor(t, {total(kKvLens), Hkv, D}, rng);
  in.v = random_tensor(t, {total(kKvLens), Hkv, D}, rng);
  in.cu_seqlens_q = boundaries(kQLens);
  in.cu_seqlens_k = boundaries(kKvLens);
  std::normal_distribution<double> n(0.0, 1.0);
  for (const KernelArg& a : ir.args) {
    const bool doc = a.name == "doc";
    const int64_t size = doc ? 90 : a.name == "sinks" ? Hq : int64_t(kQLens.size());
    HostTensor buf(doc ? ScalarType::I32 : ScalarType::F32, {size});
    for (int64_t i = 0; i < size; ++i) buf.set(i, doc ? double(i / 30) : n(rng));
    in.buffers[a.name] = buf;
  }
  return in;
}

GradientRequest request(const KernelIR& ir, const KernelInputs& in, std::mt19937& rng) {
  GradientRequest r;
  const ScalarType io = ir.options.dtype == DType::BF16 ? ScalarType::BF16 : ScalarType::F32;
  r.dout = random_tensor(io, {in.q.shape[0], in.q.shape[1], in.v.shape[2]}, rng);
  if (ir.options.lse) r.dlse = random_tensor(ScalarType::F32, {in.q.shape[0], in.q.shape[1]}, rng);
  for (const KernelArg& a : ir.args)
    if (a.elem == ElemType::F32) r.buffers.push_back(a.name);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ragged_backward)

BOOST_AUTO_TEST_CASE(reference_matches_finite_differences) {
  std::mt19937 rng(11);
  auto ir = lower_text(kProgram, "docs_bias_sink");
  const KernelInputs in = ragged_inputs(*ir, ScalarType::F32, 4, 2, 8, rng);
  const GradientRequest r = request(*ir, in, rng);
  const KernelGradients g = find_backend("reference", Capability::Backward).backward(*ir, in, r, 2);
  BOOST_TEST(g.dq.shape == in.q.shape);
  BOOST_TEST(g.dk.shape == in.k.shape);
  auto loss = [&](const KernelInputs& x) { return reference_loss(*ir, x, r); };
  // Elements of several sequences: (tensor, flat index), the gradient the reference gave.
  auto element = [&](KernelInputs& x, const std::string& name) -> HostTensor& {
    return name == "q" ? x.q : name == "k" ? x.k : name == "v" ? x.v : x.buffers.at(name);
  };
  auto gradient = [&](const std::string& name) -> const HostTensor& {
    return name == "q" ? g.dq : name == "k" ? g.dk : name == "v" ? g.dv : g.buffers.at(name);
  };
  const int64_t q_row = 4 * 8, k_row = 2 * 8;  // elements per packed row of Q and of K/V
  const std::pair<const char*, int64_t> probes[] = {
      {"q", 2 * q_row + 5},    // sequence 0
      {"q", 60 * q_row + 17},  // sequence 4
      {"k", 10 * k_row + 3},   // sequence 2 (one query row, 90 keys)
      {"v", 100 * k_row + 9},  // sequence 3
      {"k", 6 * k_row + 1},    // sequence 1: no queries, no gradient
      {"sinks", 1},           {"sinks", 2}, {"bias", 0}, {"bias", 4}, {"bias", 1}};
  for (auto [name, at] : probes) {
    KernelInputs up = in, down = in;
    const double eps = 1e-2, x = element(up, name).get(at);
    element(up, name).set(at, x + eps);
    element(down, name).set(at, x - eps);
    const double fd = (loss(up) - loss(down)) / (2 * eps), got = gradient(name).get(at);
    BOOST_TEST(std::fabs(fd - got) < 2e-3 * std::max(1.0, std::fabs(fd)),
               name << "[" << at << "] " << got << " vs " << fd);
  }
}

BOOST_AUTO_TEST_CASE(cpu_and_vulkan_match_the_reference) {
  std::mt19937 rng(12);
  const Backend& cpu = find_backend("cpu", Capability::Backward);
  for (const char* name : {"docs_bias_sink", "causal_bf16", "all_keys"}) {
    auto ir = lower_text(kProgram, name);
    const bool bf16 = ir->options.dtype == DType::BF16;
    const double tolerance = bf16 ? 3e-2 : 3e-4;
    const KernelInputs in = ragged_inputs(*ir, bf16 ? ScalarType::BF16 : ScalarType::F32, 4, 2, 16, rng);
    const GradientRequest r = request(*ir, in, rng);
    const KernelGradients want = find_backend("reference", Capability::Backward).backward(*ir, in, r, 2);
    const KernelGradients one = cpu.backward(*ir, in, r, 1), two = cpu.backward(*ir, in, r, 2);
    const KernelGradients vulkan = find_backend("vulkan", Capability::Backward).backward(*ir, in, r, 0);
    for (const KernelGradients* got : {&one, &two, &vulkan}) {
      BOOST_TEST(max_abs_diff(got->dq, want.dq) < tolerance, name);
      BOOST_TEST(max_abs_diff(got->dk, want.dk) < tolerance, name);
      BOOST_TEST(max_abs_diff(got->dv, want.dv) < tolerance, name);
      for (const auto& [buffer, grad] : want.buffers)
        BOOST_TEST(max_abs_diff(got->buffers.at(buffer), grad) < tolerance, name << " d" << buffer);
    }
    // Deterministic: the same bits on 1 and 2 threads.
    BOOST_TEST((one.dq.bytes == two.dq.bytes && one.dk.bytes == two.dk.bytes && one.dv.bytes == two.dv.bytes),
               name);
    for (const auto& [buffer, grad] : one.buffers)
      BOOST_TEST(grad.bytes == two.buffers.at(buffer).bytes, name);
  }
}

BOOST_AUTO_TEST_CASE(bad_boundaries_say_which) {
  std::mt19937 rng(13);
  auto ir = lower_text(kProgram, "all_keys");
  const KernelInputs in = ragged_inputs(*ir, ScalarType::F32, 2, 2, 16, rng);
  const GradientRequest r = request(*ir, in, rng);
  for (const char* target : {"reference", "cpu", "vulkan"}) {
    // Boundaries that do not end at the packed length.
    KernelInputs bad = in;
    bad.cu_seqlens_k.set(int64_t(kKvLens.size()), 500);
    const std::string message =
        message_of([&] { find_backend(target, Capability::Backward).backward(*ir, bad, r, 1); });
    BOOST_TEST(message.find("cu_seqlens_k") != std::string::npos, target << ": " << message);
  }
}

BOOST_AUTO_TEST_SUITE_END()
