// parse_scalar_arg and check_int_scalar.
#include "backends/io/ScalarArgs.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "backends/io/KernelIO.h"

namespace attn {
namespace {

const std::string kIntRange = "a whole number from -2147483648 to 2147483647";

}  // namespace

double parse_scalar_arg(const std::string& name, const std::string& text, ElemType elem) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (elem == ElemType::I32) {
    // from_chars takes no '+'; one is fine in front of digits.
    if (begin != end && *begin == '+' && end - begin > 1 && begin[1] != '-') ++begin;
    int64_t v = 0;
    auto r = std::from_chars(begin, end, v);
    bool digits = r.ptr == end && r.ec == std::errc();
    if (r.ec == std::errc::result_out_of_range ||
        (digits && (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())))
      throw InputError("--arg " + name + ": " + text + " is out of range: '" + name + "' is an int, " +
                       kIntRange);
    if (!digits || text.empty())
      throw InputError("--arg " + name + ": '" + text + "' is not an integer: '" + name + "' is an int, " +
                       kIntRange);
    return static_cast<double>(v);
  }
  if (text == "true") return 1;
  if (text == "false") return 0;
  double v = 0;
  auto r = std::from_chars(begin, end, v);
  if (r.ec != std::errc() || r.ptr != end || text.empty())
    throw InputError("--arg " + name + ": '" + text + "' is not a number");
  return v;
}

void check_int_scalar(const std::string& name, double value) {
  if (!std::isfinite(value) || std::trunc(value) != value || value < std::numeric_limits<int32_t>::min() ||
      value > std::numeric_limits<int32_t>::max()) {
    char shown[64];
    std::snprintf(shown, sizeof shown, "%.17g", value);
    throw InputError("argument '" + name + "' is an int: it must be " + kIntRange + ", got " + shown);
  }
}

}  // namespace attn
