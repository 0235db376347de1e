// Compiles generated kernel source through the process-wide loader (runtime/Loader.cpp).
#include "attn/loader.hpp"
#include "backends/cpu/CpuBackend.h"

namespace attn {

namespace {

class LoadedKernel : public CpuKernel {
 public:
  explicit LoadedKernel(Kernel k) : kernel_(std::move(k)) {}
  int run(const attn_kernel_args& args) const override { return kernel_.entry()(&args); }
  attn_kernel_fn function() const override { return kernel_.entry(); }

 private:
  Kernel kernel_;  // keeps the shared object loaded
};

}  // namespace

std::string single_file_source(const CpuKernelSource& src) {
  std::string include = "#include \"" + src.header_name + "\"\n";
  std::string out = src.source;
  size_t at = out.find(include);
  if (at != std::string::npos) out.replace(at, include.size(), src.header);
  return out;
}

std::vector<std::string> cpu_required_flags() { return {"-ffp-contract=fast", "-fno-math-errno", "-pthread"}; }

KernelRequest cpu_kernel_request(const CpuKernelSource& src) {
  KernelRequest r;
  r.target = "cpu";
  r.source = single_file_source(src);
  r.entry = src.entry;
  // The loader chooses the compiler and the optimization level (-O2 -fno-tree-sra -march=native);
  // these are the flags every compiler needs for this code.
  r.flags = cpu_required_flags();
  return r;
}

std::shared_ptr<CpuKernel> compile_cpu_kernel(const CpuKernelSource& src) {
  return std::make_shared<LoadedKernel>(process_loader().get(cpu_kernel_request(src)));
}

std::shared_ptr<CpuKernel> compile_host_kernel(const KernelIR& ir) {
  return std::make_shared<LoadedKernel>(process_loader().get(host_kernel_request(ir, process_loader())));
}

}  // namespace attn
