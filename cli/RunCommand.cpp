// `attnc run FILE KERNEL --q --k --v [--arg NAME=...] -o OUT [--lse LSE] -t TARGET`.
#include <charconv>
#include <iostream>

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "cli/Commands.h"
#include "cli/CompileTargets.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/Npy.h"

namespace attn::cli {

namespace {

// Reads Q/K/V and converts them to the kernel's dtype. bf16 has no NumPy type: f32 files are
// rounded to bf16 (and f16 files may be given as f32 too).
HostTensor read_input(const std::string& path, ScalarType want) {
  HostTensor t = read_npy(path);
  if (t.type == want) return t;
  bool convertible = (t.type == ScalarType::F32 && (want == ScalarType::BF16 || want == ScalarType::F16));
  if (!convertible)
    throw InputError(path + ": expected a " + scalar_type_name(want == ScalarType::BF16 ? ScalarType::F32 : want) +
                     " array, got " + scalar_type_name(t.type));
  HostTensor c(want, t.shape);
  for (int64_t i = 0; i < t.numel(); ++i) c.set(i, t.get(i));
  return c;
}

// Writes a result; bf16 is written as f32.
void write_output(const std::string& path, const HostTensor& t) {
  if (t.type != ScalarType::BF16) return write_npy(path, t);
  HostTensor f(ScalarType::F32, t.shape);
  for (int64_t i = 0; i < t.numel(); ++i) f.set(i, t.get(i));
  write_npy(path, f);
}

}  // namespace

int run_run(const RunOptions& o) {
  auto p = load_program(o.file);
  if (report_diagnostics(*p, false)) return 1;
  const Decl* k = p->kernel(o.kernel);
  if (!k) {
    std::cerr << "attnc: error: " << o.file << " has no kernel '" << o.kernel << "'\n";
    return 1;
  }
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *k, diags);
  if (!ir) {
    std::cerr << render_diagnostics(diags, p->sources);
    return 1;
  }
  try {
    const KernelOptions& opts = kernel_options(*ir);
    ScalarType dtype = opts.dtype == DType::BF16 ? ScalarType::BF16 : opts.dtype == DType::F16 ? ScalarType::F16 : ScalarType::F32;
    std::vector<KernelArgInfo> sig = kernel_args(*ir);
    auto find_arg = [&](const std::string& name) -> const KernelArgInfo* {
      for (const KernelArgInfo& a : sig)
        if (a.name == name) return &a;
      return nullptr;
    };
    KernelInputs in;
    in.q = read_input(o.q, dtype);
    in.k = read_input(o.k, dtype);
    in.v = read_input(o.v, dtype);
    for (const std::string& a : o.args) {
      size_t eq = a.find('=');
      if (eq == std::string::npos || eq == 0)
        throw InputError("--arg '" + a + "' must be NAME=FILE.npy or NAME=VALUE");
      std::string name = a.substr(0, eq), value = a.substr(eq + 1);
      const KernelArgInfo* info = find_arg(name);
      if (!info)
        throw InputError("kernel '" + o.kernel + "' has no argument '" + name + "'");
      if (info->is_buffer) {
        in.buffers[name] = read_npy(value);
      } else {
        double v = 0;
        auto res = std::from_chars(value.data(), value.data() + value.size(), v);
        if (value == "true") v = 1;
        else if (value == "false") v = 0;
        else if (res.ec != std::errc() || res.ptr != value.data() + value.size())
          throw InputError("--arg " + name + ": '" + value + "' is not a number");
        in.scalars[name] = v;
      }
    }
    KernelOutputs out;
    if (o.target == "cuda") {
#ifdef ATTNC_HAVE_CUDA
      out = run_cuda_target(*ir, in);
#else
      throw InputError("this attnc was built without the CUDA target");
#endif
    } else if (o.target == "cpu") {
      out = run_cpu_kernel(*ir, in, o.threads);
    } else {
      out = run_reference(*ir, in, o.threads);
    }
    write_output(o.out, out.out);
    if (!o.lse.empty()) {
      if (out.lse.shape.empty()) throw InputError("kernel '" + o.kernel + "' does not compute the LSE (set lse = true)");
      write_npy(o.lse, out.lse);
    }
  } catch (const std::exception& e) {
    std::cerr << "attnc: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace attn::cli
