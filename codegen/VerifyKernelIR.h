// verify_kernel_ir: checks a lowered kernel against the one list of what its IR may hold.
#pragma once

namespace attn {

struct KernelIR;

/// Throws std::logic_error (an internal error: lowering made something no backend prints) naming
/// the first node of `ir`'s mask or score outside KernelIRNodes.h: a node kind not in
/// ATTN_KERNEL_IR_NODES, a call that is neither a builtin nor a load of one of the kernel's buffers
/// (with one index per dimension), a variable that is neither an index, `score` nor a scalar argument.
void verify_kernel_ir(const KernelIR& ir);

}  // namespace attn
