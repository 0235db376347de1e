// Small integer helpers the CPU schedules (forward and backward) choose split factors with.
#pragma once

#include <algorithm>

namespace attn::cpu {

/// Largest divisor of n that is at most cap (1 when there is none above 1).
inline int largest_divisor_at_most(int n, int cap) {
  for (int d = std::min(n, cap); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

/// Largest power of two that is at most n (1 for n < 2).
inline int largest_power_of_two_at_most(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace attn::cpu
