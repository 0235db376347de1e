// One kernel call's arguments in the C ABI (attn/kernel_abi.h): DLPack views of host tensors (or of
// their device copies) and the attn_kernel_args that points at them. Every runner fills its calls here.
#pragma once

#include <deque>
#include <functional>
#include <vector>

#include "attn/kernel_abi.h"
#include "runtime/HostTensor.h"

namespace attn {

/// The DLPack type of `t`'s elements. Every ScalarType has its own (bool is DLPack's kDLBool, u8
/// kDLUInt), so dl_scalar_type inverts it.
DLDataType dl_data_type(ScalarType t);

/// The ScalarType of DLPack type `t`; throws std::invalid_argument for a type attnc does not use
/// (vectors, complex, other widths).
ScalarType dl_scalar_type(DLDataType t);

/// A dense row-major DLPack view of `t` in host memory (no strides; `t` must outlive the view).
DLTensor host_view(const HostTensor& t);

/// Element strides of a DLPack tensor (compact row-major when `strides` is null), and the address
/// of its first element.
std::vector<long long> dl_strides(const DLTensor* t);
const void* dl_data(const DLTensor* t);

/// The tensors and scalars of one call, in the ABI's order. Pointers must outlive the call.
struct KernelCallTensors {
  const HostTensor* q = nullptr;
  const HostTensor* k = nullptr;
  const HostTensor* v = nullptr;
  HostTensor* out = nullptr;
  HostTensor* lse = nullptr;                 ///< null: the kernel computes no LSE
  HostTensor* max = nullptr;                 ///< null: the kernel writes no row maxima
  std::vector<const HostTensor*> buffers;    ///< the kernel's tensor parameters, in declaration order
  std::vector<double> scalars;               ///< its scalar parameters, in declaration order
  const HostTensor* cu_seqlens_q = nullptr;  ///< a ragged batch's boundaries (both or neither)
  const HostTensor* cu_seqlens_k = nullptr;
  const HostTensor* page_table = nullptr;  ///< a paged KV cache's table and key lengths (both or neither)
  const HostTensor* kv_lens = nullptr;
  /// An FP8 kernel's descale factors, f32 [1] or [B, Hkv] each; null: 1.
  const HostTensor* q_descale = nullptr;
  const HostTensor* k_descale = nullptr;
  const HostTensor* v_descale = nullptr;
};

/// DLPack views of a call's tensors and the filled attn_kernel_args over them (version
/// ATTN_KERNEL_ABI_VERSION, an error buffer). Views are contiguous row-major; a caller may give one
/// strides or other data through view(). Neither copyable nor movable: args() points into it.
class KernelCallArgs {
 public:
  /// Where the kernel finds a tensor's bytes: called once per tensor with `output` true for out,
  /// lse and max (a device copy, uploaded or not). Unset: the host tensor's own bytes.
  using Placement = std::function<void*(const HostTensor& tensor, bool output)>;

  /// Views on `device` (kDLCPU by default) over the bytes `place` gives.
  explicit KernelCallArgs(const KernelCallTensors& tensors, DLDevice device = {kDLCPU, 0},
                          const Placement& place = {});
  KernelCallArgs(const KernelCallArgs&) = delete;
  KernelCallArgs& operator=(const KernelCallArgs&) = delete;

  /// The arguments; callers may set num_threads, kv_ranges and the like before the call.
  attn_kernel_args& args() { return args_; }
  /// The view of `t`, one of the call's tensors (throws std::invalid_argument for another).
  DLTensor& view(const HostTensor& t);
  /// The message the kernel wrote when it returned non-zero.
  const char* error() const { return error_; }

 private:
  struct View {
    const HostTensor* tensor;
    std::vector<int64_t> shape;
    DLTensor dl{};
  };
  DLTensor* add_view(const HostTensor& t, bool output, DLDevice device, const Placement& place);

  std::deque<View> views_;  ///< stable addresses
  std::vector<const DLTensor*> buffers_;
  std::vector<double> scalars_;
  char error_[1024] = "";
  attn_kernel_args args_{};
};

}  // namespace attn
