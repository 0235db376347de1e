// NumPy .npy files (format 1.0-3.0, little-endian, C order) to and from HostTensor.
#pragma once

#include <istream>
#include <stdexcept>
#include <string>

#include "runtime/HostTensor.h"

namespace attn {

/// Thrown with a message that names the file and what is wrong with it.
struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads f32, f16, f64, i32, i64, bool and u8 arrays in C order from a regular file (a FIFO or a
/// device is refused, never waited on); the header is parsed strictly (runtime/NpyHeader.h).
/// bf16, e4m3 and e5m2 have no NumPy dtype: the CLI reads them from f32 files (and writes bf16 as f32).
HostTensor read_npy(const std::string& path);
/// read_npy from a stream; `name` stands for the file in errors.
HostTensor read_npy_stream(std::istream& in, const std::string& name);
/// Writes as every output is written (runtime/OutputFile.h: a fresh temporary file renamed into
/// place; devices and FIFOs in place).
void write_npy(const std::string& path, const HostTensor& t);

}  // namespace attn
