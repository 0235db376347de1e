// `attnc compile FILE -t TARGETS -o DIR`: lowers every kernel once and hands it to each target's
// writer; records what was written in DIR/manifest.json.
#include <algorithm>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "backends/cpu/CpuBackend.h"
#include "cli/Commands.h"
#include "cli/CompileTargets.h"
#include "cli/OutputFile.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"

namespace attn::cli {

TargetWriter target_writer(const std::string& target) {
  if (target == "cpu") return write_cpu_target;
  if (target == "spirv") return write_spirv_target;
#ifdef ATTNC_HAVE_CUDA
  if (target == "cuda") return write_cuda_target;
#endif
  return nullptr;
}

int run_compile(const CompileOptions& o) {
  for (const std::string& t : o.targets)
    if (!target_writer(t)) {
      std::cerr << "attnc: error: unknown or unavailable target '" << t << "' (this build has: cpu, spirv"
#ifdef ATTNC_HAVE_CUDA
                << ", cuda"
#endif
                << ")\n";
      return 1;
    }
  auto p = load_program(o.file);
  if (report_diagnostics(*p, false)) return 1;
  std::vector<const Decl*> kernels;
  if (!o.kernel.empty()) {
    const Decl* k = p->kernel(o.kernel);
    if (!k) {
      std::cerr << "attnc: error: " << o.file << " has no kernel '" << o.kernel << "'\n";
      return 1;
    }
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
    if (std::find(o.targets.begin(), o.targets.end(), "cpu") != o.targets.end()) {
      entry["cpu_entry"] = "attn_" + k->name;
      entry["cpu_flags"] = cpu_required_flags();
    }
    for (const std::string& t : o.targets) {
      try {
        entry["files"][t] = target_writer(t)(*ir, ctx, o.out_dir);
      } catch (const std::exception& e) {
        std::cerr << "attnc: error: kernel '" << k->name << "' (" << t << "): " << e.what() << "\n";
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
