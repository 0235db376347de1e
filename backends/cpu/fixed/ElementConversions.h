// Element conversions that the entry point and (the FP8 table) a matrix path's extern stages share:
// f32 to bf16, f16 and FP8 to f32.
namespace {

uint16_t float_to_bf16(float f) {  // round to nearest even; a NaN stays a (quiet) NaN
  uint32_t x;
  memcpy(&x, &f, 4);
  const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16, nan = (x >> 16) | 0x40u;
  return uint16_t((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);  // a select, so loops of it vectorize
}

/// An f16 element as f32 (f16 inputs and E5M2, an f16's top byte). Inline: most sources never call it.
inline float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float f;
  if (exponent == 0) {
    f = float(mantissa) * 5.9604644775390625e-8f;  // subnormal: mantissa * 2^-24
    return sign ? -f : f;
  }
  uint32_t bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))
                                 : (sign | ((exponent + 112) << 23) | (mantissa << 13));
  memcpy(&f, &bits, 4);
  return f;
}

/// An OCP FP8 element as f32: E4M3 (bias 7, no infinities, S.1111.111 NaN) or E5M2 (an f16's
/// top byte).
inline float fp8_to_float(uint8_t x) {
  if (kIoType == IoType::E5M2) return half_to_float(uint16_t(x << 8));
  const uint32_t sign = uint32_t(x & 0x80u) << 24, exponent = (x >> 3) & 0xfu, mantissa = x & 7u;
  if (exponent == 15 && mantissa == 7) return NAN;
  if (exponent == 0) {
    const float f = float(mantissa) * 0.001953125f;  // subnormal: mantissa * 2^-9
    return sign ? -f : f;
  }
  const uint32_t bits = sign | ((exponent + 120) << 23) | (mantissa << 20);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/// Every FP8 value as f32, built once: the rows' conversion is a table lookup.
struct Fp8Values {
  float value[256];
  Fp8Values() {
    for (int i = 0; i < 256; ++i) value[i] = fp8_to_float(uint8_t(i));
  }
};

}  // namespace
