// Scalar kernel arguments given as text (`--arg NAME=VALUE`) or as numbers (Python): one rule.
#pragma once

#include <string>

#include "frontend/Types.h"

namespace attn {

/// The value of `--arg NAME=TEXT` for a scalar parameter of type `elem`. An `int` takes a decimal
/// integer literal (an optional sign, digits) within the i32 range; `2147483648`, `1e99`, `nan`,
/// `5.5` and `-3.7` are refused rather than saturated, wrapped or rounded differently by each
/// target. A `float` takes any number; a `bool` `true`, `false` or a number. Throws InputError
/// naming the argument and what it wants.
double parse_scalar_arg(const std::string& name, const std::string& text, ElemType elem);

/// Checks the value of the `int` argument `name` given as a number (Python's keyword arguments):
/// finite, whole, within the i32 range. Throws InputError.
void check_int_scalar(const std::string& name, double value);

}  // namespace attn
