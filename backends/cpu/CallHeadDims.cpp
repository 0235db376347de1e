// A kernel that leaves its head dims open, fixed to a call's for the host CPU.
#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"

namespace attn {

HeadDims input_head_dims(const KernelInputs& in) {
  // Dense [B, H, L, D] or ragged [T, H, D]: the last dimension.
  auto last = [](const HostTensor& t) { return t.shape.size() == 4 || t.shape.size() == 3 ? t.shape.back() : int64_t(0); };
  return {last(in.q), last(in.v)};
}

HeadDims head_dims_to_fix(const KernelIR& ir, HeadDims call) {
  auto fits = [](int64_t d) { return d > 0 && d <= kMaxCallHeadDim; };
  if (ir.options.head_dim || !fits(call.head_dim) || !fits(call.value_dim)) return {};
  return call;
}

KernelIR with_call_head_dims(const KernelIR& ir, int64_t head_dim, int64_t value_dim) {
  const HeadDims fix = head_dims_to_fix(ir, {head_dim, value_dim});
  if (!fix.head_dim) return ir;
  KernelIR fixed = ir;
  fixed.options.head_dim = int(fix.head_dim);
  if (!fixed.options.value_dim && fix.value_dim != fix.head_dim) fixed.options.value_dim = int(fix.value_dim);
  return fixed;
}

}  // namespace attn
