// The reference backend: docs/language.md's semantics computed plainly in double precision. Every
// other backend is tested against it.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "runtime/HostTensor.h"

namespace attn {

struct KernelIR;

/// A kernel's inputs: Q [B, Hq, Lq, D], K [B, Hkv, Lkv, D], V [B, Hkv, Lkv, Dv] in the kernel's
/// dtype, and its run-time arguments by name.
struct KernelInputs {
  HostTensor q, k, v;
  std::map<std::string, HostTensor> buffers;
  std::map<std::string, double> scalars;
};

struct KernelOutputs {
  HostTensor out;  ///< [B, Hq, Lq, Dv] in the kernel's dtype
  HostTensor lse;  ///< [B, Hq, Lq] f32 (natural log); empty unless the kernel sets lse
};

/// Inputs that do not fit the kernel (shapes, dtypes, missing or extra arguments).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Checks `in` against the kernel; throws InputError with a message naming the culprit.
void validate_inputs(const KernelIR& ir, const KernelInputs& in);

/// Runs the kernel. Throws InputError or EvalError (a buffer index out of range).
/// `threads` 0 uses every core.
KernelOutputs run_reference(const KernelIR& ir, const KernelInputs& in, int threads = 0);

}  // namespace attn
