// Helpers of the ragged-batch and paged-cache tests: i32 boundaries from lengths, their sum, and
// the cpu and vulkan targets against the reference over the kernels, head layouts and thread counts
// both test.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <exception>
#include <functional>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "backends/Backend.h"
#include "backends/reference/Reference.h"
#include "runtime/HostTensor.h"
#include "tests/cpu/CpuTestSupport.h"

namespace attn::test {

/// cu_seqlens for sequences of `lens` rows: i32 [N + 1], 0 first.
inline HostTensor boundaries(const std::vector<int64_t>& lens) {
  HostTensor t(ScalarType::I32, {int64_t(lens.size()) + 1});
  int64_t at = 0;
  t.set(0, 0);
  for (size_t i = 0; i < lens.size(); ++i) t.set(int64_t(i) + 1, double(at += lens[i]));
  return t;
}

/// What `f` throws, or "" when it returns.
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

inline int64_t total(const std::vector<int64_t>& lens) {
  return std::accumulate(lens.begin(), lens.end(), int64_t(0));
}

/// The cpu target against the reference: for kernels causal_lse, windowed_docs, sinks_per_head,
/// causal_bf16, all_keys, from_end and from_end_bf16 of `program`, every batch of `batches`, heads 4/2 with D
/// 16 and 8/2 with D 64, on 1 and 2 threads, the inputs `make(ir, batch, type, Hq, Hkv, D)` gives.
template <class Batch, class Make>
void check_cpu_against_reference(const char* program, const std::vector<Batch>& batches, const Make& make) {
  const Backend& cpu = find_backend("cpu", Capability::Run);
  for (const char* name : {"causal_lse", "windowed_docs", "sinks_per_head", "causal_bf16", "all_keys",
                           "from_end", "from_end_bf16"}) {
    auto ir = lower_text(program, name);
    const bool bf16 = ir->options.dtype == DType::BF16;
    const double tolerance = bf16 ? 2e-2 : 2e-4;
    for (const Batch& batch : batches) {
      for (auto [Hq, Hkv, D] : {std::tuple{4, 2, 16}, {8, 2, 64}}) {
        const KernelInputs in = make(*ir, batch, bf16 ? ScalarType::BF16 : ScalarType::F32, Hq, Hkv, D);
        const KernelOutputs want = run_reference(*ir, in, 2);
        for (int threads : {1, 2}) {
          const KernelOutputs got = cpu.run(*ir, in, threads);
          const std::string what = std::string(name) + " q " + in.q.shape_string() + " k " +
                                   in.k.shape_string() + " threads=" + std::to_string(threads);
          BOOST_TEST(max_abs_diff(got.out, want.out) < tolerance, what);
          BOOST_TEST(max_abs_diff(got.lse, want.lse) < tolerance, what);
          if (ir->options.return_max) BOOST_TEST(max_abs_diff(got.max, want.max) < tolerance, what);
        }
      }
    }
  }
}

/// The vulkan target (lavapipe in the tests) against the reference: one dispatch per sequence at its
/// place (backends/io/PerSequence.h), for kernels windowed_docs, sinks_per_head, causal_bf16 and
/// from_end of `program` (vulkan has no return_max), every batch of `batches`, heads 4/2 with D 16.
template <class Batch, class Make>
void check_vulkan_against_reference(const char* program, const std::vector<Batch>& batches,
                                    const Make& make) {
  const Backend& vulkan = find_backend("vulkan", Capability::Run);
  for (const char* name : {"windowed_docs", "sinks_per_head", "causal_bf16", "from_end"}) {
    auto ir = lower_text(program, name);
    const bool bf16 = ir->options.dtype == DType::BF16;
    for (const Batch& batch : batches) {
      const KernelInputs in = make(*ir, batch, bf16 ? ScalarType::BF16 : ScalarType::F32, 4, 2, 16);
      const KernelOutputs want = run_reference(*ir, in, 2), got = vulkan.run(*ir, in, 0);
      const std::string what = std::string(name) + " q " + in.q.shape_string() + " k " + in.k.shape_string();
      BOOST_TEST(max_abs_diff(got.out, want.out) < (bf16 ? 2e-2 : 2e-4), what);
      BOOST_TEST(max_abs_diff(got.lse, want.lse) < (bf16 ? 2e-2 : 2e-4), what);
    }
  }
}

}  // namespace attn::test
