// select_kernel: a kernel by name, or the only one, with a message naming those that exist.
#include "compiler/SelectKernel.h"

#include "frontend/Program.h"

namespace attn {

const Decl* select_kernel(const Program& p, const std::string& file, const std::string& name,
                          std::string& why) {
  std::vector<const Decl*> kernels = p.kernels();
  if (name.empty() && kernels.size() == 1) return kernels.front();
  if (const Decl* k = name.empty() ? nullptr : p.kernel(name)) return k;
  std::string names;
  for (const Decl* k : kernels) names += (names.empty() ? "" : ", ") + k->name;
  if (kernels.empty())
    why = file + " defines no kernel";
  else if (name.empty())
    why = file + " has " + std::to_string(kernels.size()) + " kernels; name one: " + names;
  else
    why = "no kernel '" + name + "' in " + file + "; kernels: " + names;
  return nullptr;
}

}  // namespace attn
