// The target table: every backend the command line knows, with what each can do. compile, dump,
// run, bench and mask, and the option checks in cli/Main.cpp, read it; a new backend is one row in
// cli/Targets.cpp (its entries live in cli/<Target>Commands.cpp, declared in cli/TargetEntries.h).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {
struct KernelIR;
struct KernelInputs;
struct KernelOutputs;
struct GradientRequest;
struct KernelGradients;
}  // namespace attn

namespace attn::cli {

/// What every target writer gets besides the kernel.
struct CompileContext {
  std::string source_name;  ///< the .attn file's name (no folders)
  std::string kernel_hash;
  int cuda_sm = 80;
  std::string
      cuda_tiles;  ///< empty: the tile table's shape; "wgmma": Hopper's warpgroup kernel where it applies
  int head_dim = 0;
  std::string cpu_isa = "avx512,avx2,portable";  ///< the CPU sources' vector paths (parse_cpu_paths)
  bool cuda_backward = false;  ///< the CUDA backward wherever it applies (`compile --cuda-backward`)
};

/// Writes one kernel's files for a target into `dir`; returns their names relative to `dir`.
using TargetWriter = std::vector<std::string> (*)(const KernelIR& ir, const CompileContext& ctx,
                                                  const std::filesystem::path& dir);
/// The text `attnc dump --stage=<target>` prints for one kernel.
using TargetDump = std::string (*)(const KernelIR& ir);
/// Runs a kernel (`attnc run`, `attnc bench`); `threads` 0 means every core where it applies.
using TargetRunner = KernelOutputs (*)(const KernelIR& ir, const KernelInputs& in, int threads);
/// Searches the kernel's tile shapes for `in`'s size (`attnc bench --autotune`); a report of the tries.
using TargetTuner = std::string (*)(const KernelIR& ir, const KernelInputs& in);

/// Query rows and keys per tile.
struct TileSizes {
  int q = 0, kv = 0;
};
/// The tiles a target's kernels plan `ir` in (`attnc mask -t`).
using TargetTiles = TileSizes (*)(const KernelIR& ir);
/// The backward pass (`attnc run --dout`): the gradients of sum(dOut * Out) (+ sum(dLSE * LSE)).
using TargetBackward = KernelGradients (*)(const KernelIR& ir, const KernelInputs& in,
                                           const GradientRequest& r, int threads);

/// One row of the table; a null entry is a capability the target does not have.
struct Target {
  const char* name;
  TargetWriter writer;      ///< `compile -t`
  TargetDump dump;          ///< `dump --stage`
  TargetRunner run;         ///< `run -t`, `bench -t`
  TargetTuner tune;         ///< `bench -t ... --autotune`
  TargetTiles tiles;        ///< `mask -t`
  TargetBackward backward;  ///< `run -t ... --dout`
};

/// The capabilities a command asks of a target.
enum class Capability { Compile, Dump, Run, Tune, Tiles, Backward };

/// Every target, in the order help texts list them.
const std::vector<Target>& targets();

/// The names of the targets with `c`, comma-separated ("cpu, cuda, vulkan").
std::string target_names(Capability c);

/// The stages `dump --stage` prints besides the targets' code, in the order help lists them.
inline constexpr const char* kCompilerStages[] = {"ast", "ir", "hash", "plan", "grad"};

/// Every name `dump --stage` takes: the compiler stages, then the targets with a dump.
std::string dump_stage_names();

/// A target name that does not resolve for a command; the message says why and what would.
struct TargetError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// The target called `name` with capability `c`. Compile and Dump also take the deprecated name
/// `spirv` for vulkan (`note` then receives a line to show the user). Throws TargetError for an
/// unknown name or a target without `c`.
const Target& find_target(const std::string& name, Capability c, std::string* note = nullptr);

}  // namespace attn::cli
