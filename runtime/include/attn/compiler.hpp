// The per-target plug-in point of the loader: how a kernel request becomes artifact bytes and a callable.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/kernel_abi.h"

namespace attn {

/// What to build: one kernel of one generated translation unit, for one target.
struct KernelRequest {
  std::string target = "cpu";      ///< "cpu" now; "cuda" and "vulkan" plug in as Compilers.
  std::string source;              ///< The whole self-contained generated source text.
  std::string entry;               ///< The exported `attn_kernel_fn` symbol to call.
  std::vector<std::string> flags;  ///< Extra compiler flags the source needs (-fopenmp, -pthread).
  /// What the code generator knows about the kernel that its target's launcher needs (cuda: the
  /// launch shape as JSON, runtime/CudaLaunch.h), as data; empty: the target reads the
  /// declarations the source carries for offline builds. Not part of the cache key (a function
  /// of the source).
  std::string info = {};
};

/// Why a load failed; every LoadError carries one.
enum class LoadErrorKind { UnknownTarget, CompileFailed, LoadFailed, MissingEntry, Internal };

/// A failure to produce a kernel. The message is complete (it includes the compiler's output).
class LoadError : public std::runtime_error {
 public:
  /// Makes an error of `kind` with the full user-facing message.
  LoadError(LoadErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  /// The failure's category.
  LoadErrorKind kind() const { return kind_; }

 private:
  LoadErrorKind kind_;
};

/// A loaded artifact: keeps its code alive and calls its entry.
class KernelModule {
 public:
  virtual ~KernelModule() = default;
  /// Runs the kernel; returns 0 or writes a message to args->error.
  virtual int invoke(const attn_kernel_args* args) const = 0;
  /// The raw C entry where the target has one (cpu), otherwise nullptr.
  virtual attn_kernel_fn entry() const { return nullptr; }
  /// Plans the calls laid out as `args` (a ragged batch's or paged cache's layout, the tensors'
  /// shapes) once, into `plan`, for invoke_planned: the cuda target plans each sequence's launch,
  /// uploads the page table and allocates its split-KV workspace (a wait for the device). `plan`
  /// stays null where the target plans each call on the host itself (cpu, vulkan). Returns 0 or
  /// writes args->error.
  virtual int plan_calls(const attn_kernel_args* args, std::shared_ptr<const void>& plan) const {
    (void)args;
    plan = nullptr;
    return 0;
  }
  /// Runs a call laid out as the planned one with `plan` (null: invoke()). cuda: launched on `stream`
  /// (a CUstream) without allocating, copying or waiting, so that a CUDA graph can capture it;
  /// launches of one plan must not overlap. Returns 0 or writes args->error.
  virtual int invoke_planned(const void* plan, const attn_kernel_args* args, void* stream) const {
    (void)plan, (void)stream;
    return invoke(args);
  }
};

/// Compiles and loads kernels for one target. Implementations must be thread-safe: the loader
/// calls compile() for distinct keys from several threads at once.
class Compiler {
 public:
  virtual ~Compiler() = default;
  /// The target name requests use ("cpu").
  virtual std::string target() const = 0;
  /// Everything besides the request that changes the artifact (flags, host CPU, compiler
  /// identity); hashed into the cache key.
  virtual std::string fingerprint(const KernelRequest& request) const = 0;
  /// Builds the artifact bytes; throws LoadError(CompileFailed) with the tool's diagnostics.
  virtual std::vector<uint8_t> compile(const KernelRequest& request) const = 0;
  /// Loads artifact bytes (fresh or from the disk cache) and resolves request.entry; throws
  /// LoadError(LoadFailed or MissingEntry).
  virtual std::shared_ptr<const KernelModule> load(const std::vector<uint8_t>& artifact,
                                                   const KernelRequest& request) const = 0;
};

/// The host C++ compiler backend: `ATTNC_CXX` (or `c++`) into a shared object, dlopen'ed.
std::unique_ptr<Compiler> make_cpu_compiler();

/// A cpu source with a line that starts with this text, then a count N from 2 to 8, within its
/// first 4 KiB, is compiled as N translation units side by side, the i-th with -DATTN_PART=i, and
/// the objects linked into one shared object (attnc's generated sources: their Halide pipelines in
/// part 1, their entry points in part 2). Any other build compiles the file whole.
inline constexpr const char* kCpuSourcePartsLine = "// attnc-source-parts: ";

}  // namespace attn
