// A dense host tensor (row-major, owning its bytes): what .npy files hold and the reference uses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// The largest host tensor attnc allocates, reads or writes, in bytes (1 TiB).
constexpr int64_t kMaxTensorBytes = int64_t{1} << 40;
/// The largest single dimension: kernels index with 32-bit positions.
constexpr int64_t kMaxTensorDim = INT32_MAX;

/// F8E4M3 and F8E5M2 are OCP FP8 (PyTorch's float8_e4m3fn and float8_e5m2): what FP8 kernels take.
enum class ScalarType { F32, F16, BF16, F64, I32, I64, Bool, U8, F8E4M3, F8E5M2 };
const char* scalar_type_name(ScalarType t);
size_t scalar_type_size(ScalarType t);

/// The element count of `shape` with `elem_size`-byte elements. Throws std::length_error (naming
/// the shape) for a negative dimension, one above kMaxTensorDim, or more than kMaxTensorBytes in
/// all, without ever overflowing.
int64_t checked_numel(const std::vector<int64_t>& shape, size_t elem_size);

struct HostTensor {
  ScalarType type = ScalarType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  HostTensor() = default;
  /// A zero-filled tensor; throws std::length_error when the shape is too large (checked_numel).
  HostTensor(ScalarType t, std::vector<int64_t> s);
  int64_t numel() const;
  /// Element i (row-major) converted to double; f16/bf16/FP8 are widened exactly.
  double get(int64_t i) const;
  /// Stores v at element i, rounding to the tensor's type (round to nearest even for f16/bf16/FP8;
  /// see f64_to_e4m3 for FP8's out-of-range values).
  void set(int64_t i, double v);
  template <class T>
  T* data() {
    return reinterpret_cast<T*>(bytes.data());
  }
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(bytes.data());
  }
  std::string shape_string() const;  ///< "[2, 4, 128, 64]"
};

/// IEEE half and bfloat16 conversions (round to nearest even).
float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);
float bf16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);

/// OCP FP8 conversions. E4M3 (bias 7, 3 mantissa bits) has no infinity: S.1111.111 is NaN and 448
/// the largest value; E5M2 (bias 15, 2 mantissa bits) is IEEE-like, largest 57344. Rounding is to
/// nearest even; a value that rounds past the largest (infinities included) becomes +-448 in E4M3
/// and +-inf in E5M2, as PyTorch's casts to float8_e4m3fn and float8_e5m2 do.
double e4m3_to_f64(uint8_t x);
double e5m2_to_f64(uint8_t x);
uint8_t f64_to_e4m3(double v);
uint8_t f64_to_e5m2(double v);

}  // namespace attn
