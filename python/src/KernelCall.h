// One call of a library kernel on caller-owned tensors (DLPack views): the checks and messages of
// the command line, then the target. The cpu target reads and writes the callers' memory in place;
// reference and vulkan copy through host tensors. Free of Python.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "attn/kernel_abi.h"

namespace attn::python {

class LibraryKernel;

/// A caller's tensor as DLPack describes it; strides count elements.
struct TensorView {
  void* data = nullptr;
  DLDevice device{kDLCPU, 0};
  DLDataType dtype{};
  std::vector<int64_t> shape, strides;
};

/// The tensors and values of one call. `out` (and `lse` when the kernel sets `lse`) are dense,
/// row-major and already shaped [B, Hq, Lq, Dv] ([B, Hq, Lq]).
struct KernelCall {
  TensorView q, k, v, out, lse;
  std::map<std::string, TensorView> buffers;
  std::map<std::string, double> scalars;
  std::string target = "cpu";  ///< cpu, reference or vulkan
  int threads = 0;             ///< 0: every core
};

/// The rest of a backward call: dOut (and dLSE, for a kernel that sets lse; `data` null: none) in,
/// dQ, dK, dV and the gradients of the buffers named in `dbuffers` out (dense, row-major, shaped
/// like their inputs; dbuffers f32).
struct GradientCall {
  TensorView dout, dlse, dq, dk, dv;
  std::map<std::string, TensorView> dbuffers;
};

/// Runs `kernel` on `call`. Throws InputError (inputs that do not fit, a buffer index out of
/// range), SourceError (a backend limit, located at the kernel), LoadError (the host compiler
/// failed) and std::runtime_error (no Vulkan device, ...).
void call_kernel(LibraryKernel& kernel, const KernelCall& call);

/// The backward of `kernel` at `call` (cpu or reference; through host copies), into `grads`.
/// Throws as call_kernel.
void call_kernel_backward(LibraryKernel& kernel, const KernelCall& call, const GradientCall& grads);

}  // namespace attn::python
