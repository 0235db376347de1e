// compile_text / compile_file: parse, check and lower every kernel of a program once.
#include "python/src/KernelLibrary.h"

#include "backends/cpu/CpuBackend.h"
#include "compiler/LowerProgram.h"
#include "frontend/Program.h"

namespace attn::python {

LibraryKernel::LibraryKernel(std::shared_ptr<const Program> program, std::shared_ptr<const KernelIR> ir)
    : program_(std::move(program)), ir_(std::move(ir)) {}

std::shared_ptr<CpuKernel> LibraryKernel::cpu_kernel() {
  // Held across the compile: concurrent first calls wait for one compile rather than race.
  std::lock_guard<std::mutex> lock(mutex_);
  if (!cpu_) cpu_ = compile_cpu_kernel(generate_cpu_kernel(*ir_, host_cpu_target()));
  return cpu_;
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
