// The CPU backend's public face: generate vectorized C++ source for a kernel, and compile and run it.
// Light header (no Halide.h): the CLI, tests and the loader include it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attn/compiler.hpp"
#include "attn/kernel_abi.h"
#include "attn/kernel_backward_abi.h"
#include "backends/io/KernelIO.h"
#include "codegen/KernelOptions.h"
#include "runtime/TilePlanner.h"

namespace attn {

struct KernelIR;
class Loader;

/// The instruction set the emitted C++ is scheduled for (vector width, register budget), widest
/// first. AMX and AVX512BF16 are the AVX-512 path with Q·Kᵀ and P·V in bf16 on AMX tiles or with
/// `vdpbf16ps` (f32 accumulation; docs/cpu.md, "The bf16 matrix paths"): only the forwards of bf16
/// and FP8 kernels (FP8 converted to bf16 on load) have them, every other kernel takes the AVX-512
/// path in their place (effective_cpu_isa).
enum class CpuIsa { AMX, AVX512BF16, AVX512, AVX2, Portable };

/// "amx", "avx512bf16", "avx512", "avx2", "portable".
const char* cpu_isa_name(CpuIsa isa);

/// Whether `isa` computes the two products in bf16 (AMX, AVX512BF16).
bool is_matrix_isa(CpuIsa isa);

/// What the generated kernel is tuned for.
struct CpuTarget {
  CpuIsa isa = CpuIsa::AVX512;
};

/// Every vector path a generated source may carry, widest first: amx, avx512bf16, avx512, avx2,
/// portable (a kernel that is not bf16 or FP8 carries the last three: effective_cpu_isa).
std::vector<CpuTarget> all_cpu_paths();

/// The paths `spec` names, widest first: a comma-separated list of amx, avx512bf16, avx512, avx2,
/// portable and host (this machine's best). Throws std::invalid_argument naming a path it does not know.
std::vector<CpuTarget> parse_cpu_paths(const std::string& spec);

/// The best target this machine runs (AMX-BF16 with the OS's permission, else AVX512-BF16, else
/// AVX-512F, else AVX2+FMA, else portable), or the narrower one the environment variable
/// ATTNC_CPU_ISA names, as generated sources choose.
CpuTarget host_cpu_target();

/// The path a kernel of I/O dtype `dtype` takes for `isa`: the matrix paths serve bf16 and FP8
/// forwards only (`backward`: the backward has none yet), AVX-512 stands in for them otherwise.
CpuIsa effective_cpu_isa(CpuIsa isa, DType dtype, bool backward);
/// The paths a source for `targets` carries (effective_cpu_isa of each, without repeats, in order).
std::vector<CpuTarget> effective_cpu_paths(const std::vector<CpuTarget>& targets, DType dtype, bool backward);

/// Query rows per tile and keys per block of the kernels generated for `target`.
struct CpuTiles {
  int tile_q = 32, key_block = 8;
};
CpuTiles cpu_kernel_tiles(const CpuTarget& target);

/// attn_kernel_args::kv_ranges for `ir` on `inputs` (lengths, scalars and buffers by name), from
/// the run-time tile planner in the host kernel's tiles (the plan program is made once per kernel
/// and process). Empty when the mask reads no buffer: the kernel's closed-form ranges are the plan.
struct CpuKeyRanges {
  int64_t block_q = 0;
  std::vector<int64_t> ranges;  ///< [lo, hi) per block of block_q query rows
  /// The runs inside each block's range (attn_kernel_args::kv_run_starts and kv_runs).
  std::vector<int64_t> run_starts, runs;
};
CpuKeyRanges cpu_key_ranges(const KernelIR& ir, const TilePlanInputs& inputs);
/// cpu_key_ranges on a call's inputs; empty when the planner cannot read them (a buffer of another
/// element type, an index out of range): the kernel then reports the problem itself.
CpuKeyRanges cpu_key_ranges(const KernelIR& ir, const KernelInputs& in);

/// Points `args` at `ranges`: kv_ranges (NULL when empty) and, when it has them, the runs.
void set_key_ranges(attn_kernel_args& args, const CpuKeyRanges& ranges);

/// A generated kernel: a C header (the ABI and the entry point) and a self-contained C++17 source
/// that includes it as "<header_name>". Byte-for-byte deterministic for a given IR and target.
struct CpuKernelSource {
  std::string header;                      ///< declares `int entry(const attn_kernel_args*)`
  std::string header_name;                 ///< file name the source includes, e.g. "causal.h"
  std::string source;                      ///< the kernel, Halide's runtime glue and the wrapper
  std::string entry;                       ///< exported C symbol, e.g. "attn_causal"
  std::vector<std::string> compile_flags;  ///< recommended flags (optimization; no ISA flags needed)
};

/// Generates the kernel's C++ source with one vector path per target (each scheduled for its ISA,
/// its functions compiled for it by target pragmas), widest first: the exported entry runs the
/// widest path the CPU runs, chosen at the first call (ATTNC_CPU_ISA may force a narrower one).
/// Throws std::runtime_error on an internal failure.
CpuKernelSource generate_cpu_kernel(const KernelIR& ir, const std::vector<CpuTarget>& targets);
/// The source with the one path `target` (what the loader compiles for this machine).
CpuKernelSource generate_cpu_kernel(const KernelIR& ir, const CpuTarget& target);

/// Generates the C++ source of the kernel's backward (attn/kernel_backward_abi.h): FlashAttention-2's
/// backward, key-major and deterministic, entry `attn_<name>_backward`, header `<name>_backward.h`.
CpuKernelSource generate_cpu_backward(const KernelIR& ir, const std::vector<CpuTarget>& targets);
CpuKernelSource generate_cpu_backward(const KernelIR& ir, const CpuTarget& target);

/// The source with its header pasted in place of `#include "<header_name>"`: one file, as the
/// loader (attn::Loader) takes it.
std::string single_file_source(const CpuKernelSource& src);

/// The flags every compiler needs for generated CPU kernels, beyond optimization and -march
/// (written to `attnc compile`'s manifest as "cpu_flags").
std::vector<std::string> cpu_required_flags();

/// The loader request for `src`: target "cpu", the single-file source, its entry, and the flags
/// that do not depend on the compiler (-ffp-contract=fast matters under -std=c++17).
KernelRequest cpu_kernel_request(const CpuKernelSource& src);

/// A generated source's entry point: the forward's (generate_cpu_kernel) or the backward's.
enum class CpuEntry { Forward, Backward };

/// The loader request of `ir`'s kernel (or its backward) for host_cpu_target(), as
/// cpu_kernel_request of its generated source. The source is kept in `loader`'s disk cache (a blob
/// named by this build of attnc and Halide, the kernel's hash, names and path), so a later process
/// with the same cache skips Halide's code generation (~1 s a source) and finds the compiled kernel
/// by the source's key. Generated afresh without a disk cache or a GNU build ID
/// (backends/cpu/CachedSource.cpp).
KernelRequest host_kernel_request(const KernelIR& ir, Loader& loader, CpuEntry which = CpuEntry::Forward);

/// The name of the blob that keeps `ir`'s generated source for the host's path ("" without a
/// build ID: nothing is kept).
std::string host_source_blob_name(const KernelIR& ir, CpuEntry which = CpuEntry::Forward);

/// A generated kernel compiled into a shared object and loaded into this process.
class CpuKernel {
 public:
  virtual ~CpuKernel() = default;
  /// Calls the kernel; returns 0 or a non-zero code with args.error filled in.
  virtual int run(const attn_kernel_args& args) const = 0;
  /// The entry point itself (valid while this object lives).
  virtual attn_kernel_fn function() const = 0;
};

/// Compiles and loads `src` through a process-wide attn::Loader (one compile per distinct source
/// per process, the disk cache of ATTNC_CACHE_DIR; the host compiler is ATTNC_CXX, else c++).
/// Throws attn::LoadError with the compiler's output on failure.
std::shared_ptr<CpuKernel> compile_cpu_kernel(const CpuKernelSource& src);

/// `ir`'s kernel for host_cpu_target() through the process-wide loader, its source from the disk
/// cache when kept there (host_kernel_request).
std::shared_ptr<CpuKernel> compile_host_kernel(const KernelIR& ir);

/// Head dims above this stay open when a call fixes them (with_call_head_dims).
constexpr int64_t kMaxCallHeadDim = 1024;

/// A call's head dims: D (q's rows) and Dv (v's rows); 0 when unknown.
struct HeadDims {
  int64_t head_dim = 0, value_dim = 0;
};

/// The last dims of `in`'s q and v (0 for an input that is not 4-D).
HeadDims input_head_dims(const KernelInputs& in);

/// The head dims with_call_head_dims fixes in `ir` for a call's `call`: `call` when `ir` leaves
/// `head_dim` open and both are in (0, kMaxCallHeadDim], else {0, 0} (`ir` stays as it is). One
/// kernel per distinct result: what callers that cache kernels key them by.
HeadDims head_dims_to_fix(const KernelIR& ir, HeadDims call);

/// `ir` with the head dims it leaves open (`head_dim` unset) fixed to a call's D and Dv; `ir` itself
/// when it fixes them or the call's are not positive. The schedules know the row widths then (the
/// P·V in register blocks of rows x value vectors over L1-sized key blocks, loops without
/// run-time strides): what the forward runs for `attnc run`/`bench` and the Python
/// package, one compile per distinct (D, Dv).
KernelIR with_call_head_dims(const KernelIR& ir, int64_t head_dim, int64_t value_dim);

/// Generates, compiles (once per process and kernel) and runs `ir` on the host CPU: the CPU
/// counterpart of run_reference, with the same inputs and outputs (open head dims fixed to the
/// inputs': with_call_head_dims). Throws InputError for inputs that do not fit (the kernel's own
/// message) and std::runtime_error for other failures.
KernelOutputs run_cpu_kernel(const KernelIR& ir, const KernelInputs& in, int threads = 0);

/// The backward of `ir` on the host CPU (generate_cpu_backward, compiled once per process and
/// kernel) after its forward for Out and LSE: the CPU counterpart of run_reference_backward, with
/// the same inputs and results. Deterministic whatever `threads`. Throws as run_cpu_kernel.
KernelGradients run_cpu_backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& request,
                                 int threads = 0);

/// The backward entry of `ir` for the host (generate_cpu_backward, compiled once per process and
/// kernel): what run_cpu_backward calls, for callers that fill attn_backward_args themselves with
/// their own (strided) tensors and the forward's Out and LSE (the Python package). Valid for the
/// process's lifetime. Throws LoadError as compile_cpu_kernel. Open head dims are fixed to the
/// call's (`call`, with_call_head_dims), as the forward's are: rows of known width, faster code.
attn_backward_fn cpu_backward_entry(const KernelIR& ir, HeadDims call);

/// Gets cpu_backward_entry(ir, call) ready without waiting for it: generates its source now, and
/// compiles it in the background through the process loader, where cpu_backward_entry's own get()
/// finds it (done, or in flight: the loader's single flight waits for it). The cpu backend's load
/// calls it on a second thread for KernelLoadOptions::backward_next (the Python package's first
/// forward that autograd records), while it generates the forward's source, so that the two
/// generations and then the two compiles run side by side. Errors are left for
/// cpu_backward_entry to report. Pending compiles finish before the process exits.
void prepare_cpu_backward(const KernelIR& ir, HeadDims call);

}  // namespace attn
