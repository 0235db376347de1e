// The kernels of one .attn program, compiled for Python callers: the frontend and lowering run once
// when the library loads; each target's code is generated on the first call. Free of Python.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "attn/compile.hpp"  // SourceError: bad .attn text, located diagnostics
#include "attn/loader.hpp"

namespace attn {
struct KernelIR;
struct Program;
class CpuKernel;
struct HeadDims;
struct KernelInputs;
}  // namespace attn

namespace attn::python {

/// One lowered kernel and the program it came from (its sources locate diagnostics).
class LibraryKernel {
 public:
  LibraryKernel(std::shared_ptr<const Program> program, std::shared_ptr<const KernelIR> ir);
  const KernelIR& ir() const { return *ir_; }
  /// ir() with lse set (ir() itself when it sets it): the forward that autograd runs, whose LSE
  /// the backward reads, and what a call asking for the LSE of a kernel without one runs.
  const KernelIR& ir(bool lse) const { return lse ? *lse_ir_ : *ir_; }
  const Program& program() const { return *program_; }
  /// The host CPU kernel of ir(lse) for a call's head dims (open head dims fixed to them:
  /// with_call_head_dims), generated and compiled (through the process loader and its disk cache)
  /// on the first call for each.
  std::shared_ptr<CpuKernel> cpu_kernel(bool lse, HeadDims call);
  /// The CUDA kernel of ir(lse) for inputs shaped like `shapes` (head dims; a tuned tile shape of
  /// their size class when one is cached), printed and compiled (NVRTC, the loader's disk cache)
  /// on the first call for each. Throws CudaError without a driver or GPU.
  Kernel cuda_kernel(bool lse, const KernelInputs& shapes);

 private:
  std::shared_ptr<const Program> program_;
  std::shared_ptr<const KernelIR> ir_, lse_ir_;
  std::mutex mutex_;
  std::map<std::tuple<bool, int64_t, int64_t>, std::shared_ptr<CpuKernel>> cpu_;
  /// By lse, head dims and the size class of B * Hq, Lq, Lkv (powers of two, as tuned shapes are).
  std::map<std::tuple<bool, int64_t, int64_t, int64_t, int64_t, int64_t>, Kernel> cuda_;
};

/// The kernels of the program in `text` (`path` names it in messages and anchors relative
/// imports), in file order. Throws SourceError with the rendered diagnostics.
std::vector<std::shared_ptr<LibraryKernel>> compile_text(const std::string& path, const std::string& text);

/// The same for the file at `path`.
std::vector<std::shared_ptr<LibraryKernel>> compile_file(const std::string& path);

}  // namespace attn::python
