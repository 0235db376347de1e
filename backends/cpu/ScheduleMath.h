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

/// The forward P·V's accumulator box for `value_vectors` vectors of a row: U value vectors by R
/// rows of a tile of `tile_q`, at most `accumulators` in all, a row spanning at most
/// `pv_value_vectors` (0: any) (ScheduleAttention.cpp). The algorithm asks P·V for whole groups of
/// R rows, as many as hold queries (AttentionAlgorithm.cpp, define_output).
struct PvBox {
  int U = 1, R = 1;
};
inline PvBox pv_box(int value_vectors, int tile_q, int accumulators, int pv_value_vectors) {
  PvBox b;
  b.U = largest_divisor_at_most(value_vectors, pv_value_vectors ? pv_value_vectors : accumulators);
  b.R = largest_divisor_at_most(tile_q, std::max(1, accumulators / b.U));
  return b;
}

/// Largest power of two that is at most n (1 for n < 2).
inline int largest_power_of_two_at_most(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace attn::cpu
