// The loader's cuda target: NVRTC to cubin (cached by the loader), the driver to load and launch.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "attn/compiler.hpp"
#include "runtime/CudaLaunch.h"
#include "runtime/CudaLaunchPlan.h"

namespace attn {

struct CudaCompilerOptions {
  /// NVRTC's -arch (sm_80, sm_90a, ...); empty: the device's, found when first needed.
  std::string arch;
  int device = 0;  ///< the GPU kernels are loaded on
};

class CudaKernelModule;

/// A call's launches planned by CudaKernelModule::plan, for launch_planned.
struct CudaCallPlan {
  CudaCallPlan(const CudaKernelModule* m, std::shared_ptr<CudaDevice> d, CudaPlacedPlan p)
      : module(m), device(std::move(d)), placed(std::move(p)) {}
  const CudaKernelModule* module;      ///< the kernel that planned it (its tiles and grids)
  std::shared_ptr<CudaDevice> device;  ///< kept open while the plan's memory lives
  CudaPlacedPlan placed;
};

/// A loaded cuda kernel (what Kernel::module() holds for the cuda target). invoke() launches on the
/// legacy default stream and waits, reporting an out-of-range buffer index from the module's error
/// word (runtime/CudaErrorWord.h).
class CudaKernelModule : public KernelModule {
 public:
  /// Launches on `stream` (a CUstream / cudaStream_t of the device's primary context, the one
  /// PyTorch uses) and returns without waiting: the tensors must stay alive until the stream has
  /// run it. Scratch memory is allocated and freed in stream order. The host waits for the
  /// stream only to read the buffers of a mask that plans its tiles from them. A buffer index out
  /// of range reads 0 and sets the module's error word (zeroed once, not per launch), which is
  /// read when the launcher next synchronizes: take_error(), or the wait for a tile plan's
  /// buffers (args->error then reports the earlier launch's error). Returns 0 or writes args->error.
  virtual int launch_on(const attn_kernel_args* args, void* stream) const = 0;
  /// Plans the launches of calls laid out as `args` once, FlashInfer's plan(): reads and checks its
  /// layout (a ragged batch's boundaries, a paged cache's table and key counts, from CPU or GPU
  /// memory), gives each sequence its grid and split-KV share of one workspace, plans the tiles
  /// of a mask that reads buffers from their values now, uploads the page table and those tiles,
  /// and waits for the device. The plan serves every later call whose tensors have the same
  /// shapes, whatever their values and addresses (launch_planned). Null, with args->error
  /// written, when the call is refused.
  virtual std::shared_ptr<const CudaCallPlan> plan(const attn_kernel_args* args) const = 0;
  /// Launches `plan` on `stream` with the tensors of `args` (a call laid out like the planned one;
  /// its layout's values are not read) and returns: no allocation, copy or host wait, so a CUDA
  /// graph can capture it. Launches of one plan must not overlap (they share its split
  /// workspace): one stream at a time. Returns 0 or writes args->error (shapes that differ from
  /// the plan's, a plan of another kernel).
  virtual int launch_planned(const CudaCallPlan& plan, const attn_kernel_args* args, void* stream) const = 0;
  /// Waits for the device, then returns the error the module's launches reported since the last
  /// report ("buffer 'doc' index 5 is out of range [0, 5) in dimension 0"), or an empty string.
  virtual std::string take_error() const = 0;
};

/// The cuda Compiler for attn::Loader (`loader.add_compiler(make_cuda_compiler())`). Requests
/// carry a .cu written by the CUDA printer and its entry; modules launch on DLPack tensors that
/// live on the device (kDLCUDA), synchronously. Without a driver, compile() still works when
/// `arch` is set; load() throws LoadError(LoadFailed, "no CUDA driver: ...").
std::unique_ptr<Compiler> make_cuda_compiler(const CudaCompilerOptions& options = {});

}  // namespace attn
