// The header dictionary of a .npy file, parsed as the format specifies it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// What a .npy header says.
struct NpyHeader {
  std::string descr;           ///< the dtype, e.g. "<f4"
  bool fortran_order = false;  ///< column-major data
  std::vector<int64_t> shape;
};

/// Parses the header text of a .npy file: a Python literal dict with exactly the keys 'descr' (a
/// string), 'fortran_order' (True or False) and 'shape' (a tuple of non-negative decimal integers;
/// `(5,)` for one dimension), each once, in any order, with an optional trailing comma and
/// surrounding whitespace, as `numpy.lib.format` writes and reads it. Anything else (a value NumPy
/// would refuse such as `'fortran_order': 1`, a shape of `(1e3,)`, `(0x10,)` or `(16abc,)`, a
/// duplicated or unknown key) throws NpyError with `path: ` and the reason.
NpyHeader parse_npy_header(const std::string& text, const std::string& path);

}  // namespace attn
