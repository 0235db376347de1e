// Halide's C++ output for the scheduled pipeline, made deterministic and renamed per kernel.
#pragma once

#include <Halide.h>

#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

#include "backends/cpu/CpuBackend.h"

namespace attn::cpu {

/// The Halide target the C++ is generated for (user context, no bounds queries).
Halide::Target halide_target(const CpuTarget& target);

/// Halide names temporaries "t123" from per-character counters, and the simplifier orders the
/// operands of + and * by name: "t999" sorts after "t1000", so operand order would depend on how
/// many names the process made before. One generation holds a StableHalideNames: on its way in, a
/// counter near its next digit count is advanced to it (the first takes every counter to 10000),
/// so the names of one generation share one length and sort by number, in a process that generates
/// any number of kernels. Generations run side by side (the cpu backend makes a forward's and its
/// backward's sources on two threads); a counter moves on only while none is running, so that the
/// names of one never straddle two lengths.
class StableHalideNames {
 public:
  StableHalideNames();
  StableHalideNames(const StableHalideNames&) = delete;
  StableHalideNames& operator=(const StableHalideNames&) = delete;

 private:
  std::shared_lock<std::shared_mutex> generation_;
};

/// Halide's C++ for one pipeline and the runtime functions it calls (minus `halide_`).
struct HalideCpp {
  std::string code;
  std::set<std::string> runtime_calls;
};

/// Lowers `outputs` to C++ as the function `fn_name(void* user_context, args..., outputs...)`, and makes the
/// text independent of what this process generated before: Halide's temporaries and the variants of
/// names it made unique per process (`probs$3`) numbered in order of appearance (HalideTextPatches.h).
/// Renames the runtime functions it calls from `halide_X` to `runtime_prefix + X` (RuntimeGlue.h).
HalideCpp emit_halide_cpp(Halide::Pipeline outputs, const std::vector<Halide::Argument>& args,
                          const std::string& fn_name, const Halide::Target& target,
                          const std::string& runtime_prefix);

}  // namespace attn::cpu
