// Problem shapes and random Q, K, V for the differential tests.
#pragma once

#include <random>
#include <string>

#include "backends/io/KernelIO.h"
#include "tests/support/NaiveAttention.h"

namespace attn::test {

struct AttentionShape {
  int B = 1, Hq = 1, Hkv = 1, Lq = 1, Lkv = 1, D = 1, Dv = 1;

  /// "B=.. Hq=.. Hkv=.. Lq=.. Lkv=.. D=.. Dv=..", for messages.
  std::string str() const {
    return "B=" + std::to_string(B) + " Hq=" + std::to_string(Hq) + " Hkv=" + std::to_string(Hkv) +
           " Lq=" + std::to_string(Lq) + " Lkv=" + std::to_string(Lkv) + " D=" + std::to_string(D) +
           " Dv=" + std::to_string(Dv);
  }
};

/// Q [B, Hq, Lq, D], K [B, Hkv, Lkv, D] and V [B, Hkv, Lkv, Dv] of type `t`, normally distributed.
inline KernelInputs random_attention_inputs(ScalarType t, const AttentionShape& s, std::mt19937& rng) {
  KernelInputs in;
  in.q = random_tensor(t, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(t, {s.B, s.Hkv, s.Lkv, s.D}, rng);
  in.v = random_tensor(t, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
  return in;
}

}  // namespace attn::test
