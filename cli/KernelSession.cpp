// load_kernel, bind_kernel_args and run_on_target.
#include "cli/KernelSession.h"

#include <charconv>
#include <iostream>
#include <set>

#include "backends/cpu/CpuBackend.h"
#include "cli/Commands.h"
#include "cli/CompileTargets.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/Npy.h"

namespace attn::cli {

std::shared_ptr<const KernelIR> load_kernel(const std::string& file, const std::string& kernel) {
  auto p = load_program(file);
  if (report_diagnostics(*p, false)) return nullptr;
  const Decl* k = p->kernel(kernel);
  if (!k) {
    std::cerr << "attnc: error: " << file << " has no kernel '" << kernel << "'\n";
    return nullptr;
  }
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *k, diags);
  if (!ir) std::cerr << render_diagnostics(diags, p->sources);
  return ir;
}

ScalarType io_scalar_type(const KernelIR& ir) {
  switch (kernel_options(ir).dtype) {
    case DType::BF16: return ScalarType::BF16;
    case DType::F16: return ScalarType::F16;
    case DType::F32: return ScalarType::F32;
  }
  return ScalarType::F32;
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
      in.buffers[name] = read_npy(value);
      continue;
    }
    double v = 0;
    auto res = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value == "true")
      v = 1;
    else if (value == "false")
      v = 0;
    else if (res.ec != std::errc() || res.ptr != value.data() + value.size())
      throw InputError("--arg " + name + ": '" + value + "' is not a number");
    in.scalars[name] = v;
  }
}

std::vector<std::string> run_targets() {
  std::vector<std::string> t = {"reference", "cpu", "vulkan"};
#ifdef ATTNC_HAVE_CUDA
  t.push_back("cuda");
#endif
  return t;
}

KernelOutputs run_on_target(const std::string& target, const KernelIR& ir, const KernelInputs& in,
                            int threads) {
  if (target == "cuda") {
#ifdef ATTNC_HAVE_CUDA
    return run_cuda_target(ir, in);
#else
    throw InputError("this attnc was built without the CUDA target");
#endif
  }
  if (target == "cpu") return run_cpu_kernel(ir, in, threads);
  if (target == "vulkan") return run_vulkan_target(ir, in);
  return run_reference(ir, in, threads);
}

}  // namespace attn::cli
