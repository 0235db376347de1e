// `attnc compile FILE -t TARGETS -o DIR`: lowers every kernel once and hands it to each target's
// writer; records what was written in DIR/manifest.json.
#include <algorithm>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "backends/cpu/CpuBackend.h"
#include "cli/Commands.h"
#include "cli/KernelSession.h"
#include "cli/OutputFile.h"
#include "cli/Targets.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"

namespace attn::cli {

int run_compile(const CompileOptions& o) {
  std::vector<const Target*> targets;
  for (const std::string& name : o.targets) {
    try {
      std::string note;
      targets.push_back(&find_target(name, Capability::Compile, &note));
      if (!note.empty()) std::cerr << "attnc: note: " << note << "\n";
    } catch (const TargetError& e) {
      std::cerr << "attnc: error: " << e.what() << "\n";
      return 1;
    }
  }
  auto p = load_program(o.file);
  if (report_diagnostics(*p, false)) return 1;
  std::vector<const Decl*> kernels;
  if (!o.kernel.empty()) {
    const Decl* k = select_kernel(*p, o.file, o.kernel);
    if (!k) return 1;
    kernels.push_back(k);
  } else {
    kernels = p->kernels();
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) {
    std::cerr << "attnc: error: cannot create " << o.out_dir << ": " << ec.message() << "\n";
    return 1;
  }
  nlohmann::ordered_json manifest;
  manifest["source"] = std::filesystem::path(o.file).filename().string();
  manifest["kernels"] = nlohmann::ordered_json::array();
  for (const Decl* k : kernels) {
    DiagnosticEngine diags;
    auto ir = lower_kernel(*p, *k, diags);
    if (!ir) {
      std::cerr << render_diagnostics(diags, p->sources);
      return 1;
    }
    CompileContext ctx{manifest["source"], kernel_hash(*ir), o.cuda_sm, o.cuda_tiles, o.head_dim, o.cpu_isa};
    nlohmann::ordered_json entry;
    entry["name"] = k->name;
    entry["hash"] = ctx.kernel_hash;
    // What a host program needs to call the kernel: its run-time arguments and options.
    entry["args"] = nlohmann::ordered_json::array();
    for (const KernelArgInfo& a : kernel_args(*ir)) {
      nlohmann::ordered_json arg;
      arg["name"] = a.name;
      arg["kind"] = a.is_buffer ? "tensor" : "scalar";
      arg["type"] = a.elem == ElemType::I32 ? "i32" : a.elem == ElemType::F32 ? "f32" : "bool";
      if (a.is_buffer) arg["dims"] = a.dims;
      entry["args"].push_back(arg);
    }
    const KernelOptions& opts = kernel_options(*ir);
    entry["dtype"] = dtype_name(opts.dtype);
    entry["head_dim"] = opts.head_dim;
    entry["value_dim"] = opts.value_dim;
    entry["lse"] = opts.lse;
    if (std::any_of(targets.begin(), targets.end(),
                    [](const Target* t) { return t->name == std::string("cpu"); })) {
      entry["cpu_entry"] = "attn_" + k->name;
      entry["cpu_flags"] = cpu_required_flags();
    }
    for (const Target* t : targets) {
      try {
        entry["files"][t->name] = t->writer(*ir, ctx, o.out_dir);
      } catch (const std::exception& e) {
        report_kernel_error(e, *p, "kernel '" + k->name + "' (" + t->name + "): ");
        return 1;
      }
    }
    manifest["kernels"].push_back(entry);
  }
  try {
    write_output_file(std::filesystem::path(o.out_dir) / "manifest.json", manifest.dump(2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "attnc: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace attn::cli
