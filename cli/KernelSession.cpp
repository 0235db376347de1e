// select_kernel, load_kernel, bind_kernel_args and report_kernel_error.
#include "cli/KernelSession.h"

#include <charconv>
#include <iostream>
#include <set>

#include "attn/compile.hpp"
#include "backends/io/ScalarArgs.h"
#include "cli/Commands.h"
#include "codegen/Lower.h"
#include "compiler/LowerProgram.h"
#include "compiler/SelectKernel.h"
#include "frontend/Program.h"
#include "runtime/Npy.h"

namespace attn::cli {

const Decl* select_kernel(const Program& p, const std::string& file, const std::string& name) {
  std::string why;
  const Decl* k = attn::select_kernel(p, file, name, why);
  if (!k) std::cerr << "attnc: error: " << why << "\n";
  return k;
}

LoadedKernel load_kernel(const std::string& file, const std::string& kernel) {
  std::shared_ptr<const Program> p = load_program(file);
  if (report_diagnostics(*p, false)) return {p, nullptr};  // errors, or warnings then on
  try {
    return {p, lower_program_kernel(*p, file, kernel)};  // as the compiler library and Python lower
  } catch (const SourceError& e) {
    const std::string text = e.what();
    // A kernel that is not there is the command's error; lowering errors are located diagnostics.
    std::cerr << (text.rfind("error: ", 0) == 0 ? "attnc: " : "") << text;
    return {p, nullptr};
  }
}

void report_kernel_error(const std::exception& e, const Program& p, const std::string& context) {
  if (auto* limit = dynamic_cast<const KernelLimitError*>(&e)) {
    DiagnosticEngine diags;
    diags.add(limit->diagnostic());
    std::cerr << render_diagnostics(diags, p.sources);
    return;
  }
  std::cerr << "attnc: error: " << context << e.what() << "\n";
}

HostTensor read_tensor_arg(const std::string& name, const std::string& value) {
  // A number where a file belongs is a slip worth naming, not "5: cannot open".
  double number = 0;
  auto r = std::from_chars(value.data(), value.data() + value.size(), number);
  if (!value.empty() && r.ec == std::errc() && r.ptr == value.data() + value.size())
    throw InputError("--arg " + name + "=" + value + ": '" + name +
                     "' is a tensor: give a .npy file (--arg " + name + "=FILE.npy)");
  return read_npy(value);
}

void bind_kernel_args(const KernelIR& ir, const std::vector<std::string>& args, KernelInputs& in) {
  std::vector<KernelArgInfo> sig = kernel_args(ir);
  std::set<std::string> given;
  for (const std::string& a : args) {
    size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--arg '" + a + "' must be NAME=FILE.npy or NAME=VALUE");
    std::string name = a.substr(0, eq), value = a.substr(eq + 1);
    if (!given.insert(name).second) throw InputError("--arg " + name + " is given twice");
    const KernelArgInfo* info = nullptr;
    for (const KernelArgInfo& s : sig)
      if (s.name == name) info = &s;
    if (!info) throw InputError("kernel '" + kernel_name(ir) + "' has no argument '" + name + "'");
    if (info->is_buffer) {
      in.buffers[name] = read_tensor_arg(name, value);
      continue;
    }
    const double v = parse_scalar_arg(name, value, info->elem);
    in.scalars[name] = v;
  }
}

HostTensor random_tensor(ScalarType type, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor t(type, std::move(shape));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, normal(rng));
  return t;
}

}  // namespace attn::cli
