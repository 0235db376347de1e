// A kernel that leaves its head dims open, fixed to a call's for the host CPU.
#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"

namespace attn {

KernelIR with_call_head_dims(const KernelIR& ir, int64_t head_dim, int64_t value_dim) {
  if (ir.options.head_dim || head_dim <= 0 || value_dim <= 0) return ir;
  if (head_dim > kMaxCallHeadDim || value_dim > kMaxCallHeadDim) return ir;
  KernelIR fixed = ir;
  fixed.options.head_dim = int(head_dim);
  if (!fixed.options.value_dim && value_dim != head_dim) fixed.options.value_dim = int(value_dim);
  return fixed;
}

}  // namespace attn
