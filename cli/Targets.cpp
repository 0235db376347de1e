// The target table's rows and lookups.
#include "cli/Targets.h"

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "cli/TargetEntries.h"

namespace attn::cli {

namespace {

/// Names a target used to have, accepted where they were (compile -t, dump --stage).
struct Alias {
  const char* old_name;
  const char* name;
};
constexpr Alias kAliases[] = {{"spirv", "vulkan"}};

bool has(const Target& t, Capability c) {
  switch (c) {
    case Capability::Compile: return t.writer;
    case Capability::Dump: return t.dump;
    case Capability::Run: return t.run;
    case Capability::Tune: return t.tune;
    case Capability::Tiles: return t.tiles;
    case Capability::Backward: return t.backward;
  }
  return false;
}

/// What a target lacking `c` lacks, and which targets have it.
std::string missing(const Target& t, Capability c) {
  switch (c) {
    case Capability::Compile:
      return std::string(t.name) + " has no generated sources; compile targets: " + target_names(c);
    case Capability::Dump:
      return std::string(t.name) + " has no generated stage to print; dump stages: " + dump_stage_names();
    case Capability::Run: return std::string(t.name) + " cannot run kernels; run targets: " + target_names(c);
    case Capability::Tune:
      return "--autotune does not apply to " + std::string(t.name) + "; tuned targets: " + target_names(c);
    case Capability::Tiles:
      return std::string(t.name) + " does not work in tiles; tiled targets: " + target_names(c);
    case Capability::Backward:
      return std::string(t.name) + " has no backward yet; backward targets: " + target_names(c);
  }
  return "";
}

}  // namespace

const std::vector<Target>& targets() {
  static const std::vector<Target> table = {
      {"reference", nullptr, nullptr, run_reference, nullptr, nullptr, run_reference_backward},
      {"cpu", write_cpu_target, dump_cpu_target, run_cpu_kernel, nullptr, cpu_target_tiles, run_cpu_backward},
      {"cuda", write_cuda_target, dump_cuda_target, run_cuda_target, tune_cuda_target, cuda_target_tiles,
       run_cuda_backward_target},
      {"vulkan", write_vulkan_target, dump_vulkan_target, run_vulkan_target, nullptr, vulkan_target_tiles,
       run_vulkan_backward_target},
  };
  return table;
}

std::string target_names(Capability c) {
  std::string names;
  for (const Target& t : targets())
    if (has(t, c)) names += (names.empty() ? "" : ", ") + std::string(t.name);
  return names;
}

std::string dump_stage_names() {
  std::string names;
  for (const char* stage : kCompilerStages) names += stage + std::string(", ");
  return names + target_names(Capability::Dump);
}

const Target& find_target(const std::string& name, Capability c, std::string* note) {
  std::string resolved = name;
  if (c == Capability::Compile || c == Capability::Dump)
    for (const Alias& a : kAliases)
      if (name == a.old_name) {
        resolved = a.name;
        if (note) *note = "target '" + name + "' is now called '" + resolved + "'; the old name will go away";
      }
  for (const Target& t : targets()) {
    if (resolved != t.name) continue;
    if (!has(t, c)) throw TargetError(missing(t, c));
    return t;
  }
  std::string all;
  for (const Target& t : targets()) all += (all.empty() ? "" : ", ") + std::string(t.name);
  throw TargetError("unknown target '" + name + "' (targets: " + all + ")");
}

}  // namespace attn::cli
