// The CUDA intrinsics that the host-compiled device headers (backends/cuda/device/*.cuh) call, for
// unit tests that include those headers directly: include this first, then the header.
#pragma once

#include <cstring>

inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}

inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

#define ATTN_HD inline
