// The kernels of one .attn program, compiled for Python callers: the frontend and lowering run once
// when the library loads; each target's code is generated on the first call. Free of Python.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "attn/compile.hpp"  // SourceError: bad .attn text, located diagnostics

namespace attn {
struct KernelIR;
struct Program;
class CpuKernel;
}  // namespace attn

namespace attn::python {

/// One lowered kernel and the program it came from (its sources locate diagnostics).
class LibraryKernel {
 public:
  LibraryKernel(std::shared_ptr<const Program> program, std::shared_ptr<const KernelIR> ir);
  const KernelIR& ir() const { return *ir_; }
  const Program& program() const { return *program_; }
  /// The host CPU kernel, generated and compiled (through the process loader and its disk cache)
  /// on the first call.
  std::shared_ptr<CpuKernel> cpu_kernel();

 private:
  std::shared_ptr<const Program> program_;
  std::shared_ptr<const KernelIR> ir_;
  std::mutex mutex_;
  std::shared_ptr<CpuKernel> cpu_;
};

/// The kernels of the program in `text` (`path` names it in messages and anchors relative
/// imports), in file order. Throws SourceError with the rendered diagnostics.
std::vector<std::shared_ptr<LibraryKernel>> compile_text(const std::string& path, const std::string& text);

/// The same for the file at `path`.
std::vector<std::shared_ptr<LibraryKernel>> compile_file(const std::string& path);

}  // namespace attn::python
