// Gathering the CUDA test kernels, including generated wrappers for each stdlib definition.
#include "tests/cuda/CudaTestKernels.h"

#include "tests/support/TestSupport.h"

namespace attn::test {

namespace {

void lower_all(const Program& p, const std::string& origin, std::vector<TestKernel>& out,
               std::vector<std::string>& errors) {
  if (p.diags.has_errors()) {
    errors.push_back(origin + ":\n" + render_diagnostics(p.diags, p.sources));
    return;
  }
  for (const Decl* k : p.kernels()) {
    DiagnosticEngine diags;
    auto ir = lower_kernel(p, *k, diags);
    if (!ir)
      errors.push_back(origin + ":" + k->name + ":\n" + render_diagnostics(diags, p.sources));
    else
      out.push_back({origin + ":" + k->name, ir});
  }
}

}  // namespace

StdlibKernelOptions cuda_stdlib_kernel_options(const std::vector<std::string>& dtypes) {
  StdlibKernelOptions options;
  options.dtypes = dtypes;
  options.head_dim = 128;
  options.int_value = "64";
  options.float_value = "30.0";
  return options;
}

std::vector<TestKernel> cuda_test_kernels(std::vector<std::string>& errors,
                                          const std::vector<std::string>& stdlib_dtypes) {
  std::vector<TestKernel> out;
  for (const char* dir : {"tests/cuda", "samples"})
    for (const auto& f : files_under(source_dir() / dir, ".attn")) {
      auto p = load_program(f.string());
      lower_all(*p, std::filesystem::relative(f, source_dir()).string(), out, errors);
    }
  for (const StdlibKernelProgram& p : stdlib_kernel_programs(cuda_stdlib_kernel_options(stdlib_dtypes)))
    lower_all(*load_program_text(p.path, p.text), p.module, out, errors);
  return out;
}

}  // namespace attn::test
