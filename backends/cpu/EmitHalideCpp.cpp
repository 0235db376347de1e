// compile_to_module + HalideCppCodeGen, then the renaming that keeps the output independent of what
// the process generated before (its text patches in HalideTextPatches.cpp).
#include "backends/cpu/EmitHalideCpp.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>

#include "backends/cpu/HalideCppCodeGen.h"
#include "backends/cpu/HalideTextPatches.h"
#include "backends/cpu/WidenIndices.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;
using Halide::Argument;

namespace {

// The most names one generation took from the busiest counter ('_', Halide's temporaries) is
// 13,346 (every vector path of a bf16 kernel: the samples and the gallery, 2026-12-07; a loader's
// generation, one path, takes a third of that). The margin is 4.5 times that: room for two
// generations at once with plenty to spare, and from a fresh process a counter walks to 10000 only
// (127 counters x 10000 names, ~25 ms; walking them to 100000 took a quarter of a second, half of
// a kernel's generation).
constexpr int kMargin = 60000;

std::shared_mutex& generations() {
  static std::shared_mutex m;
  return m;
}

// Whether some counter is within kMargin of its next digit count; with `advance`, moves each such
// counter on to it. Reading a counter takes a name from it (a gap in the numbering, harmless).
bool near_next_length(bool advance) {
  bool near = false;
  for (int c = 1; c < 128; ++c) {
    int n = std::atoi(Internal::unique_name(char(c)).c_str() + 1);
    int64_t power = 10;
    while (power <= n) power *= 10;
    // Close to the next digit: move on to it now, so no generation's names straddle two lengths.
    // From a fresh process this walks every counter to 10000 (five digits, 90000 names of room).
    while (power - n <= kMargin && power < (int64_t(1) << 31) / 10) {
      near = true;
      if (!advance) return true;
      for (; n < power; ++n) Internal::unique_name(char(c));
      power *= 10;
    }
  }
  return near;
}

}  // namespace

StableHalideNames::StableHalideNames() : generation_(generations()) {
  if (!near_next_length(false)) return;
  // Moving a counter on needs every other generation finished: rare (every ~10 generations).
  generation_.unlock();
  {
    std::unique_lock<std::shared_mutex> alone(generations());
    near_next_length(true);
  }
  generation_.lock();
}

Target halide_target(const CpuTarget& target) {
  std::vector<Target::Feature> features = {Target::UserContext, Target::NoBoundsQuery};
  const bool avx512 = target.isa == CpuIsa::AVX512 || is_matrix_isa(target.isa);  // the matrix paths are AVX-512's
  if (target.isa == CpuIsa::AVX2 || avx512)
    for (Target::Feature f : {Target::SSE41, Target::AVX, Target::AVX2, Target::FMA, Target::F16C})
      features.push_back(f);
  if (avx512) {
    features.push_back(Target::AVX512);
    features.push_back(Target::AVX512_Skylake);
  }
  return Target(Target::Linux, Target::X86, 64, features);
}

HalideCpp emit_halide_cpp(Pipeline outputs, const std::vector<Argument>& args, const std::string& fn_name,
                          const Target& target, const std::string& runtime_prefix) {
  // External, not ExternalPlusMetadata: nothing calls the pipeline's argv wrapper or reads its
  // metadata, and their code was 4% of a cold compile of the source.
  Module module = outputs.compile_to_module(args, fn_name, target, LinkageType::External);
  widen_buffer_indices(module);
  std::string code = canonical_halide_names(print_halide_cpp(module, target));
  std::set<std::string> used = called_runtime_functions(code);
  return {rename_runtime_functions(code, used, runtime_prefix), used};
}

}  // namespace attn::cpu
