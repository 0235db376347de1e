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

enum class ScalarType { F32, F16, BF16, F64, I32, I64, Bool, U8 };
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
  /// Element i (row-major) converted to double; f16/bf16 are widened exactly.
  double get(int64_t i) const;
  /// Stores v at element i, rounding to the tensor's type (round to nearest even for f16/bf16).
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

}  // namespace attn
