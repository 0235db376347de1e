// Helpers of the ragged-batch and paged-cache tests: i32 boundaries from lengths, and their sum.
#pragma once

#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/HostTensor.h"

namespace attn::test {

/// cu_seqlens for sequences of `lens` rows: i32 [N + 1], 0 first.
inline HostTensor boundaries(const std::vector<int64_t>& lens) {
  HostTensor t(ScalarType::I32, {int64_t(lens.size()) + 1});
  int64_t at = 0;
  t.set(0, 0);
  for (size_t i = 0; i < lens.size(); ++i) t.set(int64_t(i) + 1, double(at += lens[i]));
  return t;
}

inline int64_t total(const std::vector<int64_t>& lens) {
  return std::accumulate(lens.begin(), lens.end(), int64_t(0));
}

}  // namespace attn::test
