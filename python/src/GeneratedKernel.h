// A kernel of a folder written by `attnc compile -t cuda [--cuda-backward]`, called without the
// compiler: what the runtime-only extension (attnc._runtime, docs/python.md "A runtime-only
// build") runs. The manifest gives its arguments and options, the .cu files its code. Free of
// Python; throws std::invalid_argument for the caller's errors.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "attn/kernel_backward_abi.h"
#include "attn/loader.hpp"
#include "python/src/KernelCall.h"  // TensorView
#include "runtime/CudaBackwardLaunch.h"
#include "runtime/HostTensor.h"

namespace attn::python {

/// One run-time argument as the manifest lists it.
struct GeneratedArg {
  std::string name;
  bool buffer = false;
  std::string elem;               ///< i32, f32 or bool
  std::vector<std::string> dims;  ///< a name (any extent) or an integer (exactly that)
};

class GeneratedKernel {
 public:
  /// The kernel `entry` of manifest.json in `folder` (its "kernels" array item); reads its .cu
  /// (and NAME_backward.cu when listed). Throws std::invalid_argument naming what is missing.
  GeneratedKernel(const std::string& folder, const std::string& manifest_entry_json);

  const std::string& name() const { return name_; }
  ScalarType dtype() const { return dtype_; }
  int head_dim() const { return head_dim_; }
  int value_dim() const { return value_dim_; }
  bool lse() const { return lse_; }
  bool has_backward() const { return !backward_source_.empty(); }
  const std::string& hash() const { return hash_; }
  const std::vector<GeneratedArg>& args() const { return args_; }

  /// Runs the forward on CUDA tensors, launched on `stream` without waiting (out, and lse when
  /// given, written). Checks as attnc's compiler-side path does, with its messages.
  void run(const TensorView& q, const TensorView& k, const TensorView& v, const TensorView& out,
           const TensorView* lse, const std::map<std::string, TensorView>& buffers,
           const std::map<std::string, double>& scalars, void* stream);

  /// The backward (NAME_backward.cu) on CUDA tensors, launched on `stream`: dq, dk, dv and the
  /// gradients of the buffers in `dbuffers` (f32, dense).
  void backward(const TensorView& q, const TensorView& k, const TensorView& v,
                const std::map<std::string, TensorView>& buffers,
                const std::map<std::string, double>& scalars, const TensorView& out, const TensorView& lse,
                const TensorView& dout, const TensorView* dlse, const TensorView& dq, const TensorView& dk,
                const TensorView& dv, const std::map<std::string, TensorView>& dbuffers, void* stream);

 private:
  /// Checks q, k, v and the buffers against the manifest; the scalars in declaration order.
  std::vector<double> check(const TensorView& q, const TensorView& k, const TensorView& v,
                            const std::map<std::string, TensorView>& buffers,
                            const std::map<std::string, double>& scalars) const;

  std::string name_, hash_, source_, backward_source_;
  std::string launch_;  ///< the launch shape from manifest.json (write_cuda_launch_info), or empty
  /// The backward's launch shape from manifest.json (write_cuda_backward_info), or empty.
  std::string backward_launch_;
  ScalarType dtype_ = ScalarType::F32;
  int head_dim_ = 0, value_dim_ = 0;
  bool lse_ = false;
  std::vector<GeneratedArg> args_;
  std::mutex mutex_;
  Kernel forward_;  ///< loaded on the first call
  struct Backward;  ///< its module, info and error word, loaded on the first call
  std::shared_ptr<Backward> backward_;
};

/// The kernels of `folder`/manifest.json that have a CUDA source, in manifest order. Throws
/// std::invalid_argument when the folder has no manifest or it does not parse.
std::vector<std::shared_ptr<GeneratedKernel>> load_generated_folder(const std::string& folder);

}  // namespace attn::python
