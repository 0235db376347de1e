// Generated kernels for every stdlib mask and score definition.
#include "tests/support/StdlibKernels.h"

#include "frontend/Program.h"

namespace attn::test {

namespace {

std::string stdlib_kernels_text(const std::string& module, const Program& program,
                                const StdlibKernelOptions& options) {
  std::string text = "import std.masks;\nimport " + module + ";\n";
  const Module* mod = nullptr;
  for (const auto& m : program.modules)
    if (m->name == module) mod = m.get();
  if (!mod) return text;
  for (const auto& d : mod->decls) {
    if (d->kind != DeclKind::Mask && d->kind != DeclKind::Score) continue;
    std::string kernel_params, call_args;
    bool skip = false;
    for (const Param& p : d->params) {
      std::string arg;
      switch (p.type.kind) {
        case TypeKind::Int: arg = options.int_value; break;
        case TypeKind::Float: arg = options.float_value; break;
        case TypeKind::Bool: arg = "true"; break;
        case TypeKind::Mask: arg = "causal"; break;
        case TypeKind::Tensor:
          // The parameter's type as .attn spells it: tensor<f32>[heads, len].
          kernel_params += std::string(kernel_params.empty() ? "" : ", ") + p.name + ": " + type_name(p.type);
          arg = p.name;
          break;
        default: skip = true;
      }
      call_args += (call_args.empty() ? "" : ", ") + arg;
    }
    if (skip) continue;
    const std::string call = d->name + (d->has_param_list ? "(" + call_args + ")" : "");
    const std::string head_dim =
        options.head_dim ? "; head_dim = " + std::to_string(options.head_dim) : std::string();
    for (const std::string& dtype : options.dtypes)  // f32 is the default and has no keyword
      text += "kernel std_" + d->name + "_" + dtype +
              (kernel_params.empty() ? "" : "(" + kernel_params + ")") + " { " +
              (d->kind == DeclKind::Mask ? "mask = " + call : "mask = causal; score = " + call) +
              (dtype == "f32" ? "" : "; dtype = " + dtype) + head_dim + "; }\n";
  }
  return text;
}

}  // namespace

std::vector<StdlibKernelProgram> stdlib_kernel_programs(const StdlibKernelOptions& options) {
  std::vector<StdlibKernelProgram> out;
  for (const auto& [module, _] : stdlib_modules()) {
    // The module alone, loaded to see its definitions.
    auto probe = load_program_text("<" + module + ">", "import " + module + ";\n");
    // Loaded under the module's own name, the kernels would import themselves.
    out.push_back({module, "<" + module + " kernels>", stdlib_kernels_text(module, *probe, options)});
  }
  return out;
}

}  // namespace attn::test
