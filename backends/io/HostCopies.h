// A call's DLPack tensors in host memory as host tensors and back: what a backend that runs on
// copies (the reference, or any backend's default LoadedKernel and backward) does around a call.
#pragma once

#include <cstddef>
#include <exception>
#include <string>

#include <dlpack/dlpack.h>

#include "backends/io/KernelIO.h"

struct attn_kernel_args;
struct attn_backward_args;

namespace attn {

struct KernelIR;

/// A copy of `view` (host memory, any strides); throws InputError naming `name` for a tensor in
/// device memory, without shape or data, or of a type attnc does not use.
HostTensor read_host_tensor(const DLTensor* view, const std::string& name);

/// Writes `h` into `view` (host memory, any strides); throws InputError when its type or shape differ.
void write_host_tensor(const HostTensor& h, DLTensor* view, const std::string& name);

/// Q, K, V, the buffers and the scalars of a forward call, copied out of `args` in `ir`'s
/// argument order; throws InputError for a missing argument.
KernelInputs read_call_inputs(const KernelIR& ir, const attn_kernel_args& args);

/// The same for a backward call; `request` receives dOut, dLSE and the buffers whose gradients
/// the call asks for (args.buffer_grads[i] set).
KernelInputs read_backward_inputs(const KernelIR& ir, const attn_backward_args& args,
                                  GradientRequest& request);

/// Writes dQ, dK, dV and the requested buffer gradients of `g` into `args`' tensors.
void write_backward_outputs(const KernelIR& ir, const KernelGradients& g, const attn_backward_args& args);

/// Writes "KERNEL: what" into a call's error buffer (when it has one) and returns 1: how a call
/// reports a failure through args.error, as the generated kernels do.
int report_call_error(const KernelIR& ir, const std::exception& e, char* error, size_t error_size);

}  // namespace attn
