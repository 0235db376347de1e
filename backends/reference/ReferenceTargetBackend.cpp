// The reference target's entry in the backend registry: runs and differentiates kernels with
// docs/language.md's semantics in double precision (an oracle; nothing is generated).
#include "backends/Backend.h"
#include "backends/reference/Reference.h"

namespace attn {

namespace {

class ReferenceTargetBackend : public Backend {
 public:
  const char* name() const override { return "reference"; }
  bool can(Capability c) const override {
    return c == Capability::Run || c == Capability::Backward || c == Capability::Load;
  }
  KernelOutputs run(const KernelIR& ir, const KernelInputs& in, int threads) const override {
    return run_reference(ir, in, threads);
  }
  KernelGradients backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                           int threads) const override {
    return run_reference_backward(ir, in, r, threads);
  }
};

}  // namespace

const Backend& reference_backend() {
  static const ReferenceTargetBackend backend;
  return backend;
}

}  // namespace attn
