// The compiler library (attnc::compiler, libattnc_compiler): .attn text to a kernel loaded through
// attn::Loader at run time. Light header: neither Halide nor ANTLR; the stdlib is built in.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/kernel_abi.h"
#include "attn/loader.hpp"

namespace attn {

/// A program that does not compile, a kernel that is not there, or a kernel a backend cannot
/// build: what() is the located diagnostics as `attnc check` prints them
/// (`file:line:col: error: ...`, one or more lines).
class SourceError : public std::runtime_error {
 public:
  /// Makes an error whose what() is `diagnostics`.
  explicit SourceError(const std::string& diagnostics);
  ~SourceError() override;
};

/// One run-time argument of a kernel, in declaration order: a buffer goes to
/// attn_kernel_args::buffers, a scalar to attn_kernel_args::scalars, each in that order.
struct KernelParam {
  std::string name;
  bool is_buffer = false;
  std::string elem;               ///< element type: "i32", "f32", "bool", ...
  std::vector<std::string> dims;  ///< a buffer's declared dimensions
};

/// What compile_kernel builds and where it loads it.
struct CompileOptions {
  /// The kernel's name; empty: the file's only kernel.
  std::string kernel;
  /// A target of the backend registry that loads kernels (`attnc --help` lists them): "cpu" (the
  /// host's best vector ISA), "vulkan" (the process's Vulkan device, docs/spirv.md), "cuda" (CUDA
  /// device 0, through NVRTC: the loader needs its cuda compiler, as attn::process_loader() has)
  /// or "reference" (the reference backend in double precision, in process: an oracle to check
  /// the others against; nothing is compiled or loaded). Empty: the registry's default for running
  /// on this machine (the cpu target).
  std::string target;
  /// The loader that compiles and caches the kernel (it must outlive the kernel); null:
  /// attn::process_loader().
  Loader* loader = nullptr;
  /// vulkan, cuda: the head dims the module is built for; 0: the kernel's `head_dim` (`value_dim`,
  /// else the head dim), else the target's default (cuda 128, vulkan 64). The cpu and reference
  /// targets take any.
  int head_dim = 0, value_dim = 0;
};

/// A kernel compiled from .attn text and loaded. Cheap to copy; keeps its code alive.
class CompiledKernel {
 public:
  /// The kernel's name in the .attn file.
  const std::string& name() const;
  /// The element type of q, k, v and out ("f32", "f16", "bf16").
  const std::string& dtype() const;
  /// Whether the kernel writes attn_kernel_args::lse (it sets `lse = true`).
  bool writes_lse() const;
  /// Its run-time arguments, in declaration order.
  const std::vector<KernelParam>& params() const;
  /// The loaded kernel (cache key, raw entry); empty for the reference target.
  const Kernel& kernel() const;

  /// Runs the kernel; returns 0 or a non-zero code with args.error filled in. Tensors are in host
  /// memory (vulkan: compact row-major, copied to the device and back; reference: any strides),
  /// except on cuda, where they are in the device's memory (kDLCUDA). On cpu, when the mask reads
  /// buffers and args.kv_ranges is NULL, the run-time tile planner gives the key ranges first, as
  /// `attnc run` does (buffers must then be dense and row-major); the cuda kernel plans its own.
  int operator()(const attn_kernel_args& args) const;

  struct State;
  /// Used by compile_kernel.
  explicit CompiledKernel(std::shared_ptr<const State> state);

 private:
  std::shared_ptr<const State> state_;
};

/// Compiles the kernel `options.kernel` of the program `text` for `options.target` and loads it
/// (one compile per distinct kernel; later processes hit the loader's disk cache). `file` names the
/// program in diagnostics and anchors its relative imports; `import std.X` uses the built-in
/// stdlib. Throws SourceError (bad program, unknown kernel, backend limit), LoadError (the host
/// compiler failed; no Vulkan device; NVRTC failed), std::invalid_argument (an unknown target)
/// and std::runtime_error (no Vulkan loader or device, no CUDA
/// driver or device).
CompiledKernel compile_kernel(const std::string& file, const std::string& text,
                              const CompileOptions& options = {});

/// The same for the program in the file `path` (a file that cannot be read is a SourceError).
CompiledKernel compile_kernel_file(const std::string& path, const CompileOptions& options = {});

}  // namespace attn
