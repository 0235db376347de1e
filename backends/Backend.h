// The backend interface: one object per target says what it is called, what it can do and how
// (emit sources, run, run the backward, tune, tile, load through attn::Loader). The command line,
// the compiler library and the Python package iterate the registry (backends/Registry.cpp) and
// name no target themselves. A new target is one folder and one line in Registry.cpp; a program
// may also register its own at start-up (register_backend). Light header (no Halide.h).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct attn_kernel_args;
struct attn_backward_args;

namespace attn {

struct KernelIR;
struct KernelInputs;
struct KernelOutputs;
struct GradientRequest;
struct KernelGradients;
class Kernel;
class Loader;

/// What `attnc compile` gives every target besides the kernel.
struct EmitOptions {
  std::string source_name;     ///< the .attn file's name (no folders), for banners
  std::string kernel_hash;     ///< the kernel's content hash, for banners
  int head_dim = 0;            ///< for kernels that leave head_dim open (0: the backend's default)
  int cuda_sm = 80;            ///< cuda: the tile table's architecture
  std::string cuda_tiles;      ///< cuda: a pinned tile shape (`describe` text), "wgmma", or empty
  bool cuda_backward = false;  ///< cuda: the backward wherever it applies (`compile --cuda-backward`)
  std::string cpu_isa = "amx,avx512bf16,avx512,avx2,portable";  ///< cpu: the vector paths of the sources
};

/// One generated file of a kernel, named relative to the output folder.
struct EmittedFile {
  std::string name;
  std::string contents;
};

/// A kernel's generated files and what its manifest entry says about them beyond the file list.
struct EmittedKernel {
  std::vector<EmittedFile> files;
  /// Extra manifest fields: name and JSON text (e.g. {"cpu_entry", "\"attn_k\""}).
  std::vector<std::pair<std::string, std::string>> manifest;
};

/// Query rows and keys per tile.
struct TileSizes {
  int q = 0, kv = 0;
};

/// What a command asks of a backend.
enum class Capability { Compile, Dump, Run, Tune, Tiles, Backward, Load };

/// A kernel loaded for calls through the C ABI (attn/kernel_abi.h), as the compiler library and
/// the Python package call it: on the caller's tensors, in place.
class LoadedKernel {
 public:
  virtual ~LoadedKernel() = default;
  /// Runs the forward; 0 on success, else an error in args.error. `stream`: a device stream where
  /// the backend launches on one (a CUstream for cuda), else ignored.
  virtual int call(const attn_kernel_args& args, void* stream = nullptr) const = 0;
  /// The loader's kernel behind it (cache key, raw entry); null when nothing was loaded.
  virtual const Kernel* loaded() const { return nullptr; }
  /// Plans the calls laid out as `args` (a ragged batch's or paged cache's layout and the tensors'
  /// shapes) once, into `plan`, for call_planned: on cuda each sequence's launch, the page table
  /// uploaded and the split-KV workspace allocated (CudaKernelModule::plan), so that a planned
  /// call allocates, copies and waits for nothing and a CUDA graph can capture it. `plan` stays
  /// null where the target plans each call on the host itself (cpu, reference, vulkan). 0, or an
  /// error in args.error.
  virtual int plan(const attn_kernel_args& args, std::shared_ptr<const void>& plan) const {
    (void)args;
    plan = nullptr;
    return 0;
  }
  /// Runs the forward as call() does, with `plan` from this kernel's plan() for a call laid out
  /// the same way (null: call()).
  virtual int call_planned(const void* plan, const attn_kernel_args& args, void* stream = nullptr) const {
    (void)plan;
    return call(args, stream);
  }
};

/// How to load a kernel: the head dims a device module is built for (0: the kernel's, else the
/// backend's default), the loader that compiles and caches it (null: attn::process_loader()), and
/// the shapes of the calls it is for, when the backend may specialize to them (cpu: open head dims
/// fixed to theirs; cuda: their head dims and the tuned tile shape of their size class).
struct KernelLoadOptions {
  int head_dim = 0, value_dim = 0;
  Loader* loader = nullptr;
  const KernelInputs* shapes = nullptr;
  /// The kernel whose backward call_backward runs next on calls of these shapes (autograd recorded
  /// the call), or null: a backend that compiles at run time may compile it beside this kernel. Its
  /// failures are not this load's: call_backward reports them.
  const KernelIR* backward_next = nullptr;
};

/// One target. Each capability's method throws std::logic_error when `can` says no.
class Backend {
 public:
  virtual ~Backend() = default;
  /// The target's name, as -t and dump --stage take it.
  virtual const char* name() const = 0;
  /// Names it used to have, still taken by compile and dump (with a note saying the new one).
  virtual std::vector<std::string> old_names() const { return {}; }
  /// The head dim of kernels that leave it open: 0 when the calls' inputs may bring any.
  virtual int default_head_dim() const { return 0; }
  virtual bool can(Capability c) const = 0;
  /// Why `options` would not do for this backend's sources (e.g. an unknown CPU path), or "".
  virtual std::string check_options(const EmitOptions& options) const { return ""; }
  /// The DLPack device type (dlpack.h's DLDeviceType) of the tensors its calls take: kDLCPU (1)
  /// by default, kDLCUDA (2) for a GPU backend.
  virtual int device_type() const { return 1; }
  /// True when its loaded kernels take a call's tensors where they are, with any strides (cpu,
  /// cuda); false when a call runs on copies (the default load()).
  virtual bool calls_in_place() const { return false; }
  /// Which of load()'s kernels a call shaped like `shapes` needs, as a key (equal keys: one
  /// kernel); "" when one kernel serves every call.
  virtual std::string variant_key(const KernelIR& ir, const KernelInputs& shapes) const { return ""; }

  /// `attnc compile -t`: the kernel's sources (with backward = true its backward's too).
  virtual EmittedKernel emit(const KernelIR& ir, const EmitOptions& options) const;
  /// `attnc dump --stage=<name>`: the generated code for this machine with default options.
  virtual std::string dump(const KernelIR& ir) const;
  /// `attnc run`/`bench`: the kernel on host tensors; `threads` 0 means every core where it applies.
  virtual KernelOutputs run(const KernelIR& ir, const KernelInputs& in, int threads) const;
  /// `attnc run --dout`: the gradients of sum(dOut * Out) (+ sum(dLSE * LSE)).
  virtual KernelGradients backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                                   int threads) const;
  /// `attnc bench --autotune`: searches the tile shapes for `in`'s size; a report of the tries.
  virtual std::string tune(const KernelIR& ir, const KernelInputs& in) const;
  /// `attnc mask -t`: the tiles this target's kernels plan `ir` in.
  virtual TileSizes tiles(const KernelIR& ir) const;
  /// The compiler library and Python: the kernel compiled and loaded for calls on caller tensors
  /// (by default: run() on host copies of them).
  virtual std::shared_ptr<const LoadedKernel> load(std::shared_ptr<const KernelIR> ir,
                                                   const KernelLoadOptions& options) const;
  /// The backward on caller tensors (attn/kernel_backward_abi.h), launched on `stream` where the
  /// backend has streams (by default: backward() on host copies of them). Throws on failure.
  virtual void call_backward(const KernelIR& ir, const attn_backward_args& args, void* stream) const;

 protected:
  [[noreturn]] void lacks(Capability c) const;
};

/// A target name that does not resolve for a command; the message says why and what would.
struct TargetError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Every backend, built-in ones first (in the order help texts list them), then registered ones.
const std::vector<const Backend*>& backends();

/// Adds `b` (which must outlive every use) to the registry, e.g. from a static initializer.
void register_backend(const Backend& b);

/// The names of the backends that can do `c`, comma-separated ("cpu, cuda, vulkan").
std::string backend_names(Capability c);

/// What a command runs a kernel for when it names no target: to check it (`attnc run`: the
/// reference, the meaning every target must match) or to time it (`attnc bench`: the host CPU's).
enum class DefaultUse { Check, Time };
const Backend& default_backend(DefaultUse use);

/// The backend called `name` that can do `c`; Compile and Dump also take old names (`note` then
/// receives a line for the user). Throws TargetError for an unknown name or a missing capability.
const Backend& find_backend(const std::string& name, Capability c, std::string* note = nullptr);

/// A kernel of `b` called through b.run() on host copies of a call's tensors (what load() does by
/// default), for callers whose tensors a backend's own modules may not take as they are.
std::shared_ptr<const LoadedKernel> load_on_host_copies(const Backend& b, std::shared_ptr<const KernelIR> ir);

/// The head dim a backend builds a kernel for: `requested`, else the kernel's, else the backend's
/// default (0 when it takes any at call time).
int backend_head_dim(const Backend& b, const KernelIR& ir, int requested);

}  // namespace attn
