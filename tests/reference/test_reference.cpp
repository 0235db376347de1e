// The reference backend against an independent attention (C++ lambdas for mask and score) on
// random inputs and shapes: masks, scores, buffers, GQA, LSE, fully masked rows, dtypes, errors.
#define BOOST_TEST_MODULE reference
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "backends/reference/EvalExpr.h"
#include "backends/reference/Reference.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "tests/support/NaiveAttention.h"

using namespace attn;
using namespace attn::test;

namespace {

// Lowers kernel `name` of `source`; fails the test on any diagnostic.
std::shared_ptr<const KernelIR> lower(const std::string& source, const std::string& name) {
  auto p = load_program_text("test.attn", source);
  BOOST_REQUIRE_MESSAGE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *p->kernel(name), diags);
  BOOST_REQUIRE(ir);
  return ir;
}

struct Shape {
  int B, Hq, Hkv, Lq, Lkv, D, Dv;
};

double max_diff(const HostTensor& t, const std::vector<double>& want) {
  double worst = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double a = t.get(i), b = want[static_cast<size_t>(i)];
    if (std::isinf(a) || std::isinf(b)) {
      worst = std::max(worst, a == b ? 0.0 : INFINITY);
      continue;
    }
    worst = std::max(worst, std::isnan(a) ? INFINITY : std::fabs(a - b));
  }
  return worst;
}

// Runs `kernel` of `source` and the naive attention on the same random inputs; compares.
void compare(const std::string& source, const std::string& kernel, const Shape& s, const MaskFn& mask,
             const ScoreFn& score, std::mt19937& rng, KernelInputs in = {}, ScalarType type = ScalarType::F32,
             double tol = 1e-6) {
  auto ir = lower(source, kernel);
  in.q = random_tensor(type, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(type, {s.B, s.Hkv, s.Lkv, s.D}, rng);
  in.v = random_tensor(type, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
  KernelOutputs out = run_reference(*ir, in);
  double scale = ir->options.scale ? *ir->options.scale : 1.0 / std::sqrt(double(s.D));
  NaiveResult want = naive_attention(in.q, in.k, in.v, mask, score, scale);
  BOOST_TEST(max_diff(out.out, want.out) <= tol, kernel << " out differs by " << max_diff(out.out, want.out));
  if (ir->options.lse) BOOST_TEST(max_diff(out.lse, want.lse) <= tol * 10, kernel << " lse differs");
  for (int64_t i = 0; i < out.out.numel(); ++i) BOOST_REQUIRE(!std::isnan(out.out.get(i)));
}

Shape random_shape(std::mt19937& rng) {
  std::uniform_int_distribution<int> len(1, 70), dim(1, 24), heads(1, 3), group(1, 3), batch(1, 2);
  Shape s;
  s.B = batch(rng);
  s.Hkv = heads(rng);
  s.Hq = s.Hkv * group(rng);
  s.Lq = len(rng);
  s.Lkv = len(rng);
  s.D = dim(rng);
  s.Dv = dim(rng);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(full_attention_random_shapes) {
  std::mt19937 rng(1);
  for (int i = 0; i < 20; ++i)
    compare(
        "kernel k { lse = true; }", "k", random_shape(rng), [](int, int, int, int) { return true; },
        [](double s, int, int, int, int) { return s; }, rng);
}

BOOST_AUTO_TEST_CASE(causal_and_windows) {
  std::mt19937 rng(2);
  const char* src = R"(
mask causal = q >= kv;
mask sliding(window: int) = causal && q - kv < window;
kernel c { mask = causal; lse = true; }
kernel w { mask = sliding(5); lse = true; }
kernel box { mask = abs(q - kv) <= 3; }
)";
  for (int i = 0; i < 10; ++i) {
    Shape s = random_shape(rng);
    compare(
        src, "c", s, [](int, int, int q, int kv) { return q >= kv; },
        [](double x, int, int, int, int) { return x; }, rng);
    compare(
        src, "w", s, [](int, int, int q, int kv) { return q >= kv && q - kv < 5; },
        [](double x, int, int, int, int) { return x; }, rng);
    compare(
        src, "box", s, [](int, int, int q, int kv) { return std::abs(q - kv) <= 3; },
        [](double x, int, int, int, int) { return x; }, rng);
  }
}

BOOST_AUTO_TEST_CASE(score_modifiers_and_buffers) {
  std::mt19937 rng(3);
  const char* src = R"(
score softcap(cap: float) = cap * tanh(score / cap);
score alibi(slopes: tensor<f32>[heads]) = score + slopes[h] * (kv - q);
mask docs(doc: tensor<i32>[len]) = doc[q] == doc[kv] && q >= kv;
kernel sc { score = softcap(2.0); scale = 0.5; }
kernel al(slopes: tensor<f32>[heads]) { score = alibi(slopes) |> softcap(3.0); lse = true; }
kernel pd(doc: tensor<i32>[len]) { mask = docs(doc); lse = true; }
)";
  for (int i = 0; i < 8; ++i) {
    Shape s = random_shape(rng);
    compare(
        src, "sc", s, [](int, int, int, int) { return true; },
        [](double x, int, int, int, int) { return 2.0 * std::tanh(x / 2.0); }, rng);
    KernelInputs in;
    in.buffers["slopes"] = random_tensor(ScalarType::F32, {s.Hq}, rng);
    const HostTensor& slopes = in.buffers["slopes"];
    compare(
        src, "al", s, [](int, int, int, int) { return true; },
        [&](double x, int, int h, int q, int kv) {
          double a = x + slopes.get(h) * (kv - q);
          return 3.0 * std::tanh(a / 3.0);
        },
        rng, in, ScalarType::F32, 1e-5);
    Shape sq = s;
    sq.Lkv = sq.Lq;
    KernelInputs docs;
    HostTensor doc(ScalarType::I32, {sq.Lq});
    int cur = 0;
    for (int j = 0; j < sq.Lq; ++j) {
      if (rng() % 7 == 0) ++cur;
      doc.set(j, cur);
    }
    docs.buffers["doc"] = doc;
    compare(
        src, "pd", sq, [&](int, int, int q, int kv) { return doc.get(q) == doc.get(kv) && q >= kv; },
        [](double x, int, int, int, int) { return x; }, rng, docs);
  }
}

BOOST_AUTO_TEST_CASE(fully_masked_rows_give_zero_and_minus_infinity) {
  std::mt19937 rng(4);
  auto ir = lower("kernel k { mask = q >= 3 && kv <= q; lse = true; }", "k");
  KernelInputs in;
  in.q = random_tensor(ScalarType::F32, {1, 2, 6, 4}, rng);
  in.k = random_tensor(ScalarType::F32, {1, 2, 6, 4}, rng);
  in.v = random_tensor(ScalarType::F32, {1, 2, 6, 4}, rng);
  KernelOutputs out = run_reference(*ir, in);
  for (int h = 0; h < 2; ++h)
    for (int q = 0; q < 6; ++q) {
      double lse = out.lse.get(h * 6 + q);
      if (q < 3) {
        BOOST_TEST(lse == -INFINITY);
        for (int d = 0; d < 4; ++d) BOOST_TEST(out.out.get((h * 6 + q) * 4 + d) == 0.0);
      } else {
        BOOST_TEST(std::isfinite(lse));
      }
    }
  // A score modifier that sends every key to -inf masks the row too.
  auto neg = lower("kernel k { score = -inf; lse = true; }", "k");
  KernelOutputs o2 = run_reference(*neg, in);
  for (int64_t i = 0; i < o2.out.numel(); ++i) BOOST_TEST(o2.out.get(i) == 0.0);
  for (int64_t i = 0; i < o2.lse.numel(); ++i) BOOST_TEST(o2.lse.get(i) == -INFINITY);
}

// causal_from_end against its formula with fewer, as many and more queries than keys; the rows
// that see no key (Lq > Lkv) give Out 0 and LSE -inf. A score reading the lengths too.
BOOST_AUTO_TEST_CASE(causal_from_end_aligns_the_last_query_with_the_last_key) {
  std::mt19937 rng(29);
  const char* src = R"(
import std.masks;
kernel e { mask = causal_from_end; lse = true; }
kernel s { mask = causal_from_end; score = score + float(kv_len - 2 * q_len) * 0.125; lse = true; }
)";
  const Shape shapes[] = {{2, 2, 1, 5, 37, 8, 8},
                          {1, 3, 3, 19, 19, 5, 7},
                          {1, 2, 2, 23, 9, 4, 4},
                          {1, 1, 1, 1, 64, 8, 8},
                          {1, 1, 1, 64, 1, 8, 8}};
  for (const Shape& sh : shapes) {
    BOOST_TEST_CONTEXT("Lq " << sh.Lq << ", Lkv " << sh.Lkv) {
      const int Lq = sh.Lq, Lkv = sh.Lkv;
      auto keep = [=](int, int, int q, int kv) { return q + (Lkv - Lq) >= kv; };
      compare(
          src, "e", sh, keep, [](double x, int, int, int, int) { return x; }, rng);
      compare(
          src, "s", sh, keep, [=](double x, int, int, int, int) { return x + (Lkv - 2 * Lq) * 0.125; }, rng);
      auto ir = lower(src, "e");
      KernelInputs in;
      in.q = random_tensor(ScalarType::F32, {1, 1, Lq, 4}, rng);
      in.k = random_tensor(ScalarType::F32, {1, 1, Lkv, 4}, rng);
      in.v = random_tensor(ScalarType::F32, {1, 1, Lkv, 4}, rng);
      KernelOutputs out = run_reference(*ir, in);
      for (int q = 0; q < Lq; ++q) {
        const bool blind = q + (Lkv - Lq) < 0;  // sees no key
        BOOST_TEST((out.lse.get(q) == -INFINITY) == blind, "q " << q);
        if (blind)
          for (int d = 0; d < 4; ++d) BOOST_TEST(out.out.get(q * 4 + d) == 0.0);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(int_arguments_given_as_numbers_must_fit_an_int) {
  // What Python passes (keyword arguments as numbers): the same rule as `--arg`, checked where
  // every target checks its inputs, so that no target saturates, wraps or rounds differently.
  auto ir = lower("kernel k(off: int) { mask = q - kv < off; }\n", "k");
  std::mt19937 rng(3);
  KernelInputs in;
  in.q = in.k = in.v = random_tensor(ScalarType::F32, {1, 1, 4, 8}, rng);
  for (double bad : {2147483648.0, 1e99, double(NAN), 5.5, -3.7, -2147483649.0, double(INFINITY)}) {
    in.scalars["off"] = bad;
    BOOST_CHECK_EXCEPTION(run_reference(*ir, in), InputError, [](const InputError& e) {
      return std::string(e.what()).find(
                 "argument 'off' is an int: it must be a whole number from "
                 "-2147483648 to 2147483647") != std::string::npos;
    });
  }
  for (double good : {2147483647.0, -2147483648.0, 3.0}) {
    in.scalars["off"] = good;
    BOOST_CHECK_NO_THROW(run_reference(*ir, in));
  }
}

BOOST_AUTO_TEST_CASE(half_precision_inputs) {
  std::mt19937 rng(5);
  for (ScalarType t : {ScalarType::F16, ScalarType::BF16}) {
    std::string src =
        std::string("kernel k { mask = q >= kv; dtype = ") + (t == ScalarType::F16 ? "f16" : "bf16") + "; }";
    Shape s{1, 2, 1, 33, 33, 16, 8};
    // Output rounding to f16/bf16 is the only difference from the double computation on the same
    // (already rounded) inputs.
    compare(
        src, "k", s, [](int, int, int q, int kv) { return q >= kv; },
        [](double x, int, int, int, int) { return x; }, rng, {}, t, t == ScalarType::F16 ? 2e-3 : 1.6e-2);
  }
}

BOOST_AUTO_TEST_CASE(scalar_arguments) {
  std::mt19937 rng(6);
  KernelInputs in;
  in.scalars["offset"] = 10;
  compare(
      "kernel k(offset: int) { mask = q + offset >= kv; }", "k", Shape{1, 1, 1, 5, 20, 8, 8},
      [](int, int, int q, int kv) { return q + 10 >= kv; }, [](double x, int, int, int, int) { return x; },
      rng, in);
}

BOOST_AUTO_TEST_CASE(buffer_index_out_of_range_is_an_error) {
  std::mt19937 rng(7);
  auto ir = lower("kernel k(doc: tensor<i32>[len]) { mask = doc[q] == doc[kv]; }", "k");
  KernelInputs in;
  in.q = random_tensor(ScalarType::F32, {1, 1, 8, 4}, rng);
  in.k = random_tensor(ScalarType::F32, {1, 1, 8, 4}, rng);
  in.v = random_tensor(ScalarType::F32, {1, 1, 8, 4}, rng);
  in.buffers["doc"] = HostTensor(ScalarType::I32, {5});
  try {
    run_reference(*ir, in);
    BOOST_FAIL("expected an out-of-range error");
  } catch (const EvalError& e) {
    std::string m = e.what();
    BOOST_TEST(m.find("buffer 'doc' index 5 is out of range [0, 5)") != std::string::npos, m);
  }
}

BOOST_AUTO_TEST_CASE(input_validation_messages) {
  std::mt19937 rng(8);
  auto ir = lower("kernel k(doc: tensor<i32>[len]) { mask = doc[q] == doc[kv]; head_dim = 4; }", "k");
  KernelInputs good;
  good.q = random_tensor(ScalarType::F32, {1, 2, 8, 4}, rng);
  good.k = random_tensor(ScalarType::F32, {1, 2, 8, 4}, rng);
  good.v = random_tensor(ScalarType::F32, {1, 2, 8, 4}, rng);
  good.buffers["doc"] = HostTensor(ScalarType::I32, {8});
  BOOST_CHECK_NO_THROW(run_reference(*ir, good));
  auto expect = [&](KernelInputs in, const std::string& fragment) {
    try {
      run_reference(*ir, in);
      BOOST_FAIL("expected an input error: " + fragment);
    } catch (const InputError& e) {
      BOOST_TEST(std::string(e.what()).find(fragment) != std::string::npos, e.what());
    }
  };
  KernelInputs bad = good;
  bad.buffers.clear();
  expect(bad, "missing tensor argument 'doc'");
  bad = good;
  bad.buffers["doc"] = HostTensor(ScalarType::F32, {8});
  expect(bad, "argument 'doc' must be i32, got f32");
  bad = good;
  bad.q = random_tensor(ScalarType::F32, {1, 3, 8, 4}, rng);
  expect(bad, "must be a multiple of the key/value heads");
  bad = good;
  bad.q = random_tensor(ScalarType::F32, {1, 2, 8}, rng);
  expect(bad, "q must have 4 dimensions");
  bad = good;
  bad.q = random_tensor(ScalarType::F32, {1, 2, 8, 5}, rng);
  bad.k = random_tensor(ScalarType::F32, {1, 2, 8, 5}, rng);
  expect(bad, "kernel 'k' has head_dim 4 but q has 5");
  bad = good;
  bad.v = random_tensor(ScalarType::F16, {1, 2, 8, 4}, rng);
  expect(bad, "v must be f32");
}
