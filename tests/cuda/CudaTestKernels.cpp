// Gathering the CUDA test kernels, including generated wrappers for each stdlib definition.
#include "tests/cuda/CudaTestKernels.h"

#include "tests/support/TestSupport.h"

namespace attn::test {

namespace {

void lower_all(const Program& p, const std::string& origin, std::vector<TestKernel>& out,
               std::vector<std::string>& errors) {
  if (p.diags.has_errors()) {
    errors.push_back(origin + ":\n" + render_diagnostics(p.diags, p.sources));
    return;
  }
  for (const Decl* k : p.kernels()) {
    DiagnosticEngine diags;
    auto ir = lower_kernel(p, *k, diags);
    if (!ir)
      errors.push_back(origin + ":" + k->name + ":\n" + render_diagnostics(diags, p.sources));
    else
      out.push_back({origin + ":" + k->name, ir});
  }
}

}  // namespace

std::string stdlib_kernels_text(const std::string& module, const Program& program,
                                const std::vector<std::string>& dtypes) {
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
        case TypeKind::Int: arg = "64"; break;
        case TypeKind::Float: arg = "30.0"; break;
        case TypeKind::Bool: arg = "true"; break;
        case TypeKind::Mask: arg = "causal"; break;
        case TypeKind::Tensor: {
          const char* elem = p.type.elem == ElemType::I32   ? "i32"
                             : p.type.elem == ElemType::F32 ? "f32"
                                                            : "bool";
          std::string dims;
          for (size_t i = 0; i < p.type.dims.size(); ++i) dims += (i ? ", d" : "d") + std::to_string(i);
          kernel_params += std::string(kernel_params.empty() ? "" : ", ") + p.name + ": tensor<" + elem +
                           ">[" + dims + "]";
          arg = p.name;
          break;
        }
        default: skip = true;
      }
      call_args += (call_args.empty() ? "" : ", ") + arg;
    }
    if (skip) continue;
    const std::string call = d->name + (d->has_param_list ? "(" + call_args + ")" : "");
    for (const std::string& dtype : dtypes)  // f32 is the default and has no keyword
      text += "kernel std_" + d->name + "_" + dtype +
              (kernel_params.empty() ? "" : "(" + kernel_params + ")") + " { " +
              (d->kind == DeclKind::Mask ? "mask = " + call : "mask = causal; score = " + call) +
              (dtype == "f32" ? "" : "; dtype = " + dtype) + "; head_dim = 128; }\n";
  }
  return text;
}

std::vector<TestKernel> cuda_test_kernels(std::vector<std::string>& errors,
                                          const std::vector<std::string>& stdlib_dtypes) {
  std::vector<TestKernel> out;
  for (const char* dir : {"tests/cuda", "samples"})
    for (const auto& f : files_under(source_dir() / dir, ".attn")) {
      auto p = load_program(f.string());
      lower_all(*p, std::filesystem::relative(f, source_dir()).string(), out, errors);
    }
  for (const auto& [module, _] : stdlib_modules()) {
    // Load the module once to see its definitions, then lower a wrapper kernel per definition.
    auto probe = load_program_text("<" + module + ">", "import " + module + ";\n");
    auto p =
        load_program_text("<" + module + " kernels>", stdlib_kernels_text(module, *probe, stdlib_dtypes));
    lower_all(*p, module, out, errors);
  }
  return out;
}

}  // namespace attn::test
