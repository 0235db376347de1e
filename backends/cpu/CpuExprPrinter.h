// CpuExprPrinter: IR expressions as host C++ for the CPU kernel's wrapper (the key-block test).
#pragma once

#include <string>

#include "backends/clike/CExprPrinter.h"

namespace attn::cpu {

/// Host C++ spellings of the C-family hooks. Integer division, modulo, min and max call
/// `attn_div_i32`, `attn_mod_i32`, `attn_min_i32` and `attn_max_i32` (the wrapper defines them
/// with the IR's semantics); scalar arguments read
/// `scalars[i]`. Loads and buffer extents are not printable here: callers check `printable_without_loads` first.
class CpuExprPrinter : public CExprPrinter {
 public:
  using CExprPrinter::CExprPrinter;

 protected:
  std::string special_float(double v) override;
  std::string math_function(const std::string& name) override;
  std::string int_div(const std::string& a, const std::string& b) override;
  std::string int_mod(const std::string& a, const std::string& b) override;
  std::string float_mod(const std::string& a, const std::string& b) override;
  std::string int_min(const std::string& a, const std::string& b) override;
  std::string int_max(const std::string& a, const std::string& b) override;
  std::string load(const KernelArg& arg, int buffer, const std::vector<std::string>& index) override;
  std::string scalar(const KernelArg& arg, int position) override;
  std::string extent(const KernelArg& arg, int buffer, int dim) override;
};

/// The printer of a row's own expressions in the wrapper (the sink): loads read the entry point's
/// buffer views through `row_load` (fixed/WrapperSupport.h), which records an out-of-range index in
/// the RowLoadError `bad` instead of reading it.
class CpuRowExprPrinter : public CpuExprPrinter {
 public:
  using CpuExprPrinter::CpuExprPrinter;

 protected:
  std::string load(const KernelArg& arg, int buffer, const std::vector<std::string>& index) override;
  std::string extent(const KernelArg& arg, int buffer, int dim) override;
};

}  // namespace attn::cpu
