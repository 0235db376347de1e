// The reference target of compile_kernel: one call's DLPack tensors run through the reference
// backend (docs/language.md's semantics in double precision), as an oracle at run time.
#pragma once

#include <string>
#include <vector>

#include "attn/compile.hpp"

namespace attn {

struct KernelIR;

/// Runs the reference on the call's tensors (host memory, any strides): copies q, k, v and the
/// buffers (`params`, in declaration order) out of `args`, then writes Out and, when `lse` and
/// args.lse is set, the LSE into the caller's tensors. Returns 0, or 1 with "KERNEL: why" in
/// args.error (a tensor in device memory, a wrong shape or dtype, a buffer index out of range).
int call_reference(const KernelIR& ir, const std::string& kernel, bool lse,
                   const std::vector<KernelParam>& params, const attn_kernel_args& args);

}  // namespace attn
