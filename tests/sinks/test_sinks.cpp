// Learnable sinks (`sink = EXPR;`) and row maxima (`return_max = true;`), docs/language.md "Sinks
// and row maxima": the reference against the definition written out here (a virtual key of value 0),
// the CPU backend (1 and 2 threads, so split-KV merges too; f32 and the bf16 paths) and the SPIR-V
// backend on lavapipe (sinks and row maxima) against the reference on shapes that are not tile multiples,
// fully masked rows, `sink = -inf` as no sink, the backward against finite differences, and the errors; the
// cuda target too where a GPU is present.
#define BOOST_TEST_MODULE sinks
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "backends/Backend.h"
#include "backends/reference/Reference.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/CudaDriver.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/MesaCache.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// The CPU kernels' cache is the one ctest names (ATTNC_CACHE_DIR), kept between runs.
BOOST_TEST_GLOBAL_FIXTURE(MesaCache);

const char* kProgram = R"attn(
import std.masks;
kernel per_head(sinks: tensor<f32>[heads]) { mask = causal; sink = sinks[h]; lse = true; return_max = true; }
// Rows q < 3 see no key: Out 0, LSE = the sink, max -inf.
kernel empty_rows(sinks: tensor<f32>[heads], c: float) {
  mask = kv < q - 3;
  sink = sinks[h] * c + q * 0.01;
  lse = true;
  return_max = true;
}
kernel softcapped(sinks: tensor<f32>[heads], bias: tensor<f32>[len]) {
  mask = q >= kv && q - kv < 300;
  score = 30.0 * tanh((score + bias[kv]) / 30.0);
  sink = sinks[h] + bias[q];
  lse = true;
}
kernel no_sink { mask = causal; lse = true; }
kernel minus_inf_sink { mask = causal; sink = -inf; lse = true; }
kernel per_head_bf16(sinks: tensor<f32>[heads]) { mask = causal; sink = sinks[h]; dtype = bf16; lse = true; return_max = true; }
kernel far_sink(sinks: tensor<f32>[heads]) { sink = sinks[h + 7]; }
kernel per_head_lse(sinks: tensor<f32>[heads], c: float) { mask = kv < q - 3; sink = sinks[h] * c; lse = true; }
)attn";

struct Shape {
  int Hq, Hkv, Lq, Lk, D;
};
// Lengths that are not tile multiples, Lq != Lk both ways, decoding over many keys, GQA.
const Shape kShapes[] = {{2, 2, 1, 1, 16},     {4, 2, 77, 77, 16},  {4, 2, 200, 333, 32},
                         {2, 1, 513, 129, 16}, {8, 2, 1, 3001, 64}, {4, 4, 70, 2600, 16}};

KernelInputs inputs(const KernelIR& ir, const Shape& s, ScalarType t, std::mt19937& rng) {
  KernelInputs in = random_attention_inputs(t, {1, s.Hq, s.Hkv, s.Lq, s.Lk, s.D, s.D}, rng);
  std::normal_distribution<double> n(0.0, 1.5);
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      in.scalars[a.name] = 0.5;
      continue;
    }
    HostTensor b(ScalarType::F32, {a.name == "sinks" ? int64_t(s.Hq) : int64_t(std::max(s.Lq, s.Lk))});
    for (int64_t i = 0; i < b.numel(); ++i) b.set(i, a.name == "sinks" ? n(rng) : 0.3 * n(rng));
    in.buffers[a.name] = b;
  }
  return in;
}

/// The definition: each row's softmax over its kept keys and one more key, of logit `sink(h, q)`
/// and value 0; the row max of the kept keys alone.
void check_definition(const KernelInputs& in, const KernelOutputs& got,
                      const std::function<bool(int, int)>& mask,
                      const std::function<double(int, int)>& sink) {
  const int Hq = int(in.q.shape[1]), Lq = int(in.q.shape[2]), D = int(in.q.shape[3]);
  const int Hkv = int(in.k.shape[1]), Lk = int(in.k.shape[2]);
  double worst = 0;
  for (int h = 0; h < Hq; ++h)
    for (int i = 0; i < Lq; ++i) {
      const int hk = h / (Hq / Hkv);
      std::vector<double> s(size_t(Lk), -kInf);
      double m = -kInf;
      for (int j = 0; j < Lk; ++j) {
        if (!mask(i, j)) continue;
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += in.q.get((int64_t(h) * Lq + i) * D + d) * in.k.get((int64_t(hk) * Lk + j) * D + d);
        s[size_t(j)] = dot / std::sqrt(double(D));
        m = std::max(m, s[size_t(j)]);
      }
      const double logit = sink(h, i), top = std::max(m, logit);
      double z = std::exp(logit - top);
      std::vector<double> o(size_t(D), 0.0);
      for (int j = 0; j < Lk; ++j) {
        if (s[size_t(j)] == -kInf) continue;
        const double w = std::exp(s[size_t(j)] - top);
        z += w;
        for (int d = 0; d < D; ++d) o[size_t(d)] += w * in.v.get((int64_t(hk) * Lk + j) * D + d);
      }
      const int64_t row = int64_t(h) * Lq + i;
      for (int d = 0; d < D; ++d)
        worst = std::max(worst, std::fabs(got.out.get(row * D + d) - o[size_t(d)] / z));
      worst = std::max(worst, std::fabs(got.lse.get(row) - (top + std::log(z))));
      if (m == -kInf)
        BOOST_TEST(got.max.get(row) == -kInf);
      else
        worst = std::max(worst, std::fabs(got.max.get(row) - m));
    }
  BOOST_TEST(worst < 1e-5);
}

std::shared_ptr<const KernelIR> lower_error(const std::string& text, std::string& message) {
  auto p = load_program_text("bad.attn", text);
  DiagnosticEngine lowering;
  std::shared_ptr<const KernelIR> ir;
  if (!p->diags.has_errors()) ir = lower_kernel(*p, *p->kernels().front(), lowering);
  message = render_diagnostics(p->diags, p->sources) + render_diagnostics(lowering, p->sources);
  return ir;
}

}  // namespace

BOOST_AUTO_TEST_CASE(reference_follows_the_definition) {
  std::mt19937 rng(7);
  for (const Shape& s : {kShapes[1], kShapes[2], kShapes[3]}) {
    auto ir = lower_text(kProgram, "per_head");
    KernelInputs in = inputs(*ir, s, ScalarType::F32, rng);
    const HostTensor sinks = in.buffers.at("sinks");
    check_definition(
        in, run_reference(*ir, in, 2), [](int i, int j) { return j <= i; },
        [&](int h, int) { return sinks.get(h); });
    auto empty = lower_text(kProgram, "empty_rows");
    KernelInputs e = inputs(*empty, s, ScalarType::F32, rng);
    const HostTensor es = e.buffers.at("sinks");
    const KernelOutputs got = run_reference(*empty, e, 2);
    check_definition(
        e, got, [](int i, int j) { return j < i - 3; },
        [&](int h, int i) { return double(float(float(es.get(h) * 0.5) + float(i * 0.01))); });
    // A row no key reaches: Out 0 and LSE the sink.
    BOOST_TEST(got.out.get(0) == 0.0);
    BOOST_TEST(std::fabs(got.lse.get(0) - es.get(0) * 0.5) < 1e-6);
  }
}

BOOST_AUTO_TEST_CASE(cpu_matches_the_reference) {
  std::mt19937 rng(11);
  for (const char* name : {"per_head", "empty_rows", "softcapped", "per_head_bf16"}) {
    const CpuCompiled& c = compile_cpu(kProgram, name);
    const bool bf16 = c.ir->options.dtype == DType::BF16;
    for (const Shape& s : kShapes) {
      KernelInputs in = inputs(*c.ir, s, bf16 ? ScalarType::BF16 : ScalarType::F32, rng);
      const KernelOutputs want = run_reference(*c.ir, in, 2);
      for (int threads : {1, 2}) {
        const std::string what = std::string(name) + " Hq=" + std::to_string(s.Hq) +
                                 " Lq=" + std::to_string(s.Lq) + " Lk=" + std::to_string(s.Lk) +
                                 " threads=" + std::to_string(threads);
        const KernelOutputs got = find_backend("cpu", Capability::Run).run(*c.ir, in, threads);
        BOOST_TEST(max_abs_diff(got.out, want.out) < (bf16 ? 2e-2 : 2e-4), what);
        BOOST_TEST(max_abs_diff(got.lse, want.lse) < (bf16 ? 2e-2 : 2e-4), what);
        if (c.ir->options.return_max)
          BOOST_TEST(max_abs_diff(got.max, want.max) < (bf16 ? 2e-2 : 2e-4), what);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(vulkan_matches_the_reference) {
  std::mt19937 rng(13);
  for (const char* name : {"per_head_lse", "softcapped", "per_head", "empty_rows"}) {
    auto ir = lower_text(kProgram, name);
    for (const Shape& s : {kShapes[0], kShapes[1], kShapes[2], kShapes[4]}) {
      KernelInputs in = inputs(*ir, s, ScalarType::F32, rng);
      const KernelOutputs want = run_reference(*ir, in, 2);
      const KernelOutputs got = find_backend("vulkan", Capability::Run).run(*ir, in, 0);
      const std::string what =
          std::string(name) + " Lq=" + std::to_string(s.Lq) + " Lk=" + std::to_string(s.Lk);
      BOOST_TEST(max_abs_diff(got.out, want.out) < 2e-4, what);
      BOOST_TEST(max_abs_diff(got.lse, want.lse) < 2e-4, what);
      if (ir->options.return_max) BOOST_TEST(max_abs_diff(got.max, want.max) < 2e-4, what);
    }
  }
}

// On a GPU (skipped without one): Out, the LSE and the row maxima of the cuda target against the
// reference, fully masked rows (Out 0, LSE the sink) included, and an out-of-range sink read as an
// error. The tensor-core kernels' sinks are in tests/cuda/kernels.attn (test_cuda_gpu, the kit).
BOOST_AUTO_TEST_CASE(cuda_matches_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  std::mt19937 rng(17);
  for (const char* name : {"per_head", "empty_rows", "per_head_bf16"}) {
    auto ir = lower_text(kProgram, name);
    const bool bf16 = ir->options.dtype == DType::BF16;
    for (const Shape& s : kShapes) {
      KernelInputs in = inputs(*ir, s, bf16 ? ScalarType::BF16 : ScalarType::F32, rng);
      const KernelOutputs want = run_reference(*ir, in, 2);
      const KernelOutputs got = find_backend("cuda", Capability::Run).run(*ir, in, 0);
      const std::string what =
          std::string(name) + " Lq=" + std::to_string(s.Lq) + " Lk=" + std::to_string(s.Lk);
      BOOST_TEST(max_abs_diff(got.out, want.out) < (bf16 ? 2e-2 : 2e-3), what);
      BOOST_TEST(max_abs_diff(got.lse, want.lse) < (bf16 ? 2e-2 : 2e-3), what);
      if (ir->options.return_max) BOOST_TEST(max_abs_diff(got.max, want.max) < (bf16 ? 2e-2 : 2e-3), what);
    }
  }
  auto far = lower_text(kProgram, "far_sink");
  KernelInputs in = inputs(*far, kShapes[1], ScalarType::F32, rng);
  BOOST_CHECK_EXCEPTION(
      find_backend("cuda", Capability::Run).run(*far, in, 0), std::exception,
      [](const std::exception& e) { return std::string(e.what()).find("sinks") != std::string::npos; });
}

BOOST_AUTO_TEST_CASE(minus_inf_sink_is_no_sink) {
  std::mt19937 rng(3);
  for (const Shape& s : {kShapes[1], kShapes[4]}) {
    auto none = lower_text(kProgram, "no_sink"), inf = lower_text(kProgram, "minus_inf_sink");
    KernelInputs in = inputs(*none, s, ScalarType::F32, rng);
    for (const char* target : {"reference", "cpu", "vulkan"}) {
      const Backend& b = find_backend(target, Capability::Run);
      const KernelOutputs x = b.run(*none, in, 2), y = b.run(*inf, in, 2);
      BOOST_TEST(max_abs_diff(x.out, y.out) == 0.0, target);
      BOOST_TEST(max_abs_diff(x.lse, y.lse) == 0.0, target);
    }
  }
}

BOOST_AUTO_TEST_CASE(backward_matches_finite_differences_and_the_cpu) {
  std::mt19937 rng(5);
  auto ir = lower_text(kProgram, "softcapped");
  KernelInputs in = inputs(*ir, {4, 2, 45, 61, 16}, ScalarType::F32, rng);
  GradientRequest r;
  r.dout = random_tensor(ScalarType::F32, in.q.shape, rng);
  r.dlse = random_tensor(ScalarType::F32, {1, 4, 45}, rng);
  r.buffers = {"sinks", "bias"};
  const KernelGradients ref = find_backend("reference", Capability::Backward).backward(*ir, in, r, 2);
  // d loss / d sinks[h] and d bias[i] by central differences of the reference's forward.
  auto loss = [&](const KernelInputs& x) { return reference_loss(*ir, x, r); };
  for (auto [buffer, element] : {std::pair{"sinks", 1}, {"sinks", 3}, {"bias", 2}, {"bias", 40}}) {
    KernelInputs up = in, down = in;
    const double eps = 1e-2, x = in.buffers.at(buffer).get(element);
    up.buffers.at(buffer).set(element, x + eps);
    down.buffers.at(buffer).set(element, x - eps);
    const double fd = (loss(up) - loss(down)) / (2 * eps), got = ref.buffers.at(buffer).get(element);
    BOOST_TEST(std::fabs(fd - got) < 2e-3 * std::max(1.0, std::fabs(fd)),
               buffer << "[" << element << "] " << got << " vs " << fd);
  }
  for (auto [target, threads] : {std::pair{"cpu", 1}, {"cpu", 2}, {"vulkan", 0}}) {
    const KernelGradients got = find_backend(target, Capability::Backward).backward(*ir, in, r, threads);
    BOOST_TEST(max_abs_diff(got.dq, ref.dq) < 2e-4, target);
    BOOST_TEST(max_abs_diff(got.dk, ref.dk) < 2e-4, target);
    BOOST_TEST(max_abs_diff(got.dv, ref.dv) < 2e-4, target);
    BOOST_TEST(max_abs_diff(got.buffers.at("sinks"), ref.buffers.at("sinks")) < 2e-4, target);
    BOOST_TEST(max_abs_diff(got.buffers.at("bias"), ref.buffers.at("bias")) < 2e-4, target);
  }
}

BOOST_AUTO_TEST_CASE(out_of_range_sink_reads_are_errors) {
  std::mt19937 rng(9);
  auto ir = lower_text(kProgram, "far_sink");
  KernelInputs in = inputs(*ir, kShapes[1], ScalarType::F32, rng);
  for (const char* target : {"reference", "cpu", "vulkan"}) {
    bool threw = false;
    try {
      find_backend(target, Capability::Run).run(*ir, in, 2);
    } catch (const std::exception& e) {
      threw = true;
      BOOST_TEST(std::string(e.what()).find("sinks") != std::string::npos, target << ": " << e.what());
    }
    BOOST_TEST(threw, target);
  }
}

BOOST_AUTO_TEST_CASE(errors_are_located) {
  std::string message;
  BOOST_TEST(!lower_error("kernel k(s: tensor<f32>[n]) { sink = s[kv]; }", message));
  BOOST_TEST(
      message.find("bad.attn:1:38: error: the sink is per row: it cannot read `kv`") != std::string::npos,
      message);
  BOOST_TEST(!lower_error("kernel k { sink = score; }", message));
  BOOST_TEST(message.find("bad.attn:1:19: error:") != std::string::npos, message);
  BOOST_TEST(!lower_error("kernel k { sink = q > 3; }", message));
  BOOST_TEST(message.find("kernel option 'sink' expects an f32 expression") != std::string::npos, message);
  BOOST_TEST(!lower_error("kernel k { return_max = 1; }", message));
  BOOST_TEST(message.find("return_max must be true or false") != std::string::npos, message);
  // Every target emits both.
  auto ir = lower_text(kProgram, "per_head");
  for (const char* target : {"cpu", "cuda", "vulkan"})
    BOOST_CHECK_NO_THROW(find_backend(target, Capability::Compile).emit(*ir, {}));
}
