// Host C++ spellings of the C-family printer's hooks.
#include "backends/cpu/CpuExprPrinter.h"

#include <stdexcept>

namespace attn::cpu {

std::string CpuExprPrinter::special_float(double v) {
  if (v != v) return "NAN";
  return v > 0 ? "INFINITY" : "(-INFINITY)";
}

std::string CpuExprPrinter::math_function(const std::string& name) {
  if (name == "round") return "rintf";  // the IR rounds half to even
  return name + "f";
}

std::string CpuExprPrinter::int_div(const std::string& a, const std::string& b) {
  return "attn_div_i32(" + a + ", " + b + ")";
}

std::string CpuExprPrinter::int_mod(const std::string& a, const std::string& b) {
  return "attn_mod_i32(" + a + ", " + b + ")";
}

std::string CpuExprPrinter::float_mod(const std::string& a, const std::string& b) {
  return "attn_mod_f32(" + a + ", " + b + ")";
}

std::string CpuExprPrinter::int_min(const std::string& a, const std::string& b) {
  return "attn_min_i32(" + a + ", " + b + ")";
}

std::string CpuExprPrinter::int_max(const std::string& a, const std::string& b) {
  return "attn_max_i32(" + a + ", " + b + ")";
}

std::string CpuExprPrinter::load(const KernelArg& arg, int, const std::vector<std::string>&) {
  throw std::logic_error("internal error: the CPU wrapper cannot print a load of '" + arg.name + "'");
}

std::string CpuExprPrinter::extent(const KernelArg& arg, int, int) {
  throw std::logic_error("internal error: the CPU wrapper cannot print an extent of '" + arg.name + "'");
}

std::string CpuRowExprPrinter::load(const KernelArg& arg, int buffer, const std::vector<std::string>& index) {
  std::string list;
  for (const std::string& i : index) list += (list.empty() ? "" : ", ") + i;
  return "row_load<" + type_name(halide_elem_type(arg.elem)) + ">(bad, buffer" + std::to_string(buffer) + ", \"" +
         arg.name + "\", {" + list + "})";
}

std::string CpuRowExprPrinter::extent(const KernelArg&, int buffer, int dim) {
  return "buffer" + std::to_string(buffer) + ".dim[" + std::to_string(dim) + "].extent";
}

std::string CpuExprPrinter::scalar(const KernelArg& arg, int position) {
  return typed_scalar(arg, "scalars[" + std::to_string(position) + "]");
}

}  // namespace attn::cpu
