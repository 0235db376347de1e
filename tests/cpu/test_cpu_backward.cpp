// The CPU backward (run_cpu_backward) against the reference backward (double) on random inputs:
// lengths that are not tile or chunk multiples, GQA, value_dim != head_dim, f16/bf16 I/O, fully
// masked rows, buffer gradients (ALiBi slopes, a relative-bias table read at two indices), masks
// whose key blocks are skipped (causal, sliding window, documents by their run-time key ranges),
// dLSE; bit-identical gradients across runs and thread counts; deterministic, warning-free source.
#define BOOST_TEST_MODULE cpu_backward
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kProgram = R"attn(
import std.masks;
mask sliding(window: int) = causal && q - kv < window;
score alibi(slopes: tensor<f32>[heads]) = score + slopes[h] * (kv - q);

kernel dense { lse = true; }
kernel causal_plain { mask = causal; }
kernel window37 { mask = sliding(37); }
kernel documents(doc: tensor<i32>[len]) { mask = causal && doc[q] == doc[kv]; }
kernel alibi_causal(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); }
kernel softcap { score = 20.0 * tanh(score / 20.0); }
kernel rel_bias(table: tensor<f32>[heads, rel]) {
  mask = q - kv < 40 && kv - q < 40;
  score = score + table[h, q - kv + 90] * 0.5 + table[h, kv - q + 90] * 0.25;
}
kernel first_rows { mask = q < 3 && causal; lse = true; }
// The language issue's constructs: bit operators in the mask, erf and bounded reductions in the
// score (a max whose gradient goes to one term, a sum reading a buffer at a per-head index).
kernel constructs(slopes: tensor<f32>[heads]) {
  mask = (q ^ kv) < 48 || q >= kv;
  score = score + 0.5 * erf(score) + max(j < 3: score * float(j) - float(j * j))
        + sum(j < 4: tanh(score * slopes[h]) * float(j));
}
kernel dense_f16 { dtype = f16; }
kernel causal_bf16 { mask = causal; dtype = bf16; }
// The call's lengths in the mask and the score.
kernel from_end(slopes: tensor<f32>[heads]) {
  mask = causal_from_end;
  score = score + slopes[h] * float(kv_len - q_len + q - kv);
  lse = true;
}
kernel from_end_bf16 { mask = causal_from_end; dtype = bf16; }
)attn";

struct Shape {
  int64_t B, Hq, Hkv, Lq, Lk, D, Dv;
};

KernelInputs make_inputs(const KernelIR& ir, const Shape& s, std::mt19937& rng) {
  ScalarType t = io_scalar_type(ir.options.dtype);
  KernelInputs in;
  in.q = random_tensor(t, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(t, {s.B, s.Hkv, s.Lk, s.D}, rng);
  in.v = random_tensor(t, {s.B, s.Hkv, s.Lk, s.Dv}, rng);
  for (const KernelArg& a : ir.args) {
    if (a.name == "doc") {
      HostTensor doc(ScalarType::I32, {std::max(s.Lq, s.Lk)});
      for (int64_t i = 0; i < doc.numel(); ++i) doc.set(i, double(i / 45));  // documents of 45 tokens
      in.buffers[a.name] = doc;
    } else if (a.name == "slopes") {
      HostTensor slopes = random_tensor(ScalarType::F32, {s.Hq}, rng);
      for (int64_t i = 0; i < slopes.numel(); ++i) slopes.set(i, 0.05 * slopes.get(i));
      in.buffers[a.name] = slopes;
    } else if (a.name == "table") {
      in.buffers[a.name] = random_tensor(ScalarType::F32, {s.Hq, 181}, rng);
    }
  }
  return in;
}

GradientRequest make_request(const KernelIR& ir, const KernelInputs& in, std::mt19937& rng, bool with_dlse) {
  GradientRequest r;
  r.dout = random_tensor(io_scalar_type(ir.options.dtype),
                         {in.q.shape[0], in.q.shape[1], in.q.shape[2], in.v.shape[3]}, rng);
  if (with_dlse) r.dlse = random_tensor(ScalarType::F32, {in.q.shape[0], in.q.shape[1], in.q.shape[2]}, rng);
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Buffer && a.elem == ElemType::F32) r.buffers.push_back(a.name);
  return r;
}

/// |cpu - ref| within `tol` times the reference's largest magnitude (at least 1).
void check_close(const HostTensor& cpu, const HostTensor& ref, double tol, const std::string& what) {
  BOOST_REQUIRE_EQUAL(cpu.numel(), ref.numel());
  double scale = 1.0;
  for (int64_t i = 0; i < ref.numel(); ++i) scale = std::max(scale, std::abs(ref.get(i)));
  double worst = max_abs_diff(cpu, ref);
  BOOST_CHECK_MESSAGE(worst <= tol * scale,
                      what << ": max |cpu - reference| = " << worst << " (scale " << scale << ")");
}

bool same_bits(const HostTensor& a, const HostTensor& b) { return a.bytes == b.bytes; }

void check_kernel(const std::string& name, const Shape& s, bool with_dlse = false, uint32_t seed = 1) {
  BOOST_TEST_CONTEXT(name << " B=" << s.B << " Hq=" << s.Hq << " Hkv=" << s.Hkv << " Lq=" << s.Lq
                          << " Lk=" << s.Lk << " D=" << s.D << " Dv=" << s.Dv) {
    auto ir = lower_text(kProgram, name);
    std::mt19937 rng(seed);
    KernelInputs in = make_inputs(*ir, s, rng);
    GradientRequest request = make_request(*ir, in, rng, with_dlse && ir->options.lse);
    KernelGradients cpu = run_cpu_backward(*ir, in, request, 2);
    KernelGradients ref = run_reference_backward(*ir, in, request, 2);
    const double tol = ir->options.dtype == DType::F32 ? 2e-4 : ir->options.dtype == DType::F16 ? 4e-3 : 3e-2;
    check_close(cpu.dq, ref.dq, tol, "dq");
    check_close(cpu.dk, ref.dk, tol, "dk");
    check_close(cpu.dv, ref.dv, tol, "dv");
    for (const auto& [buffer, grad] : ref.buffers)
      check_close(cpu.buffers.at(buffer), grad, 1e-3, "d" + buffer);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(against_the_reference) {
  check_kernel("dense", {1, 2, 2, 45, 70, 32, 32}, true);
  check_kernel("dense", {2, 4, 2, 33, 17, 16, 48});           // GQA, Dv != D
  check_kernel("causal_plain", {1, 2, 1, 600, 600, 64, 64});  // several key chunks, skipped blocks
  check_kernel("window37", {1, 2, 2, 130, 130, 24, 40});
  check_kernel("documents", {1, 2, 2, 200, 200, 32, 32});
  check_kernel("softcap", {1, 3, 1, 50, 61, 40, 24});
  // Head dims above kMaxCallHeadDim stay open (the others are fixed to the call's): the open-dims
  // backward, which `attnc compile` emits for such kernels, against the reference too.
  check_kernel("dense", {1, 1, 1, 9, 12, kMaxCallHeadDim + 8, 16});
}

BOOST_AUTO_TEST_CASE(call_lengths) {
  check_kernel("from_end", {1, 2, 1, 70, 333, 32, 32}, true);  // chunked prefill
  check_kernel("from_end", {1, 2, 2, 90, 40, 16, 16}, true);   // more queries than keys
  check_kernel("from_end_bf16", {1, 2, 1, 100, 600, 64, 64});
}

BOOST_AUTO_TEST_CASE(buffer_gradients) {
  check_kernel("alibi_causal", {2, 4, 2, 77, 77, 32, 32});
  check_kernel("rel_bias", {1, 2, 2, 90, 90, 16, 16});
}

BOOST_AUTO_TEST_CASE(bit_operators_erf_and_reductions) {
  check_kernel("constructs", {1, 2, 2, 70, 90, 16, 24});
}

BOOST_AUTO_TEST_CASE(fully_masked_rows_and_dlse) {
  auto ir = lower_text(kProgram, "first_rows");
  std::mt19937 rng(3);
  KernelInputs in = make_inputs(*ir, {1, 2, 2, 40, 40, 16, 16}, rng);
  GradientRequest request = make_request(*ir, in, rng, true);
  KernelGradients cpu = run_cpu_backward(*ir, in, request, 2);
  for (const HostTensor* t : {&cpu.dq, &cpu.dk, &cpu.dv})
    for (int64_t i = 0; i < t->numel(); ++i) BOOST_REQUIRE(std::isfinite(t->get(i)));
  check_kernel("first_rows", {1, 2, 2, 40, 40, 16, 16}, true, 3);
}

BOOST_AUTO_TEST_CASE(half_precision_io) {
  check_kernel("dense_f16", {1, 2, 1, 40, 50, 64, 64});
  check_kernel("causal_bf16", {1, 2, 2, 70, 70, 32, 32});
}

BOOST_AUTO_TEST_CASE(bit_identical_runs) {
  auto ir = lower_text(kProgram, "alibi_causal");
  std::mt19937 rng(7);
  KernelInputs in = make_inputs(*ir, {1, 4, 2, 700, 700, 32, 32}, rng);
  GradientRequest request = make_request(*ir, in, rng, false);
  KernelGradients a = run_cpu_backward(*ir, in, request, 2);
  KernelGradients b = run_cpu_backward(*ir, in, request, 2);
  KernelGradients c = run_cpu_backward(*ir, in, request, 3);
  for (const KernelGradients* x : {&b, &c}) {
    BOOST_CHECK(same_bits(a.dq, x->dq));
    BOOST_CHECK(same_bits(a.dk, x->dk));
    BOOST_CHECK(same_bits(a.dv, x->dv));
    BOOST_CHECK(same_bits(a.buffers.at("slopes"), x->buffers.at("slopes")));
  }
}

BOOST_AUTO_TEST_CASE(emitted_source_is_deterministic_and_warning_free) {
  // rel_bias: buffer gradients at two reads; documents: the run-time key ranges' code.
  for (const char* name : {"rel_bias", "documents"}) {
    auto ir = lower_text(kProgram, name);
    // Every vector path, built without -m flags: the paths' target pragmas select their ISAs.
    CpuKernelSource a = generate_cpu_backward(*ir, all_cpu_paths());
    CpuKernelSource b = generate_cpu_backward(*ir, all_cpu_paths());
    BOOST_TEST((a.source == b.source && a.header == b.header));
    check_compiles_warning_free(a, name);
  }
}
