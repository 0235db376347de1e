// The backend interface's defaults: a capability a backend does not override is one it lacks,
// except calls on caller tensors, which run on host copies where the backend runs kernels.
#include "backends/Backend.h"

#include "attn/kernel_abi.h"
#include "attn/kernel_backward_abi.h"
#include "backends/io/HostCopies.h"
#include "codegen/KernelOptions.h"
#include "codegen/Lower.h"

namespace attn {

namespace {

const char* capability_text(Capability c) {
  switch (c) {
    case Capability::Compile: return "generated sources";
    case Capability::Dump: return "a generated stage to print";
    case Capability::Run: return "a runner";
    case Capability::Tune: return "a tuner";
    case Capability::Tiles: return "tiles";
    case Capability::Backward: return "a backward";
    case Capability::Load: return "a loader";
  }
  return "that";
}

/// A kernel called through run() on host copies of the caller's tensors.
class HostCopyKernel : public LoadedKernel {
 public:
  HostCopyKernel(const Backend& backend, std::shared_ptr<const KernelIR> ir)
      : backend_(backend), ir_(std::move(ir)) {}
  int call(const attn_kernel_args& args, void*) const override {
    try {
      KernelOutputs r = backend_.run(*ir_, read_call_inputs(*ir_, args), args.num_threads);
      write_host_tensor(r.out, args.out, "out");
      if (args.lse && kernel_options(*ir_).lse) write_host_tensor(r.lse, args.lse, "lse");
      if (args.abi_version >= 4 && args.max && kernel_options(*ir_).return_max)
        write_host_tensor(r.max, args.max, "max");
      return 0;
    } catch (const std::exception& e) {
      return report_call_error(*ir_, e, args.error, args.error_size);
    }
  }

 private:
  const Backend& backend_;
  std::shared_ptr<const KernelIR> ir_;
};

}  // namespace

void Backend::lacks(Capability c) const {
  throw std::logic_error(std::string("backend '") + name() + "' has no " + capability_text(c));
}

EmittedKernel Backend::emit(const KernelIR&, const EmitOptions&) const { lacks(Capability::Compile); }
std::string Backend::dump(const KernelIR&) const { lacks(Capability::Dump); }
KernelOutputs Backend::run(const KernelIR&, const KernelInputs&, int) const { lacks(Capability::Run); }
KernelGradients Backend::backward(const KernelIR&, const KernelInputs&, const GradientRequest&, int) const {
  lacks(Capability::Backward);
}
std::string Backend::tune(const KernelIR&, const KernelInputs&) const { lacks(Capability::Tune); }
TileSizes Backend::tiles(const KernelIR&) const { lacks(Capability::Tiles); }
std::shared_ptr<const LoadedKernel> Backend::load(std::shared_ptr<const KernelIR> ir,
                                                  const KernelLoadOptions&) const {
  return load_on_host_copies(*this, std::move(ir));
}

std::shared_ptr<const LoadedKernel> load_on_host_copies(const Backend& b,
                                                        std::shared_ptr<const KernelIR> ir) {
  if (!b.can(Capability::Run))
    throw std::logic_error(std::string("backend '") + b.name() + "' cannot run kernels");
  return std::make_shared<HostCopyKernel>(b, std::move(ir));
}
void Backend::call_backward(const KernelIR& ir, const attn_backward_args& args, void*) const {
  GradientRequest request;
  KernelInputs in = read_backward_inputs(ir, args, request);
  write_backward_outputs(ir, backward(ir, in, request, args.num_threads), args);
}

int backend_head_dim(const Backend& b, const KernelIR& ir, int requested) {
  if (requested) return requested;
  const int own = kernel_options(ir).head_dim;
  return own ? own : b.default_head_dim();
}

}  // namespace attn
