// FP8 kernels on the vulkan target, converted on load (docs/spirv.md): Q, K and V dequantized on
// the host by their (batch entry or sequence, key/value head) factors, the f32 module, Out rounded
// to bf16; against the reference on the same inputs, dense and ragged, per-tensor and per-head.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>

#include "backends/reference/Reference.h"
#include "backends/spirv/RunVulkan.h"
#include "codegen/KernelIR.h"
#include "tests/support/CheckedLowering.h"
#include "tests/support/Fp8Inputs.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kFp8Program = R"attn(
import std.masks;
kernel e4m3_causal { mask = causal_from_end; dtype = e4m3; lse = true; }
kernel e5m2_sink(sinks: tensor<f32>[heads]) { sink = sinks[h]; dtype = e5m2; lse = true; }
)attn";

/// The largest |a - b| over the elements (infinities equal to themselves).
double largest_difference(const HostTensor& a, const HostTensor& b) {
  double d = 0;
  for (int64_t i = 0; i < a.numel(); ++i)
    if (a.get(i) != b.get(i)) d = std::max(d, std::fabs(a.get(i) - b.get(i)));
  return d;
}

}  // namespace

BOOST_AUTO_TEST_CASE(fp8_is_converted_on_load) {
  std::mt19937 rng(21);
  const auto program = load_checked_text("fp8.attn", kFp8Program);
  for (const char* name : {"e4m3_causal", "e5m2_sink"}) {
    auto ir = lower_checked(*program, name);
    const ScalarType type = ir->options.dtype == DType::F8E4M3 ? ScalarType::F8E4M3 : ScalarType::F8E5M2;
    for (bool ragged : {false, true}) {
      for (bool per_head : {false, true}) {
        KernelInputs in;
        // Dense: 2 entries of 37 queries over 45 keys; ragged: sequences of (5, 9), (0, 3), (30, 30).
        const std::vector<int64_t> q =
            ragged ? std::vector<int64_t>{35, 4, 16} : std::vector<int64_t>{2, 4, 37, 16};
        const std::vector<int64_t> kv =
            ragged ? std::vector<int64_t>{42, 2, 16} : std::vector<int64_t>{2, 2, 45, 16};
        in.q = random_fp8(type, q, rng), in.k = random_fp8(type, kv, rng), in.v = random_fp8(type, kv, rng);
        if (ragged) {
          in.cu_seqlens_q = HostTensor(ScalarType::I32, {4}),
          in.cu_seqlens_k = HostTensor(ScalarType::I32, {4});
          const int cq[] = {0, 5, 5, 35}, ck[] = {0, 9, 12, 42};
          for (int i = 0; i < 4; ++i) in.cu_seqlens_q.set(i, cq[i]), in.cu_seqlens_k.set(i, ck[i]);
        }
        const int64_t entries = ragged ? 3 : 2;
        in.q_descale = random_descale(per_head, entries, 2, rng);
        in.k_descale = random_descale(per_head, entries, 2, rng);
        in.v_descale = random_descale(per_head, entries, 2, rng);
        if (ir->arg("sinks")) {
          HostTensor sinks(ScalarType::F32, {4});
          for (int64_t h = 0; h < 4; ++h) sinks.set(h, 0.5 * double(h) - 1.0);
          in.buffers["sinks"] = sinks;
        }
        const KernelOutputs want = run_reference(*ir, in, 2), got = run_vulkan(*ir, in);
        BOOST_TEST_CONTEXT(name << (ragged ? " ragged" : " dense")
                                << (per_head ? " per head" : " per tensor")) {
          BOOST_TEST(int(got.out.type) == int(ScalarType::BF16));
          double largest = 1;
          for (int64_t i = 0; i < want.out.numel(); ++i)
            largest = std::max(largest, std::fabs(want.out.get(i)));
          BOOST_TEST(largest_difference(got.out, want.out) <= 1e-2 * largest);
          BOOST_TEST(largest_difference(got.lse, want.lse) <= 1e-3);
        }
      }
    }
  }
}
