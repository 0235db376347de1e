// Random inputs of FP8 kernels (dtype e4m3, e5m2): values rounded to the FP8 type and descale
// factors, for the tests of every target that runs them.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "runtime/HostTensor.h"

namespace attn::test {

/// Normally distributed values times 3, rounded to `type` (FP8: a few hundred distinct values).
inline HostTensor random_fp8(ScalarType type, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor t(type, std::move(shape));
  std::normal_distribution<double> n(0.0, 3.0);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, n(rng));
  return t;
}

/// Descale factors in [0.25, 2): [1] or, `per_head`, [entries, kv_heads].
inline HostTensor random_descale(bool per_head, int64_t entries, int64_t kv_heads, std::mt19937& rng) {
  HostTensor t(ScalarType::F32, per_head ? std::vector<int64_t>{entries, kv_heads} : std::vector<int64_t>{1});
  std::uniform_real_distribution<double> u(0.25, 2.0);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, u(rng));
  return t;
}

}  // namespace attn::test
