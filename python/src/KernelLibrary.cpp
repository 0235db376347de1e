// compile_text / compile_file: parse, check and lower every kernel of a program once.
#include "python/src/KernelLibrary.h"

#include "backends/Backend.h"
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

}  // namespace

LibraryKernel::LibraryKernel(std::shared_ptr<const Program> program, std::shared_ptr<const KernelIR> ir)
    : program_(std::move(program)), ir_(std::move(ir)), lse_ir_(with_lse(ir_)) {}

std::shared_ptr<const LoadedKernel> LibraryKernel::loaded(const Backend& backend, bool lse,
                                                          const KernelInputs& shapes, bool backward_next) {
  const std::shared_ptr<const KernelIR>& ir = lse ? lse_ir_ : ir_;
  // Held across the compile: concurrent first calls wait for one compile rather than race.
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const LoadedKernel>& k =
      loaded_[{backend.name(), ir.get(), backend.variant_key(*ir, shapes)}];
  if (!k) {
    KernelLoadOptions options;
    options.shapes = &shapes;
    if (backward_next) options.backward_next = ir_.get();  // what call_kernel_backward passes
    k = backend.calls_in_place() ? backend.load(ir, options) : load_on_host_copies(backend, ir);
  }
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
