// Folding i32 constants with Python's floor division and modulo, and bit operators, in 64 bits.
#include "frontend/IntFold.h"

namespace attn {

std::optional<int64_t> fold_int(std::string_view op, int64_t a, int64_t b) {
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  // Bit operators act on the 32-bit pattern; a shift count is taken modulo 32, as at run time.
  if (op == "&") return a & b;
  if (op == "|") return a | b;
  if (op == "^") return a ^ b;
  if (op == "<<") return static_cast<int32_t>(static_cast<uint32_t>(a) << (b & 31));
  if (op == ">>") return static_cast<int32_t>(a) >> (b & 31);
  if ((op == "//" || op == "%") && b != 0) {
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return op == "//" ? q : a - b * q;
  }
  return std::nullopt;
}

std::string int_overflow_message(std::string_view op, int64_t a, int64_t b, int64_t result) {
  std::string expr = op.empty() ? "-(" + std::to_string(b) + ")"
                                : std::to_string(a) + " " + std::string(op) + " " + std::to_string(b);
  return "integer overflow: " + expr + " is " + std::to_string(result) + ", outside the 32-bit range";
}

}  // namespace attn
