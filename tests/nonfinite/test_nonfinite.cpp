// One answer on every target where scores are not finite or masks compare booleans: the reference,
// the CPU backend (1 and 2 threads, so split-KV merges too) and the SPIR-V backend on lavapipe,
// each against the rule of docs/language.md ("Non-finite values") written out here independently
// (NaiveAttention.h), on kernels whose masked scores are NaN/Inf and on every way of producing and
// comparing a bool with each side uniform or varying.
#define BOOST_TEST_MODULE nonfinite
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

#include "backends/reference/Reference.h"
#include "backends/spirv/RunVulkan.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/MesaCache.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

// The CPU kernels' cache is the one ctest names (ATTNC_CACHE_DIR), kept between runs.
BOOST_TEST_GLOBAL_FIXTURE(MesaCache);

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Largest difference where NaN must meet NaN and an infinity the same infinity.
double diff(const HostTensor& got, const std::vector<double>& want) {
  BOOST_REQUIRE_EQUAL(size_t(got.numel()), want.size());
  double worst = 0;
  for (int64_t i = 0; i < got.numel(); ++i) {
    double g = got.get(i), w = want[size_t(i)];
    if (std::isnan(w) || std::isnan(g)) {
      if (std::isnan(w) != std::isnan(g)) return kInf;
    } else if (std::isinf(w) || std::isinf(g)) {
      if (g != w) return kInf;
    } else {
      worst = std::max(worst, std::fabs(g - w));
    }
  }
  return worst;
}

/// The rule of docs/language.md over one row's kept scores, independent of attnc's code.
NaiveResult rule(const HostTensor& q, const HostTensor& k, const HostTensor& v, const MaskFn& mask,
                 const ScoreFn& score) {
  const int B = int(q.shape[0]), Hq = int(q.shape[1]), Lq = int(q.shape[2]), D = int(q.shape[3]);
  const int Hkv = int(k.shape[1]), Lk = int(k.shape[2]), Dv = int(v.shape[3]);
  const double scale = 1.0 / std::sqrt(double(D));
  NaiveResult r;
  r.out.assign(size_t(B) * Hq * Lq * Dv, 0.0);
  r.lse.assign(size_t(B) * Hq * Lq, -kInf);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < Hq; ++h)
      for (int i = 0; i < Lq; ++i) {
        const int hk = h / (Hq / Hkv);
        std::vector<double> s(size_t(Lk), -kInf);
        bool nan = false;
        double m = -kInf;
        for (int j = 0; j < Lk; ++j) {
          if (!mask(b, h, i, j)) continue;
          double dot = 0;
          for (int d = 0; d < D; ++d)
            dot += q.get(((int64_t(b) * Hq + h) * Lq + i) * D + d) *
                   k.get(((int64_t(b) * Hkv + hk) * Lk + j) * D + d);
          double x = score(double(float(scale * dot)), b, h, i, j);
          x = double(float(x));
          if (std::isnan(x)) nan = true;
          s[size_t(j)] = std::isnan(x) ? -kInf : x;
          m = std::max(m, s[size_t(j)]);
        }
        const size_t row = (size_t(b) * Hq + h) * Lq + i;
        if (nan) {
          for (int d = 0; d < Dv; ++d) r.out[row * Dv + d] = kNaN;
          r.lse[row] = kNaN;
          continue;
        }
        if (m == -kInf) continue;
        double z = 0;
        std::vector<double> acc(size_t(Dv), 0.0);
        for (int j = 0; j < Lk; ++j) {
          double w = m == kInf ? (s[size_t(j)] == kInf ? 1.0 : 0.0) : std::exp(s[size_t(j)] - m);
          if (w == 0) continue;
          z += w;
          for (int d = 0; d < Dv; ++d)
            acc[size_t(d)] += w * v.get(((int64_t(b) * Hkv + hk) * Lk + j) * Dv + d);
        }
        for (int d = 0; d < Dv; ++d) r.out[row * Dv + d] = acc[size_t(d)] / z;
        r.lse[row] = m + std::log(z);
      }
  return r;
}

struct Case {
  const char* name;  // kernel name in kProgram
  MaskFn mask;
  ScoreFn score;
};

const char* kProgram = R"attn(
import std.masks;
// The issue's reproducers: scores that are NaN or +-Inf exactly where the mask is false.
kernel sqrtdist { mask = causal; score = score - sqrt(float(q - kv)); lse = true; }
kernel logdist { mask = causal; score = score - log(float(q - kv + 1)); lse = true; }
kernel bias_where_masked(bias: tensor<f32>[len]) { mask = kv < 40; score = score + bias[kv]; lse = true; }
// Non-finite scores of kept keys.
kernel plus_inf_one { score = kv == 5 ? inf : score; lse = true; }
kernel plus_inf_every_7th { mask = causal; score = kv % 7 == 0 ? inf : score; lse = true; }
kernel minus_inf_all { score = -inf; lse = true; }
kernel nan_some { mask = causal; score = kv == 3 ? sqrt(score - 1000.0) : score; lse = true; }
kernel inf_late { score = kv == 2500 || kv == 60 ? inf : score; lse = true; }
kernel nan_late { score = kv == 2900 ? sqrt(score - 1000.0) : score; lse = true; }
kernel plain { mask = causal; lse = true; }
kernel softcapped { mask = causal; score = 20.0 * tanh(score / 20.0); lse = true; }
// Booleans compared and chosen between, each side uniform or varying.
kernel eq_q_kv { mask = (q < 40) == (kv < 40); lse = true; }
kernel ne_q_kv { mask = (q < 40) != (kv < 40); lse = true; }
kernel eq_kv_const { mask = (kv < 40) == true; lse = true; }
kernel eq_q_const { mask = (q < 40) == true; lse = true; }
kernel ne_kv_false { mask = (kv % 3 == 0) != false; lse = true; }
kernel eq_kv_param(flag: bool) { mask = (kv < 30) == flag; lse = true; }
kernel eq_q_param(flag: bool) { mask = flag == (q % 2 == 0); lse = true; }
kernel sel_kv_q { mask = (kv % 3 == 0) ? (q < 40) : (kv < 50); lse = true; }
kernel sel_q_uniform { mask = (q % 2 == 0) ? (kv < 30) : true; lse = true; }
kernel sel_kv_uniform(flag: bool) { mask = (kv % 2 == 0) ? flag : (kv < 30); lse = true; }
kernel sel_then_eq { mask = ((kv % 2 == 0) ? (q < 40) : true) == (kv < 60); lse = true; }
kernel not_eq { mask = !(kv < 40) == (q < 40); lse = true; }
// The bf16 matrix paths (amx, avx512bf16): the same rule with the products in bf16.
kernel plain_bf16 { mask = causal; dtype = bf16; lse = true; }
kernel dense_bf16 { dtype = bf16; lse = true; }
kernel bias_where_masked_bf16(bias: tensor<f32>[len]) { mask = kv < 40; score = score + bias[kv]; dtype = bf16; lse = true; }
kernel nan_some_bf16 { mask = causal; score = kv == 3 ? sqrt(score - 1000.0) : score; dtype = bf16; lse = true; }
kernel plus_inf_every_7th_bf16 { mask = causal; score = kv % 7 == 0 ? inf : score; dtype = bf16; lse = true; }
kernel minus_inf_all_bf16 { score = -inf; dtype = bf16; lse = true; }
kernel block_diffusion(n: int) {
  mask = (q < n) == (kv < n) ? (q // 16 == kv // 16 || kv < q) : kv < n;
  lse = true;
}
)attn";

const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    auto causal = [](int, int, int q, int kv) { return kv <= q; };
    auto id = [](double s, int, int, int, int) { return s; };
    std::vector<Case> c = {
        {"sqrtdist", causal,
         [](double s, int, int, int q, int kv) { return s - std::sqrt(double(float(q - kv))); }},
        {"logdist", causal,
         [](double s, int, int, int q, int kv) { return s - std::log(double(q - kv + 1)); }},
        {"plus_inf_one", [](int, int, int, int) { return true; },
         [](double s, int, int, int, int kv) { return kv == 5 ? kInf : s; }},
        {"plus_inf_every_7th", causal,
         [](double s, int, int, int, int kv) { return kv % 7 == 0 ? kInf : s; }},
        {"minus_inf_all", [](int, int, int, int) { return true; },
         [](double, int, int, int, int) { return -kInf; }},
        {"nan_some", causal, [](double s, int, int, int, int kv) { return kv == 3 ? kNaN : s; }},
        {"inf_late", [](int, int, int, int) { return true; },
         [](double s, int, int, int, int kv) { return kv == 2500 || kv == 60 ? kInf : s; }},
        {"nan_late", [](int, int, int, int) { return true; },
         [](double s, int, int, int, int kv) { return kv == 2900 ? kNaN : s; }},
        {"plain", causal, id},
        {"softcapped", causal, [](double s, int, int, int, int) { return 20.0 * std::tanh(s / 20.0); }},
        {"eq_q_kv", [](int, int, int q, int kv) { return (q < 40) == (kv < 40); }, id},
        {"ne_q_kv", [](int, int, int q, int kv) { return (q < 40) != (kv < 40); }, id},
        {"eq_kv_const", [](int, int, int, int kv) { return kv < 40; }, id},
        {"eq_q_const", [](int, int, int q, int) { return q < 40; }, id},
        {"ne_kv_false", [](int, int, int, int kv) { return kv % 3 == 0; }, id},
        {"sel_kv_q", [](int, int, int q, int kv) { return kv % 3 == 0 ? q < 40 : kv < 50; }, id},
        {"sel_q_uniform", [](int, int, int q, int kv) { return q % 2 == 0 ? kv < 30 : true; }, id},
        {"sel_then_eq", [](int, int, int q, int kv) { return (kv % 2 == 0 ? q < 40 : true) == (kv < 60); },
         id},
        {"not_eq", [](int, int, int q, int kv) { return !(kv < 40) == (q < 40); }, id},
    };
    return c;
  }();
  return all;
}

/// `want` as the CPU gives it: its one documented difference, a row whose max is +Inf is NaN
/// there (docs/language.md).
NaiveResult cpu_rule(const NaiveResult& want) {
  NaiveResult cpu_want = want;
  const size_t dv = want.out.size() / want.lse.size();
  for (size_t r = 0; r < want.lse.size(); ++r)
    if (want.lse[r] == kInf) {
      cpu_want.lse[r] = kNaN;
      for (size_t d = 0; d < dv; ++d) cpu_want.out[r * dv + d] = kNaN;
    }
  return cpu_want;
}

/// Runs `name` on every target and checks each against `want`.
void check_targets(const std::string& name, const KernelInputs& in, const NaiveResult& want) {
  auto ir = lower_text(kProgram, name);
  const double tol = 2e-4;
  KernelOutputs ref = run_reference(*ir, in, 1);
  BOOST_TEST(diff(ref.out, want.out) < tol, name << ": reference Out");
  BOOST_TEST(diff(ref.lse, want.lse) < tol, name << ": reference LSE");
  const NaiveResult cpu_want = cpu_rule(want);
  const CpuCompiled& cpu = compile_cpu(kProgram, name);
  for (int threads : {1, 2}) {
    CpuRun got = run_cpu(cpu, in, true, false, threads);
    BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
    BOOST_TEST(diff(got.outputs.out, cpu_want.out) < tol, name << ": cpu Out, " << threads << " thread(s)");
    BOOST_TEST(diff(got.outputs.lse, cpu_want.lse) < tol, name << ": cpu LSE, " << threads << " thread(s)");
  }
  KernelOutputs vk = run_vulkan(*ir, in);
  BOOST_TEST(diff(vk.out, want.out) < tol, name << ": vulkan Out");
  BOOST_TEST(diff(vk.lse, want.lse) < tol, name << ": vulkan LSE");
}

/// `name` on each bf16 matrix path this host runs (amx, avx512bf16) against `want`, with the CPU's
/// +Inf-row rule; bf16's tolerance for finite values.
void check_matrix_paths(const std::string& name, const KernelInputs& in, const NaiveResult& want) {
  const NaiveResult cpu_want = cpu_rule(want);
  for (CpuIsa isa : {CpuIsa::AMX, CpuIsa::AVX512BF16}) {
    if (int(isa) < int(host_cpu_target().isa)) continue;  // this CPU does not run it
    const CpuCompiled& cpu = compile_cpu(kProgram, name, CpuTarget{isa});
    for (int threads : {1, 2}) {
      CpuRun got = run_cpu(cpu, in, true, false, threads);
      BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
      BOOST_TEST(diff(got.outputs.out, cpu_want.out) < 6e-2,
                 name << ": " << cpu_isa_name(isa) << " Out, " << threads << " thread(s)");
      BOOST_TEST(diff(got.outputs.lse, cpu_want.lse) < 6e-2,
                 name << ": " << cpu_isa_name(isa) << " LSE, " << threads << " thread(s)");
    }
  }
}

/// bias_where_masked's bias over `L` keys: finite on the keys kv < 40 the mask keeps, NaN, +Inf
/// and -Inf in turn on the others.
HostTensor nonfinite_bias(int64_t L) {
  HostTensor bias(ScalarType::F32, {L});
  for (int64_t j = 0; j < L; ++j)
    bias.set(j, j < 40 ? 0.25 * double(j % 5) : j % 3 == 0 ? kNaN : j % 3 == 1 ? kInf : -kInf);
  return bias;
}

/// The rule for bias_where_masked on `in` (its buffer "bias").
NaiveResult bias_where_masked_rule(const KernelInputs& in) {
  const HostTensor& bias = in.buffers.at("bias");
  return rule(
      in.q, in.k, in.v, [](int, int, int, int kv) { return kv < 40; },
      [&](double s, int, int, int, int kv) { return s + bias.get(kv); });
}

// Shapes: lengths that are not tile multiples, a decoding row (split-KV shares on the CPU), GQA.
const AttentionShape kShapes[] = {
    {1, 2, 1, 77, 77, 32, 24}, {1, 1, 1, 1, 3000, 64, 64}, {2, 1, 1, 130, 130, 16, 16}};

}  // namespace

BOOST_AUTO_TEST_CASE(masked_scores_and_bools_agree_with_the_rule_on_every_target) {
  std::mt19937 rng(7);
  for (const AttentionShape& s : kShapes)
    for (const Case& c : cases()) {
      const KernelInputs in = random_attention_inputs(ScalarType::F32, s, rng);
      BOOST_TEST_CONTEXT(c.name << " on " << s.Lq << "x" << s.Lkv) {
        check_targets(c.name, in, rule(in.q, in.k, in.v, c.mask, c.score));
      }
    }
}

BOOST_AUTO_TEST_CASE(kernel_scalar_bools_compared_with_varying_ones) {
  std::mt19937 rng(8);
  for (bool flag : {false, true}) {
    KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 1, 1, 70, 70, 32, 32}, rng);
    in.scalars["flag"] = flag;
    auto id = [](double s, int, int, int, int) { return s; };
    check_targets("eq_kv_param", in,
                  rule(
                      in.q, in.k, in.v, [&](int, int, int, int kv) { return (kv < 30) == flag; }, id));
    check_targets("eq_q_param", in,
                  rule(
                      in.q, in.k, in.v, [&](int, int, int q, int) { return flag == (q % 2 == 0); }, id));
    check_targets(
        "sel_kv_uniform", in,
        rule(
            in.q, in.k, in.v, [&](int, int, int, int kv) { return kv % 2 == 0 ? flag : kv < 30; }, id));
  }
}

BOOST_AUTO_TEST_CASE(block_diffusion_mask_agrees) {
  // attention-gym's block diffusion rule compares (q < n) with (kv < n): the CPU was off by 1.6.
  std::mt19937 rng(9);
  KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 2, 2, 100, 100, 32, 32}, rng);
  in.scalars["n"] = 45;
  auto mask = [](int, int, int q, int kv) {
    return (q < 45) == (kv < 45) ? (q / 16 == kv / 16 || kv < q) : kv < 45;
  };
  check_targets("block_diffusion", in,
                rule(in.q, in.k, in.v, mask, [](double s, int, int, int, int) { return s; }));
}

BOOST_AUTO_TEST_CASE(nan_and_inf_where_the_mask_is_false_never_reach_a_row) {
  std::mt19937 rng(10);
  for (int L : {45, 200}) {
    KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 2, 1, L, L, 32, 32}, rng);
    // A bias that is NaN, +Inf and -Inf on the keys the mask (kv < 40) drops.
    in.buffers["bias"] = nonfinite_bias(L);
    check_targets("bias_where_masked", in, bias_where_masked_rule(in));
    // A NaN and an Inf in a future key: only the rows that reach it (causal) see them.
    in.buffers.clear();
    in.k.set((L - 2) * 32 + 3, kNaN);
    in.k.set((L - 1) * 32 + 5, kInf);
    check_targets("plain", in,
                  rule(
                      in.q, in.k, in.v, [](int, int, int q, int kv) { return kv <= q; },
                      [](double s, int, int, int, int) { return s; }));
  }
}

BOOST_AUTO_TEST_CASE(nan_in_q_and_overflowing_scores_follow_the_rule) {
  std::mt19937 rng(11);
  KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 1, 1, 90, 90, 16, 16}, rng);
  in.q.set(10 * 16 + 2, kNaN);  // row 10: NaN out
  // Row 20: |Q| = 3e38 against keys with positive components: every kept score is +Inf.
  for (int64_t j = 0; j < 90 * 16; ++j) in.k.set(j, std::fabs(in.k.get(j)) + 0.01);
  for (int d = 0; d < 16; ++d) in.q.set(20 * 16 + d, 3e38);
  for (int d = 0; d < 16; ++d) in.q.set(30 * 16 + d, -3e38);  // row 30: every score -Inf
  auto causal = [](int, int, int q, int kv) { return kv <= q; };
  auto id = [](double s, int, int, int, int) { return s; };
  NaiveResult want = rule(in.q, in.k, in.v, causal, id);
  BOOST_TEST(std::isnan(want.lse[10]));
  BOOST_TEST(want.lse[20] == kInf);
  BOOST_TEST(want.lse[30] == -kInf);
  check_targets("plain", in, want);
  check_targets("softcapped", in, rule(in.q, in.k, in.v, causal, [](double s, int, int, int, int) {
                  return 20.0 * std::tanh(s / 20.0);
                }));
}

BOOST_AUTO_TEST_CASE(bf16_matrix_paths_follow_the_rule) {
  std::mt19937 rng(12);
  auto causal = [](int, int, int q, int kv) { return kv <= q; };
  auto all = [](int, int, int, int) { return true; };
  auto id = [](double s, int, int, int, int) { return s; };
  for (const AttentionShape& s : kShapes) {
    KernelInputs in = random_attention_inputs(ScalarType::BF16, s, rng);
    const int L = int(s.Lkv), D = int(s.D);
    check_matrix_paths(
        "nan_some_bf16", in,
        rule(in.q, in.k, in.v, causal, [](double x, int, int, int, int kv) { return kv == 3 ? kNaN : x; }));
    check_matrix_paths("plus_inf_every_7th_bf16", in,
                       rule(in.q, in.k, in.v, causal,
                            [](double x, int, int, int, int kv) { return kv % 7 == 0 ? kInf : x; }));
    check_matrix_paths("minus_inf_all_bf16", in,
                       rule(in.q, in.k, in.v, all, [](double, int, int, int, int) { return -kInf; }));
    // A bias that is NaN, +Inf and -Inf where the mask (kv < 40) drops the key.
    in.buffers["bias"] = nonfinite_bias(L);
    check_matrix_paths("bias_where_masked_bf16", in, bias_where_masked_rule(in));
    // A NaN and an Inf in the last keys: only the rows that reach them (causal) see them; without a
    // mask every row does.
    in.buffers.clear();
    in.k.set(int64_t(L - 2) * D + 3, kNaN);
    in.k.set(int64_t(L - 1) * D + 1, kInf);
    check_matrix_paths("plain_bf16", in, rule(in.q, in.k, in.v, causal, id));
    check_matrix_paths("dense_bf16", in, rule(in.q, in.k, in.v, all, id));
  }
}
