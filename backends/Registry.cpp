// The backend registry: the built-in targets, one line each, then those a program registers.
#include <algorithm>

#include "backends/Backend.h"

namespace attn {

// Each built-in backend's object, defined in its folder.
const Backend& reference_backend();
const Backend& cpu_backend();
const Backend& cuda_backend();
const Backend& vulkan_backend();

namespace {

std::vector<const Backend*>& registry() {
  static std::vector<const Backend*> all = {&reference_backend(), &cpu_backend(), &cuda_backend(),
                                            &vulkan_backend()};
  return all;
}

/// What a backend lacking `c` lacks, and which backends have it.
std::string missing(const Backend& b, Capability c) {
  const std::string name = b.name(), others = backend_names(c);
  switch (c) {
    case Capability::Compile: return name + " has no generated sources; compile targets: " + others;
    case Capability::Dump: return name + " has no generated stage to print; targets with a dump: " + others;
    case Capability::Run: return name + " cannot run kernels; run targets: " + others;
    case Capability::Tune: return "--autotune does not apply to " + name + "; tuned targets: " + others;
    case Capability::Tiles: return name + " does not work in tiles; tiled targets: " + others;
    case Capability::Backward: return name + " has no backward yet; backward targets: " + others;
    case Capability::Load: return name + " cannot be loaded from a program; loadable targets: " + others;
  }
  return name;
}

}  // namespace

const std::vector<const Backend*>& backends() { return registry(); }

void register_backend(const Backend& b) {
  std::vector<const Backend*>& all = registry();
  if (std::find(all.begin(), all.end(), &b) == all.end()) all.push_back(&b);
}

const Backend& default_backend(DefaultUse use) {
  return use == DefaultUse::Check ? reference_backend() : cpu_backend();
}

std::string backend_names(Capability c) {
  std::string names;
  for (const Backend* b : backends())
    if (b->can(c)) names += (names.empty() ? "" : ", ") + std::string(b->name());
  return names;
}

const Backend& find_backend(const std::string& name, Capability c, std::string* note) {
  for (const Backend* b : backends()) {
    bool found = name == b->name();
    if (!found && (c == Capability::Compile || c == Capability::Dump)) {
      const std::vector<std::string> old = b->old_names();
      found = std::find(old.begin(), old.end(), name) != old.end();
      if (found && note)
        *note = "target '" + name + "' is now called '" + b->name() + "'; the old name will go away";
    }
    if (!found) continue;
    if (!b->can(c)) throw TargetError(missing(*b, c));
    return *b;
  }
  std::string all;
  for (const Backend* b : backends()) all += (all.empty() ? "" : ", ") + std::string(b->name());
  throw TargetError("unknown target '" + name + "' (targets: " + all + ")");
}

}  // namespace attn
