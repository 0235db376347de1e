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
struct KernelInputs;
class Backend;
class LoadedKernel;
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
  /// The kernel of ir(lse) that `backend` runs for calls shaped like `shapes` (one per its
  /// variant_key: the cpu fixes open head dims to the call's, cuda takes a tuned tile shape of
  /// their size class when one is cached), generated and loaded (the process loader and its disk
  /// cache) on the first call for each: in place where the backend calls in place, else on host
  /// copies. Throws what the backend's load throws (CudaError without a driver or GPU, ...). With
  /// `backward_next` (autograd recorded the call), a first load tells the backend that the
  /// backward of ir() follows (KernelLoadOptions::backward_next), so that both compile side by side.
  std::shared_ptr<const LoadedKernel> loaded(const Backend& backend, bool lse, const KernelInputs& shapes,
                                             bool backward_next = false);

 private:
  std::shared_ptr<const Program> program_;
  std::shared_ptr<const KernelIR> ir_, lse_ir_;
  std::mutex mutex_;
  /// By backend, IR (ir_ or lse_ir_) and variant key.
  std::map<std::tuple<std::string, const KernelIR*, std::string>, std::shared_ptr<const LoadedKernel>>
      loaded_;
};

/// The kernels of the program in `text` (`path` names it in messages and anchors relative
/// imports), in file order. Throws SourceError with the rendered diagnostics.
std::vector<std::shared_ptr<LibraryKernel>> compile_text(const std::string& path, const std::string& text);

/// The same for the file at `path`.
std::vector<std::shared_ptr<LibraryKernel>> compile_file(const std::string& path);

}  // namespace attn::python
