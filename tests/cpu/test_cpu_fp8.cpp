// FP8 kernels (dtype e4m3, e5m2) on the CPU against the reference on the dequantized inputs: random
// shapes with grouped heads and lengths that are not tile multiples, per-tensor and per-head descale
// factors, a ragged batch and a paged cache, the bf16 matrix paths and the avx2 path, fully masked
// rows, NaN inputs, callers of older ABI versions, and the errors for descale factors of the wrong
// shape or type.
#define BOOST_TEST_MODULE cpu_fp8
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <iterator>
#include <random>

#include "runtime/KernelCallArgs.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/Fp8Inputs.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kProgram = R"attn(
import std.masks;
kernel e4m3_causal { mask = causal; dtype = e4m3; lse = true; }
kernel e5m2_plain { dtype = e5m2; lse = true; }
// Rows q < 2 keep no key.
kernel e4m3_late { mask = kv <= q && q >= 2; dtype = e4m3; lse = true; }
kernel bf16_plain { dtype = bf16; }
)attn";

KernelInputs random_inputs(ScalarType type, const AttentionShape& s, bool per_head, std::mt19937& rng) {
  KernelInputs in;
  in.q = random_fp8(type, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_fp8(type, {s.B, s.Hkv, s.Lkv, s.D}, rng);
  in.v = random_fp8(type, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
  in.q_descale = random_descale(per_head, s.B, s.Hkv, rng);
  in.k_descale = random_descale(per_head, s.B, s.Hkv, rng);
  in.v_descale = random_descale(per_head, s.B, s.Hkv, rng);
  return in;
}

/// Out (bf16) within bf16 rounding of the reference's, relative to the largest |Out|; LSE close.
void check_close(const KernelOutputs& got, const KernelOutputs& want, const std::string& what) {
  BOOST_TEST_REQUIRE(int(got.out.type) == int(ScalarType::BF16), what);
  double largest = 0;
  for (int64_t i = 0; i < want.out.numel(); ++i) largest = std::max(largest, std::fabs(want.out.get(i)));
  const double out_diff = max_abs_diff(got.out, want.out);
  BOOST_TEST(out_diff <= 1e-2 * std::max(largest, 1.0), what << ": Out differs by " << out_diff);
  if (!want.lse.shape.empty()) {
    const double lse_diff = max_abs_diff(got.lse, want.lse);
    BOOST_TEST(lse_diff <= 1e-3, what << ": LSE differs by " << lse_diff);
  }
}

/// The CPU kernel's message for `in`, or "" when the call succeeds.
std::string cpu_error(const std::string& kernel, const KernelInputs& in) {
  const CpuCompiled& c = compile_cpu(kProgram, kernel);
  return run_cpu(c, in, c.ir->options.lse).error;
}

/// The reference's message for `in`, or "" when it runs.
std::string reference_error(const std::string& kernel, const KernelInputs& in) {
  try {
    run_reference(*lower_text(kProgram, kernel), in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(random_shapes_match_the_reference_on_dequantized_inputs) {
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> length(1, 150), batch(1, 2), group(1, 3), kv_heads(1, 2);
  const int dims[] = {16, 40, 64, 100};
  for (const char* kernel : {"e4m3_causal", "e5m2_plain"}) {
    const CpuCompiled& c = compile_cpu(kProgram, kernel);
    const ScalarType type =
        std::string(kernel).rfind("e4m3", 0) == 0 ? ScalarType::F8E4M3 : ScalarType::F8E5M2;
    for (int i = 0; i < 6; ++i) {
      AttentionShape s;
      s.B = batch(rng), s.Hkv = kv_heads(rng), s.Hq = s.Hkv * group(rng);
      s.Lq = i == 0 ? 1 : length(rng), s.Lkv = length(rng);  // decoding once
      s.D = dims[i % 4], s.Dv = dims[(i + 1) % 4];
      const bool per_head = i % 2 == 1;
      KernelInputs in = random_inputs(type, s, per_head, rng);
      if (i == 2) in.q_descale = in.k_descale = in.v_descale = HostTensor();  // none: 1
      const KernelOutputs want = run_reference(*c.ir, in);
      const bool strided = i == 3;  // padded rows and heads
      const CpuRun got = run_cpu(c, in, true, strided);
      const std::string what = std::string(kernel) + " " + s.str() + (per_head ? " per head" : " per tensor");
      BOOST_TEST_REQUIRE(got.status == 0, what << ": " << got.error);
      check_close(got.outputs, want, what);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_ragged_batch_takes_a_factor_per_sequence) {
  // Three sequences packed (one with no query): descale entry b is sequence b's.
  std::mt19937 rng(7);
  const CpuCompiled& c = compile_cpu(kProgram, "e4m3_causal");
  const int32_t cu_q[] = {0, 17, 17, 50}, cu_k[] = {0, 20, 61, 100};
  KernelInputs in;
  in.q = random_fp8(ScalarType::F8E4M3, {50, 4, 32}, rng);
  in.k = random_fp8(ScalarType::F8E4M3, {100, 2, 32}, rng);
  in.v = random_fp8(ScalarType::F8E4M3, {100, 2, 32}, rng);
  in.cu_seqlens_q = HostTensor(ScalarType::I32, {4}), in.cu_seqlens_k = HostTensor(ScalarType::I32, {4});
  for (int i = 0; i < 4; ++i) in.cu_seqlens_q.set(i, cu_q[i]), in.cu_seqlens_k.set(i, cu_k[i]);
  in.q_descale = random_descale(true, 3, 2, rng);
  in.k_descale = random_descale(true, 3, 2, rng);
  in.v_descale = random_descale(false, 3, 2, rng);
  KernelOutputs got = make_outputs(*c.ir, in);
  KernelCallArgs call(call_tensors(*c.ir, in, got));
  call.args().num_threads = 2;
  BOOST_TEST_REQUIRE(c.kernel->run(call.args()) == 0, call.error());
  check_close(got, run_reference(*c.ir, in), "ragged");
}

BOOST_AUTO_TEST_CASE(a_paged_cache_takes_a_factor_per_sequence) {
  // Sequence 0 prefills its last 5 tokens of 13 (pages 2, 0, 3 of 5 keys), sequence 1 decodes its
  // 7th (pages 1, 4): descale entry b is sequence b's, as in a ragged batch.
  std::mt19937 rng(19);
  const CpuCompiled& c = compile_cpu(kProgram, "e5m2_plain");
  KernelInputs in;
  in.q = random_fp8(ScalarType::F8E5M2, {6, 4, 32}, rng);
  in.k = random_fp8(ScalarType::F8E5M2, {5, 5, 2, 32}, rng);
  in.v = random_fp8(ScalarType::F8E5M2, {5, 5, 2, 32}, rng);
  in.cu_seqlens_q = HostTensor(ScalarType::I32, {3});
  in.page_table = HostTensor(ScalarType::I32, {2, 3});
  in.kv_lens = HostTensor(ScalarType::I32, {2});
  const int32_t cu_q[] = {0, 5, 6}, table[] = {2, 0, 3, 1, 4, 0}, kv_lens[] = {13, 7};
  for (int i = 0; i < 3; ++i) in.cu_seqlens_q.set(i, cu_q[i]);
  for (int i = 0; i < 6; ++i) in.page_table.set(i, table[i]);
  for (int i = 0; i < 2; ++i) in.kv_lens.set(i, kv_lens[i]);
  in.q_descale = random_descale(true, 2, 2, rng);
  in.k_descale = random_descale(true, 2, 2, rng);
  in.v_descale = random_descale(true, 2, 2, rng);
  KernelOutputs got = make_outputs(*c.ir, in);
  KernelCallArgs call(call_tensors(*c.ir, in, got));
  call.args().num_threads = 2;
  BOOST_TEST_REQUIRE(c.kernel->run(call.args()) == 0, call.error());
  check_close(got, run_reference(*c.ir, in), "paged");
}

BOOST_AUTO_TEST_CASE(every_avx512_path_this_cpu_runs_agrees_with_the_reference) {
  // The bf16 matrix paths (amx, avx512bf16) stage FP8 as exact bf16 and apply the factors to the
  // scores and Out; avx512 converts to f32. Each path this host runs (the others are skipped, never
  // failed): prefill past a chunk, decoding with grouped heads in the decoding layout (head dims a
  // multiple of 32, K and V converted piece by piece), a few rows per task, a padded head dim.
  std::mt19937 rng(37);
  for (CpuIsa isa : {CpuIsa::AMX, CpuIsa::AVX512BF16, CpuIsa::AVX512}) {
    if (int(isa) < int(host_cpu_target().isa)) {
      BOOST_TEST_MESSAGE("fp8: this CPU does not run " << cpu_isa_name(isa) << "; skipped");
      continue;
    }
    const CpuCompiled& c = compile_cpu(kProgram, "e4m3_causal", CpuTarget{isa});
    const AttentionShape shapes[] = {{1, 2, 1, 70, 1100, 64, 64},
                                     {2, 8, 2, 1, 700, 64, 64},
                                     {1, 4, 2, 3, 333, 128, 64},
                                     {1, 2, 2, 45, 45, 40, 40},
                                     {2, 8, 2, 1, 300, 64, 64}};
    for (size_t i = 0; i < std::size(shapes); ++i) {
      const AttentionShape& s = shapes[i];
      const KernelInputs in = random_inputs(ScalarType::F8E4M3, s, true, rng);
      const bool strided = i == 4;  // decoding from padded rows and heads, read in place
      const CpuRun got = run_cpu(c, in, true, strided);
      const std::string what = std::string(cpu_isa_name(isa)) + " " + s.str() + (strided ? " strided" : "");
      BOOST_TEST_REQUIRE(got.status == 0, what << ": " << got.error);
      check_close(got.outputs, run_reference(*c.ir, in), what);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_avx2_path_agrees_with_the_reference) {
  // The portable path shares the staging and the f32 pipeline (test_cpu_paths compiles it).
  std::mt19937 rng(23);
  for (CpuIsa isa : {CpuIsa::AVX2}) {
    if (host_cpu_target().isa == CpuIsa::Portable) continue;
    const CpuCompiled& c = compile_cpu(kProgram, "e4m3_causal", CpuTarget{isa});
    AttentionShape s{1, 4, 2, 45, 45, 40, 40};
    const KernelInputs in = random_inputs(ScalarType::F8E4M3, s, true, rng);
    const CpuRun got = run_cpu(c, in, true);
    BOOST_TEST_REQUIRE(got.status == 0, got.error);
    check_close(got.outputs, run_reference(*c.ir, in), cpu_isa_name(isa));
  }
}

BOOST_AUTO_TEST_CASE(descale_factors_scale_the_dequantized_values) {
  // Q and K times 2 and 0.5 give the scores of the undescaled call; V times 4 gives Out times 4.
  std::mt19937 rng(3);
  const CpuCompiled& c = compile_cpu(kProgram, "e5m2_plain");
  AttentionShape s{1, 2, 1, 20, 33, 32, 32};
  KernelInputs plain = random_inputs(ScalarType::F8E5M2, s, false, rng);
  plain.q_descale = plain.k_descale = plain.v_descale = HostTensor();
  KernelInputs scaled = plain;
  auto factor = [](float f) {
    HostTensor t(ScalarType::F32, {1});
    t.set(0, f);
    return t;
  };
  scaled.q_descale = factor(2.0f), scaled.k_descale = factor(0.5f), scaled.v_descale = factor(4.0f);
  const CpuRun a = run_cpu(c, plain, true), b = run_cpu(c, scaled, true);
  BOOST_TEST_REQUIRE(a.status == 0, a.error);
  BOOST_TEST_REQUIRE(b.status == 0, b.error);
  for (int64_t i = 0; i < a.outputs.out.numel(); ++i)
    BOOST_TEST(b.outputs.out.get(i) == 4.0 * a.outputs.out.get(i));  // powers of two: exact
  BOOST_TEST(max_abs_diff(a.outputs.lse, b.outputs.lse) == 0.0);
}

BOOST_AUTO_TEST_CASE(fully_masked_rows_are_zero_with_lse_minus_infinity) {
  std::mt19937 rng(5);
  const CpuCompiled& c = compile_cpu(kProgram, "e4m3_late");
  AttentionShape s{1, 2, 2, 5, 5, 16, 16};
  const KernelInputs in = random_inputs(ScalarType::F8E4M3, s, true, rng);
  const CpuRun got = run_cpu(c, in, true);
  BOOST_TEST_REQUIRE(got.status == 0, got.error);
  check_close(got.outputs, run_reference(*c.ir, in), "e4m3_late");
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t q = 0; q < 2; ++q) {
      const int64_t row = h * 5 + q;
      BOOST_TEST(got.outputs.lse.get(row) == -INFINITY);
      for (int64_t d = 0; d < 16; ++d) BOOST_TEST(got.outputs.out.get(row * 16 + d) == 0.0);
    }
}

BOOST_AUTO_TEST_CASE(a_nan_in_q_makes_its_row_nan_as_for_other_dtypes) {
  // E4M3's NaN is S.1111.111 (0x7f), E5M2's 0x7e: the row that holds one is NaN (Out and LSE), the
  // others are finite (docs/language.md, "Non-finite values").
  std::mt19937 rng(11);
  for (const char* kernel : {"e4m3_causal", "e5m2_plain"}) {
    const CpuCompiled& c = compile_cpu(kProgram, kernel);
    const ScalarType type =
        std::string(kernel).rfind("e4m3", 0) == 0 ? ScalarType::F8E4M3 : ScalarType::F8E5M2;
    AttentionShape s{1, 1, 1, 6, 6, 16, 16};
    KernelInputs in = random_inputs(type, s, false, rng);
    in.q.set(3 * 16 + 5, NAN);  // row 3
    BOOST_TEST(std::isnan(in.q.get(3 * 16 + 5)));
    const CpuRun got = run_cpu(c, in, true);
    const KernelOutputs want = run_reference(*c.ir, in);
    BOOST_TEST_REQUIRE(got.status == 0, got.error);
    for (int64_t row = 0; row < 6; ++row) {
      BOOST_TEST(std::isnan(got.outputs.lse.get(row)) == (row == 3), kernel << " row " << row);
      BOOST_TEST(std::isnan(want.lse.get(row)) == (row == 3), kernel << " row " << row);
      for (int64_t d = 0; d < 16; ++d)
        BOOST_TEST(std::isnan(got.outputs.out.get(row * 16 + d)) == (row == 3));
    }
  }
}

BOOST_AUTO_TEST_CASE(callers_of_older_versions_get_factors_of_one) {
  std::mt19937 rng(13);
  const CpuCompiled& c = compile_cpu(kProgram, "e4m3_causal");
  AttentionShape s{2, 4, 2, 40, 40, 32, 32};
  KernelInputs in = random_inputs(ScalarType::F8E4M3, s, true, rng);
  KernelInputs ones = in;
  ones.q_descale = ones.k_descale = ones.v_descale = HostTensor();
  // Version 6 has no descale fields: the kernel reads none of them, whatever the struct holds after.
  const CpuRun got = run_cpu(c, in, true, false, 2, nullptr, 6);
  BOOST_TEST_REQUIRE(got.status == 0, got.error);
  check_close(got.outputs, run_reference(*c.ir, ones), "version 6");
}

BOOST_AUTO_TEST_CASE(descale_factors_of_the_wrong_shape_or_type_are_named) {
  std::mt19937 rng(17);
  AttentionShape s{2, 4, 2, 9, 9, 16, 16};
  const KernelInputs good = random_inputs(ScalarType::F8E4M3, s, true, rng);
  KernelInputs per_query_head = good;
  per_query_head.k_descale = HostTensor(ScalarType::F32, {2, 4});
  BOOST_TEST(cpu_error("e4m3_causal", per_query_head) ==
             "e4m3_causal: k_descale has shape [2, 4]; expected [1] (the whole tensor) or [2, 2] (per batch "
             "entry and key/value head)");
  BOOST_TEST(
      reference_error("e4m3_causal", per_query_head) ==
      "k_descale must be f32 [1] (the whole tensor) or [2, 2] (per batch entry and key/value head), got "
      "f32 [2, 4]");
  KernelInputs f64 = good;
  f64.v_descale = HostTensor(ScalarType::F64, {1});
  BOOST_TEST(cpu_error("e4m3_causal", f64) == "e4m3_causal: v_descale has element type f64, expected f32");
  BOOST_TEST(reference_error("e4m3_causal", f64).find("v_descale must be f32 [1]") == 0u);
  KernelInputs bf16;
  bf16.q = random_tensor(ScalarType::BF16, {1, 1, 3, 16}, rng);
  bf16.k = random_tensor(ScalarType::BF16, {1, 1, 3, 16}, rng);
  bf16.v = random_tensor(ScalarType::BF16, {1, 1, 3, 16}, rng);
  bf16.q_descale = HostTensor(ScalarType::F32, {1});
  BOOST_TEST(cpu_error("bf16_plain", bf16) ==
             "bf16_plain: q_descale is given, but descale factors are for fp8 kernels (dtype e4m3 or e5m2) "
             "and this kernel's dtype is bf16");
  BOOST_TEST(
      reference_error("bf16_plain", bf16).find("q_descale is given, but descale factors are for fp8") == 0u);
  // Q of another type is named as attnc names types.
  KernelInputs wrong_q = good;
  wrong_q.q = random_tensor(ScalarType::BF16, {2, 4, 9, 16}, rng);
  BOOST_TEST(cpu_error("e4m3_causal", wrong_q) == "e4m3_causal: q has element type bf16, expected e4m3");
}

BOOST_AUTO_TEST_CASE(fp8_kernels_have_no_backward) {
  const auto ir = lower_text(kProgram, "e5m2_plain");
  BOOST_CHECK_EXCEPTION(
      generate_cpu_backward(*ir, host_cpu_target()), KernelLimitError, [](const KernelLimitError& e) {
        return std::string(e.what()).find("has no backward pass: compile a bf16 copy") != std::string::npos;
      });
}
