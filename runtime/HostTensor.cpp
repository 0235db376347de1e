// HostTensor element access and f16/bf16/FP8 conversions.
#include "runtime/HostTensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace attn {

const char* scalar_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::F32: return "f32";
    case ScalarType::F16: return "f16";
    case ScalarType::BF16: return "bf16";
    case ScalarType::F64: return "f64";
    case ScalarType::I32: return "i32";
    case ScalarType::I64: return "i64";
    case ScalarType::Bool: return "bool";
    case ScalarType::U8: return "u8";
    case ScalarType::F8E4M3: return "e4m3";
    case ScalarType::F8E5M2: return "e5m2";
  }
  return "?";
}

size_t scalar_type_size(ScalarType t) {
  switch (t) {
    case ScalarType::F32:
    case ScalarType::I32: return 4;
    case ScalarType::F16:
    case ScalarType::BF16: return 2;
    case ScalarType::F64:
    case ScalarType::I64: return 8;
    case ScalarType::Bool:
    case ScalarType::U8:
    case ScalarType::F8E4M3:
    case ScalarType::F8E5M2: return 1;
  }
  return 1;
}

int64_t checked_numel(const std::vector<int64_t>& shape, size_t elem_size) {
  auto shape_string = [&] {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
  };
  // Zero-sized dimensions make the count 0, but the others must still be in range: kernels
  // compute strides and grids from every one.
  int64_t n = 1, bytes = static_cast<int64_t>(elem_size);
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) throw std::length_error("negative dimension in shape " + shape_string());
    if (d > kMaxTensorDim)
      throw std::length_error("dimension " + std::to_string(d) + " of shape " + shape_string() +
                              " is larger than " + std::to_string(kMaxTensorDim));
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(n, d, &n) || __builtin_mul_overflow(bytes, d, &bytes) ||
        bytes > kMaxTensorBytes)
      throw std::length_error("shape " + shape_string() + " is too large (more than " +
                              std::to_string(kMaxTensorBytes >> 30) + " GiB)");
  }
  return empty ? 0 : n;
}

HostTensor::HostTensor(ScalarType t, std::vector<int64_t> s) : type(t), shape(std::move(s)) {
  bytes.assign(static_cast<size_t>(checked_numel(shape, scalar_type_size(t))) * scalar_type_size(t), 0);
}

int64_t HostTensor::numel() const { return checked_numel(shape, scalar_type_size(type)); }

std::string HostTensor::shape_string() const {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

double HostTensor::get(int64_t i) const {
  switch (type) {
    case ScalarType::F32: return data<float>()[i];
    case ScalarType::F16: return f16_to_f32(data<uint16_t>()[i]);
    case ScalarType::BF16: return bf16_to_f32(data<uint16_t>()[i]);
    case ScalarType::F64: return data<double>()[i];
    case ScalarType::I32: return data<int32_t>()[i];
    case ScalarType::I64: return static_cast<double>(data<int64_t>()[i]);
    case ScalarType::Bool:
    case ScalarType::U8: return data<uint8_t>()[i];
    case ScalarType::F8E4M3: return e4m3_to_f64(data<uint8_t>()[i]);
    case ScalarType::F8E5M2: return e5m2_to_f64(data<uint8_t>()[i]);
  }
  return 0;
}

void HostTensor::set(int64_t i, double v) {
  switch (type) {
    case ScalarType::F32: data<float>()[i] = static_cast<float>(v); break;
    case ScalarType::F16: data<uint16_t>()[i] = f32_to_f16(static_cast<float>(v)); break;
    case ScalarType::BF16: data<uint16_t>()[i] = f32_to_bf16(static_cast<float>(v)); break;
    case ScalarType::F64: data<double>()[i] = v; break;
    case ScalarType::I32: data<int32_t>()[i] = static_cast<int32_t>(v); break;
    case ScalarType::I64: data<int64_t>()[i] = static_cast<int64_t>(v); break;
    case ScalarType::Bool: data<uint8_t>()[i] = v != 0; break;
    case ScalarType::U8: data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case ScalarType::F8E4M3: data<uint8_t>()[i] = f64_to_e4m3(v); break;
    case ScalarType::F8E5M2: data<uint8_t>()[i] = f64_to_e5m2(v); break;
  }
}

static uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

float f16_to_f32(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return float_of(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    if (man == 0) return float_of(sign);
    float f = static_cast<float>(man) * (1.0f / 16777216.0f);  // man * 2^-24
    return sign ? -f : f;
  }
  return float_of(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t f32_to_f16(float f) {
  uint32_t u = bits_of(f);
  uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t abs = u & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to infinity
  if (abs < 0x38800000u) {                                               // subnormal or zero in f16
    float a = float_of(abs);
    // Adding 0.5 (2^-1) aligns the f16 subnormal ulp (2^-24) with the f32 ulp of 2^-1: the FPU
    // rounds to nearest even for us.
    float r = a + 0.5f;
    return static_cast<uint16_t>(sign | (bits_of(r) - bits_of(0.5f)));
  }
  uint32_t man_odd = (abs >> 13) & 1u;
  abs += 0xc8000fffu + man_odd;  // rebias exponent (-112 << 23) and round to nearest even
  return static_cast<uint16_t>(sign | (abs >> 13));
}

float bf16_to_f32(uint16_t h) { return float_of(static_cast<uint32_t>(h) << 16); }

uint16_t f32_to_bf16(float f) {
  uint32_t u = bits_of(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

namespace {

/// An FP8 format: exponent bias, mantissa bits, the largest finite value, the NaN byte, whether
/// the exponent's top value holds infinities (E5M2) or values (E4M3, whose NaN is S.1111.111).
struct Fp8Format {
  int bias, mantissa_bits;
  double largest;
  uint8_t nan;
  bool has_inf;
};
constexpr Fp8Format kE4M3{7, 3, 448.0, 0x7f, false};
constexpr Fp8Format kE5M2{15, 2, 57344.0, 0x7e, true};

double fp8_to_f64(uint8_t x, const Fp8Format& f) {
  const int exponent = (x & 0x7f) >> f.mantissa_bits, mantissa = x & ((1 << f.mantissa_bits) - 1);
  const int top = (1 << (7 - f.mantissa_bits)) - 1;
  const double sign = x & 0x80 ? -1.0 : 1.0;
  if (f.has_inf && exponent == top) return mantissa ? NAN : sign * INFINITY;
  if (!f.has_inf && exponent == top && mantissa == (1 << f.mantissa_bits) - 1) return NAN;
  if (exponent == 0) return sign * std::ldexp(mantissa, 1 - f.bias - f.mantissa_bits);
  return sign * std::ldexp((1 << f.mantissa_bits) + mantissa, exponent - f.bias - f.mantissa_bits);
}

uint8_t f64_to_fp8(double v, const Fp8Format& f) {
  if (std::isnan(v)) return f.nan;
  const uint8_t sign = std::signbit(v) ? 0x80 : 0;
  const double a = std::fabs(v);
  // Past the largest value: infinity where the format has one, else the largest (saturating).
  const uint8_t overflow = f.has_inf ? uint8_t(sign | 0x7c) : uint8_t(sign | (f.nan - 1));
  if (std::isinf(a)) return overflow;
  // The spacing of representable values at a's binade (the subnormals' below the smallest normal);
  // nearbyint rounds half to even in the default rounding mode.
  int exponent = 0;
  std::frexp(a, &exponent);  // a = m 2^exponent, m in [0.5, 1)
  const int quantum = std::max(exponent - 1, 1 - f.bias) - f.mantissa_bits;
  const double q = std::nearbyint(std::ldexp(a, -quantum));  // a in quanta, rounded
  const double rounded = std::ldexp(q, quantum);
  if (rounded > f.largest) return overflow;
  if (rounded == 0) return sign;
  std::frexp(rounded, &exponent);
  if (exponent - 1 < 1 - f.bias)  // subnormal
    return uint8_t(sign | int(std::ldexp(rounded, f.bias - 1 + f.mantissa_bits)));
  const int mantissa = int(std::ldexp(rounded, f.mantissa_bits - (exponent - 1))) - (1 << f.mantissa_bits);
  return uint8_t(sign | (exponent - 1 + f.bias) << f.mantissa_bits | mantissa);
}

}  // namespace

double e4m3_to_f64(uint8_t x) { return fp8_to_f64(x, kE4M3); }
double e5m2_to_f64(uint8_t x) { return fp8_to_f64(x, kE5M2); }
uint8_t f64_to_e4m3(double v) { return f64_to_fp8(v, kE4M3); }
uint8_t f64_to_e5m2(double v) { return f64_to_fp8(v, kE5M2); }

}  // namespace attn
