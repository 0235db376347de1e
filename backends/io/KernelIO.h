// What every backend takes and returns: a kernel's inputs and outputs as host tensors, the errors a
// run reports, and the checks and argument order all runners share.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/KernelOptions.h"
#include "frontend/Diagnostic.h"
#include "runtime/HostTensor.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

struct KernelIR;

/// A kernel's inputs: Q [B, Hq, Lq, D], K [B, Hkv, Lkv, D], V [B, Hkv, Lkv, Dv] in the kernel's
/// dtype, and its run-time arguments by name. A ragged batch (backends/io/RaggedBatch.h) packs its
/// sequences instead: Q [Tq, Hq, D], K [Tk, Hkv, D], V [Tk, Hkv, Dv] with i32 boundaries [N + 1];
/// with a paged KV cache, K and V are pages read through a page table.
struct KernelInputs {
  HostTensor q, k, v;
  std::map<std::string, HostTensor> buffers;
  std::map<std::string, double> scalars;
  HostTensor cu_seqlens_q{}, cu_seqlens_k{};  ///< empty (no dimensions) for a dense batch
  /// A paged KV cache (with cu_seqlens_q, not cu_seqlens_k): K [pages, page_size, Hkv, D], V
  /// [pages, page_size, Hkv, Dv], page_table i32 [N, max_pages], kv_lens i32 [N]; empty otherwise.
  HostTensor page_table{}, kv_lens{};
  /// An FP8 kernel's descale factors (docs/language.md, section 8): f32 [1] or [B, Hkv] (a ragged
  /// batch's or paged cache's B is its sequence count); empty (no dimensions): 1.
  HostTensor q_descale{}, k_descale{}, v_descale{};

  /// Packed queries: a ragged batch, paged or not.
  bool ragged() const { return !cu_seqlens_q.shape.empty() || !cu_seqlens_k.shape.empty() || paged(); }
  bool paged() const { return !page_table.shape.empty() || !kv_lens.shape.empty(); }
};

/// A dense batch's outputs; a ragged one's are out [Tq, Hq, Dv], lse and max [Tq, Hq].
struct KernelOutputs {
  HostTensor out;  ///< [B, Hq, Lq, Dv] in the kernel's dtype (bf16 for an FP8 kernel: out_scalar_type)
  HostTensor lse;  ///< [B, Hq, Lq] f32 (natural log); empty unless the kernel sets lse
  HostTensor max;  ///< [B, Hq, Lq] f32, each row's maximum kept score; empty unless it sets return_max
};

/// What the backward pass computes from: loss = sum(dOut * Out) (+ sum(dLSE * LSE)).
struct GradientRequest {
  HostTensor dout;  ///< [B, Hq, Lq, Dv] ([Tq, Hq, Dv] ragged) in the kernel's dtype, like Out
  HostTensor dlse;  ///< [B, Hq, Lq] ([Tq, Hq]) f32; empty (no dimensions) when not given
  std::vector<std::string> buffers;  ///< the f32 tensor arguments whose gradient is wanted
};

/// The backward pass's results: dQ, dK, dV in the kernel's dtype, shaped like Q, K, V, and the
/// gradient of each requested buffer (f32, its shape).
struct KernelGradients {
  HostTensor dq, dk, dv;
  std::map<std::string, HostTensor> buffers;
};

/// Inputs that do not fit the kernel (shapes, dtypes, missing or extra arguments).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run-time error while running a kernel (a buffer index out of range); the message names the
/// buffer, the index and the point.
struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A kernel a backend cannot generate (a head dimension past its limit, tiles that overflow shared
/// memory, a dtype its kernels lack): an error diagnostic located at the kernel's name, which the
/// command line renders as `file:line:col: error: ...`. what() is the bare message.
class KernelLimitError : public std::invalid_argument {
 public:
  KernelLimitError(const KernelIR& ir, const std::string& message);
  const Diagnostic& diagnostic() const { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

/// The factor of batch entry (or sequence) `b`, key/value head `hk` in an FP8 kernel's descale
/// tensor `t` of a call with `Hkv` key/value heads: t[0] when it is [1], t[b, hk] when [B, Hkv], 1
/// when it is absent (no dimensions).
double descale_factor(const HostTensor& t, int64_t b, int64_t hk, int64_t Hkv);

/// Throws KernelLimitError when the kernel is FP8 (dtype e4m3 or e5m2), which `target`'s shaders
/// do not take (vulkan converts FP8 inputs on load instead).
void require_no_fp8(const KernelIR& ir, const std::string& target);
/// Throws KernelLimitError for an FP8 kernel, which has no backward pass (as FlashAttention 3's).
void require_backward_dtype(const KernelIR& ir);

/// The element type of Q, K and V of a kernel with dtype `d` (and of Out, dOut, dQ, dK, dV, except
/// for FP8 kernels).
ScalarType io_scalar_type(DType d);
/// The element type of Out of a kernel with dtype `d`: bf16 for FP8 kernels, else io_scalar_type.
ScalarType out_scalar_type(DType d);

/// Checks `in` against the kernel; throws InputError with a message naming the culprit.
void validate_inputs(const KernelIR& ir, const KernelInputs& in);

/// Checks `r` against the kernel and its (already valid) inputs: dOut's and dLSE's shapes (a ragged
/// batch's packed [Tq, Hq, Dv] and [Tq, Hq]) and dtypes, dLSE only for a kernel that sets lse, each
/// requested buffer an f32 tensor argument that the score reads (the mask is not differentiated),
/// and no paged KV cache (it has no backward). Throws InputError naming the culprit.
void validate_gradient_request(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r);

/// Zeroed gradients for `in` and `r`: dq, dk, dv in the kernel's dtype, the requested buffers in f32.
KernelGradients make_gradients(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r);

/// Zeroed outputs for `in` (4-D Q and V): out in the kernel's dtype, lse when the kernel sets it.
KernelOutputs make_outputs(const KernelIR& ir, const KernelInputs& in);

/// `in` and `out` in the order of the kernel ABI: buffers and scalars by declaration. Throws
/// InputError for a missing argument. The result points into `in` and `out`.
KernelCallTensors call_tensors(const KernelIR& ir, const KernelInputs& in, KernelOutputs& out);

}  // namespace attn
