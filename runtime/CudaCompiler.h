// The loader's cuda target: NVRTC to cubin (cached by the loader), the driver to load and launch.
#pragma once

#include <memory>
#include <string>

#include "attn/compiler.hpp"
#include "runtime/CudaLaunch.h"

namespace attn {

struct CudaCompilerOptions {
  /// NVRTC's -arch (sm_80, sm_90a, ...); empty: the device's, found when first needed.
  std::string arch;
  int device = 0;  ///< the GPU kernels are loaded on
};

/// The cuda Compiler for attn::Loader (`loader.add_compiler(make_cuda_compiler())`). Requests
/// carry a .cu written by the CUDA printer and its entry; modules launch on DLPack tensors that
/// live on the device (kDLCUDA), synchronously. Without a driver, compile() still works when
/// `arch` is set; load() throws LoadError(LoadFailed, "no CUDA driver: ...").
std::unique_ptr<Compiler> make_cuda_compiler(const CudaCompilerOptions& options = {});

}  // namespace attn
