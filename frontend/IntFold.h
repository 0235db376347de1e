// Folding i32 constants the way attnc defines them (Python's `//` and `%`), with overflow found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attn {

/// `a op b` for i32 operands (`+ - * // %`, and `& | ^ << >>` on the 32-bit pattern) computed exactly in 64
/// bits: nothing for another operator or a zero divisor. The result may lie outside i32; see fits_i32.
std::optional<int64_t> fold_int(std::string_view op, int64_t a, int64_t b);

/// True when `v` is a 32-bit signed integer.
inline bool fits_i32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/// The diagnostic for a constant operation that overflows: "integer overflow: a op b is r, ...".
std::string int_overflow_message(std::string_view op, int64_t a, int64_t b, int64_t result);

}  // namespace attn
