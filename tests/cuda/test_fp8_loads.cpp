// The CUDA kernels' FP8 loads (backends/cuda/device/attn_fp8.cuh), on the host: every E4M3 and E5M2
// byte's value against the reference's conversion (runtime/HostTensor.h), NaNs and infinities
// included, and the bf16 pairs a chunk of eight bytes becomes in shared memory.
#define BOOST_TEST_MODULE fp8_loads
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "runtime/HostTensor.h"
#include "tests/cuda/HostIntrinsics.h"

namespace e4m3 {
#include "backends/cuda/device/attn_fp8.cuh"
}
#undef ATTN_FP8_E5M2
#define ATTN_FP8_E5M2 1
namespace e5m2 {
#include "backends/cuda/device/attn_fp8.cuh"
}

namespace {

/// The f32 whose bf16 bits are `bits`.
float bf16_value(unsigned bits) { return __int_as_float(static_cast<int>(bits << 16)); }

/// Both sides NaN, or equal (signed zeros apart).
bool same(double got, double want) {
  return (std::isnan(got) && std::isnan(want)) || (got == want && std::signbit(got) == std::signbit(want));
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_byte_converts_exactly) {
  for (unsigned x = 0; x < 256; ++x) {
    const double want4 = attn::e4m3_to_f64(static_cast<uint8_t>(x)),
                 want5 = attn::e5m2_to_f64(static_cast<uint8_t>(x));
    BOOST_TEST(same(e4m3::attn_dev::fp8_to_f32(x), want4),
               "e4m3 " << x << ": " << e4m3::attn_dev::fp8_to_f32(x));
    BOOST_TEST(same(e5m2::attn_dev::fp8_to_f32(x), want5),
               "e5m2 " << x << ": " << e5m2::attn_dev::fp8_to_f32(x));
    BOOST_TEST(same(bf16_value(e4m3::attn_dev::fp8_to_bf16_bits(x)), want4), "e4m3 as bf16 " << x);
    BOOST_TEST(same(bf16_value(e5m2::attn_dev::fp8_to_bf16_bits(x)), want5), "e5m2 as bf16 " << x);
  }
  // The extremes and the specials by name: 448, the smallest subnormal, NaN; E5M2's 57344 and infinity.
  BOOST_TEST(e4m3::attn_dev::fp8_to_f32(0x7e) == 448.f);
  BOOST_TEST(e4m3::attn_dev::fp8_to_f32(0x01) == std::ldexp(1.f, -9));
  BOOST_TEST(std::isnan(e4m3::attn_dev::fp8_to_f32(0xff)));
  BOOST_TEST(e5m2::attn_dev::fp8_to_f32(0x7b) == 57344.f);
  BOOST_TEST(e5m2::attn_dev::fp8_to_f32(0xfc) == -INFINITY);
}

BOOST_AUTO_TEST_CASE(chunks_become_bf16_pairs_in_order) {
  // Bytes 0..7 of a row chunk, little-endian in two words, become bf16 elements 0..7: element 2i in
  // the low half of word i, as a 16-byte cp.async of bf16 would have left them.
  const uint8_t bytes[8] = {0x00, 0x38, 0xb8, 0x7e, 0x01, 0x40, 0xc4, 0x7f};
  unsigned lo = 0, hi = 0;
  std::memcpy(&lo, bytes, 4);
  std::memcpy(&hi, bytes + 4, 4);
  unsigned out[4];
  e4m3::attn_dev::fp8x8_to_bf16(lo, hi, out);
  for (int i = 0; i < 8; ++i) {
    const unsigned bits = (out[i / 2] >> (16 * (i % 2))) & 0xffffu;
    BOOST_TEST(same(bf16_value(bits), attn::e4m3_to_f64(bytes[i])), "element " << i);
  }
}
