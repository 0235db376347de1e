// compile_text / compile_file: parse, check and lower every kernel of a program once.
#include "python/src/KernelLibrary.h"

#include "backends/cpu/CpuBackend.h"
#include "backends/cuda/CudaRun.h"
#include "codegen/KernelIR.h"
#include "compiler/LowerProgram.h"
#include "frontend/Program.h"

namespace attn::python {

namespace {

std::shared_ptr<const KernelIR> with_lse(const std::shared_ptr<const KernelIR>& ir) {
  if (ir->options.lse) return ir;
  auto lse = std::make_shared<KernelIR>(*ir);
  lse->options.lse = true;
  return lse;
}

int64_t size_class(int64_t n) {
  int64_t c = 1;
  while (c < n) c *= 2;
  return c;
}

}  // namespace

LibraryKernel::LibraryKernel(std::shared_ptr<const Program> program, std::shared_ptr<const KernelIR> ir)
    : program_(std::move(program)), ir_(std::move(ir)), lse_ir_(with_lse(ir_)) {}

std::shared_ptr<CpuKernel> LibraryKernel::cpu_kernel(bool lse, HeadDims call) {
  lse = lse && lse_ir_ != ir_;
  const HeadDims fix = head_dims_to_fix(*ir_, call);  // {0, 0}: one kernel for every call
  // Held across the compile: concurrent first calls wait for one compile rather than race.
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<CpuKernel>& k = cpu_[std::make_tuple(lse, fix.head_dim, fix.value_dim)];
  if (!k)
    k = compile_cpu_kernel(
        generate_cpu_kernel(with_call_head_dims(ir(lse), fix.head_dim, fix.value_dim), host_cpu_target()));
  return k;
}

Kernel LibraryKernel::cuda_kernel(bool lse, const KernelInputs& shapes) {
  const auto key = std::make_tuple(lse, shapes.q.shape[3], shapes.v.shape[3],
                                   size_class(shapes.q.shape[0] * shapes.q.shape[1]),
                                   size_class(shapes.q.shape[2]), size_class(shapes.k.shape[2]));
  std::lock_guard<std::mutex> lock(mutex_);
  Kernel& k = cuda_[key];
  if (!k) k = load_cuda_kernel(ir(lse), shapes);
  return k;
}

namespace {

std::vector<std::shared_ptr<LibraryKernel>> lower_all(std::shared_ptr<const Program> p) {
  std::vector<std::shared_ptr<LibraryKernel>> kernels;
  for (auto& ir : lower_program(*p)) kernels.push_back(std::make_shared<LibraryKernel>(p, std::move(ir)));
  return kernels;
}

}  // namespace

std::vector<std::shared_ptr<LibraryKernel>> compile_text(const std::string& path, const std::string& text) {
  return lower_all(load_program_text(path, text));
}

std::vector<std::shared_ptr<LibraryKernel>> compile_file(const std::string& path) {
  return lower_all(load_program(path));
}

}  // namespace attn::python
