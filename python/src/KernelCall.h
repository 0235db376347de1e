// One call of a library kernel on caller-owned tensors (DLPack views): the checks and messages of
// the command line, then the target. The cpu and cuda targets read and write the callers' memory
// in place (cuda: launched on the caller's stream); reference and vulkan copy through host
// tensors. Free of Python.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "attn/kernel_abi.h"

namespace attn {
class LoadedKernel;  // backends/Backend.h
}  // namespace attn

namespace attn::python {

class LibraryKernel;

/// A caller's tensor as DLPack describes it; strides count elements.
struct TensorView {
  void* data = nullptr;
  DLDevice device{kDLCPU, 0};
  DLDataType dtype{};
  std::vector<int64_t> shape, strides;
};

/// Where a tensor is, as messages say it: "cpu", "cuda:1", or the DLPack device type.
inline std::string device_text(const DLDevice& d) {
  if (d.device_type == kDLCPU) return "cpu";
  if (d.device_type == kDLCUDA) return "cuda:" + std::to_string(d.device_id);
  return "DLPack device type " + std::to_string(d.device_type);
}

/// A call's plan (plan_call), for calls laid out like the planned one.
struct CallPlan {
  std::shared_ptr<const LoadedKernel> kernel;  ///< the kernel that planned it, kept loaded
  std::shared_ptr<const void> plan;  ///< LoadedKernel::plan's; null where the target plans each call
};

/// The tensors and values of one call. `out` is dense, row-major and already shaped [B, Hq, Lq, Dv];
/// `lse` likewise [B, Hq, Lq] f32, or no shape: none. A call may ask for the LSE of a kernel that
/// does not set lse (autograd's forward, whose LSE the backward reads): it runs the kernel with lse.
/// `max` [B, Hq, Lq] f32 takes the row maxima of a kernel that sets return_max (required there).
struct KernelCall {
  TensorView q, k, v, out, lse, max;
  /// A ragged batch's boundaries (host i32 [N + 1]); no shape: a dense batch.
  TensorView cu_seqlens_q, cu_seqlens_k;
  /// A paged KV cache's page table (host i32 [N, max_pages]) and key lengths (i32 [N]), with
  /// cu_seqlens_q: k and v are then [pages, page_size, Hkv, D]. No shape: not paged.
  TensorView page_table, kv_lens;
  /// An FP8 kernel's descale factors (f32 [1] or [B, Hkv], on q's device); no shape: 1.
  TensorView q_descale, k_descale, v_descale;
  std::map<std::string, TensorView> buffers;
  std::map<std::string, double> scalars;
  std::string target;      ///< a target of the backend registry that loads kernels; "": the one of q's device
  int threads = 0;         ///< 0: every core
  void* stream = nullptr;  ///< cuda: the CUstream to launch on (PyTorch's current stream)
  /// Autograd recorded the call: its backward follows, which a first call may start compiling now
  /// (KernelLoadOptions::backward_next).
  bool backward_next = false;
  /// A plan of plan_call for calls laid out like this one (the same layout and shapes), or null.
  std::shared_ptr<const CallPlan> plan;
};

/// The rest of a backward call: the forward's Out and LSE (from a call with an lse; read by the cpu
/// and cuda targets, the others run the forward again), dOut and dLSE (for a kernel that sets lse; no shape:
/// none) in; dQ, dK, dV and the gradients of the buffers named in `dbuffers` out (dense, row-major,
/// shaped like their inputs; dbuffers f32).
struct GradientCall {
  TensorView out, lse, dout, dlse, dq, dk, dv;
  std::map<std::string, TensorView> dbuffers;
};

/// Runs `kernel` on `call`. Throws InputError (inputs that do not fit, a buffer index out of
/// range), SourceError (a backend limit, located at the kernel), LoadError (the host compiler
/// failed) and std::runtime_error (no Vulkan device, ...).
void call_kernel(LibraryKernel& kernel, const KernelCall& call);

/// Plans calls laid out like `call` (a ragged batch's or paged cache's layout, the tensors' shapes)
/// once, for call_kernel with KernelCall::plan: on cuda the launches, the uploaded page table and the
/// split-KV workspace (LoadedKernel::plan), so that a planned call allocates, copies and waits for
/// nothing. Loads the kernel as call_kernel does; nothing runs. Throws as call_kernel.
std::shared_ptr<const CallPlan> plan_call(LibraryKernel& kernel, const KernelCall& call);

/// The backward of `kernel` at `call` into `grads`: on cpu and cuda in place on the callers'
/// tensors (any strides with a contiguous last dimension; cuda: launched on `call.stream`, rows
/// 16-byte aligned, bf16/f16 with head dims 64 or 128), on reference and vulkan through host
/// copies. Throws as call_kernel.
void call_kernel_backward(LibraryKernel& kernel, const KernelCall& call, const GradientCall& grads);

}  // namespace attn::python
