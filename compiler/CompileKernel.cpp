// compile_kernel: .attn text -> lowered kernel -> the target's backend (backends/Backend.h), which
// generates and loads it through attn::Loader (or, for the reference, runs it in process) and
// calls it as the command line's runners do around the kernel.
#include "attn/compile.hpp"
#include "attn/loader.hpp"
#include "backends/Backend.h"
#include "backends/io/KernelIO.h"
#include "codegen/Lower.h"
#include "compiler/LowerProgram.h"
#include "frontend/Program.h"

namespace attn {

struct CompiledKernel::State {
  std::shared_ptr<const KernelIR> ir;
  std::string name, dtype;
  bool lse = false;
  std::vector<KernelParam> params;
  std::shared_ptr<const LoadedKernel> loaded;
};

CompiledKernel::CompiledKernel(std::shared_ptr<const State> state) : state_(std::move(state)) {}
const std::string& CompiledKernel::name() const { return state_->name; }
const std::string& CompiledKernel::dtype() const { return state_->dtype; }
bool CompiledKernel::writes_lse() const { return state_->lse; }
const std::vector<KernelParam>& CompiledKernel::params() const { return state_->params; }
const Kernel& CompiledKernel::kernel() const {
  static const Kernel none;
  const Kernel* k = state_->loaded->loaded();
  return k ? *k : none;
}

int CompiledKernel::operator()(const attn_kernel_args& args) const { return state_->loaded->call(args); }

namespace {

const Backend& loadable_backend(const std::string& target) {
  if (target.empty()) return default_backend(DefaultUse::Time);
  try {
    return find_backend(target, Capability::Load);
  } catch (const TargetError& e) {
    throw std::invalid_argument(std::string(e.what()) +
                                " (the compiler library loads: " + backend_names(Capability::Load) + ")");
  }
}

CompiledKernel compile_program(const Program& p, const std::string& file, const CompileOptions& options) {
  const Backend& backend = loadable_backend(options.target);
  auto state = std::make_shared<CompiledKernel::State>();
  state->ir = lower_program_kernel(p, file, options.kernel);
  const KernelIR& ir = *state->ir;
  state->name = kernel_name(ir);
  state->dtype = dtype_name(kernel_options(ir).dtype);
  state->lse = kernel_options(ir).lse;
  for (const KernelArgInfo& a : kernel_args(ir))
    state->params.push_back({a.name, a.is_buffer, elem_type_name(a.elem), a.dims});
  KernelLoadOptions load;
  load.head_dim = options.head_dim, load.value_dim = options.value_dim, load.loader = options.loader;
  try {
    state->loaded = backend.load(state->ir, load);
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), p.sources));
  }
  return CompiledKernel(std::move(state));
}

}  // namespace

CompiledKernel compile_kernel(const std::string& file, const std::string& text,
                              const CompileOptions& options) {
  return compile_program(*load_program_text(file, text), file, options);
}

CompiledKernel compile_kernel_file(const std::string& path, const CompileOptions& options) {
  return compile_program(*load_program(path), path, options);
}

}  // namespace attn
