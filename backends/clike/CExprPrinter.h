// CExprPrinter: prints the IR's scalar expressions (mask, score, tile conditions) as C-family
// source. C-like backends subclass it and override the hooks (type names, math functions,
// literals, loads, argument access); target quirks are rewrites applied before printing.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "codegen/KernelIR.h"

namespace attn {

class CExprPrinter {
 public:
  /// A printer for expressions of `ir` (its arguments give loads and scalars their positions).
  explicit CExprPrinter(const KernelIR& ir) : ir_(ir) {}
  virtual ~CExprPrinter() = default;

  /// `e` as one C expression, fully parenthesized where precedence matters. Loads keep their
  /// short-circuit position (`&&`, `||`, `?:`), so no load is evaluated that the IR would skip.
  std::string print(const Halide::Expr& e);

 protected:
  /// The C type of an IR scalar type (`int`, `float`, `bool`, `unsigned char`).
  virtual std::string type_name(const Halide::Type& t);
  /// A float literal; infinities and NaN through `special_float`.
  virtual std::string float_literal(double v);
  /// How the target spells +inf, -inf and NaN.
  virtual std::string special_float(double v) = 0;
  /// The target's function for an IR math call (`exp`, `log`, `tanh`, `sqrt`, `sin`, `cos`,
  /// `pow`, `exp2`, `floor`, `ceil`, `round`, `trunc`, `fabs`, `fmin`, `fmax`).
  virtual std::string math_function(const std::string& name) = 0;
  /// Integer floor division and modulo with the IR's semantics (x / 0 == 0).
  virtual std::string int_div(const std::string& a, const std::string& b) = 0;
  virtual std::string int_mod(const std::string& a, const std::string& b) = 0;
  virtual std::string float_mod(const std::string& a, const std::string& b) = 0;
  /// Integer min and max. Default: `min(a, b)` and `max(a, b)` (CUDA's built-ins).
  virtual std::string int_min(const std::string& a, const std::string& b) {
    return "min(" + a + ", " + b + ")";
  }
  virtual std::string int_max(const std::string& a, const std::string& b) {
    return "max(" + a + ", " + b + ")";
  }
  /// A load of tensor argument `arg` (its position among the tensor arguments: `buffer`).
  virtual std::string load(const KernelArg& arg, int buffer, const std::vector<std::string>& index) = 0;
  /// A scalar argument (its position among the scalar arguments: `scalar`).
  virtual std::string scalar(const KernelArg& arg, int scalar) = 0;
  /// The run-time extent of dimension `dim` of tensor argument `arg` (a reduction bound), an int.
  virtual std::string extent(const KernelArg& arg, int buffer, int dim) = 0;
  /// Any other variable: index variables, `score`, tile bounds. Default: the name itself.
  virtual std::string variable(const std::string& name) { return name; }

  const KernelIR& ir() const { return ir_; }
  /// `value` (a double holding scalar argument `arg`) as the argument's C type, commented with its name.
  static std::string typed_scalar(const KernelArg& arg, const std::string& value);

 private:
  std::string print_call(const Halide::Internal::Call* c);
  std::string print_reduction(const Halide::Internal::Call* c);
  const KernelIR& ir_;
};

/// True when `e` reads no buffer (nor its extents) and names no variable but `allowed` and scalar arguments:
/// what a printed tile condition or key range may use.
bool printable_without_loads(const Halide::Expr& e, const std::set<std::string>& allowed);

}  // namespace attn
