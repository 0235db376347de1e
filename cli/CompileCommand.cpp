// `attnc compile FILE... -t TARGETS -o DIR`: lowers every kernel of every file once, has each
// target's backend emit its files and writes them; records what was written in one
// DIR/manifest.json and writes the DLPack header the sources include, so that DIR alone compiles.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "backends/Backend.h"
#include "cli/Commands.h"
#include "cli/DlpackHeader.h"
#include "cli/KernelSession.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/OutputFile.h"

namespace attn::cli {

namespace {

// Lowers kernel `k` of `p`, has each target emit its files and writes them; returns its manifest
// entry, or nothing after reporting an error.
std::optional<nlohmann::ordered_json> compile_kernel(const Program& p, const Decl& k,
                                                     const std::string& source,
                                                     const std::vector<const Backend*>& targets,
                                                     const CompileOptions& o) {
  DiagnosticEngine diags;
  auto ir = lower_kernel(p, k, diags);
  if (!ir) {
    std::cerr << render_diagnostics(diags, p.sources);
    return std::nullopt;
  }
  EmitOptions ctx;
  ctx.source_name = source, ctx.kernel_hash = kernel_hash(*ir), ctx.head_dim = o.head_dim;
  ctx.cuda_sm = o.cuda_sm, ctx.cuda_tiles = o.cuda_tiles, ctx.cpu_isa = o.cpu_isa;
  ctx.cuda_backward = o.cuda_backward;
  nlohmann::ordered_json entry;
  entry["name"] = k.name;
  entry["source"] = source;
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
  entry["return_max"] = opts.return_max;
  entry["sink"] = kernel_has_sink(*ir);
  nlohmann::ordered_json files;
  for (const Backend* t : targets) {
    try {
      EmittedKernel emitted = t->emit(*ir, ctx);
      std::vector<std::string> names;
      for (const EmittedFile& f : emitted.files) {
        write_output_file(std::filesystem::path(o.out_dir) / f.name, f.contents);
        names.push_back(f.name);
      }
      for (const auto& [key, json] : emitted.manifest) entry[key] = nlohmann::ordered_json::parse(json);
      files[t->name()] = names;
    } catch (const std::exception& e) {
      report_kernel_error(e, p, "kernel '" + k.name + "' (" + t->name() + "): ");
      return std::nullopt;
    }
  }
  entry["files"] = files;
  return entry;
}

}  // namespace

int run_compile(const CompileOptions& o) {
  std::vector<const Backend*> targets;
  for (const std::string& name : o.targets) {
    try {
      std::string note;
      const Backend* t = &find_backend(name, Capability::Compile, &note);
      // A target named twice (vulkan and its old name spirv) is written once.
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
      if (!note.empty()) std::cerr << "attnc: note: " << note << "\n";
    } catch (const TargetError& e) {
      std::cerr << "attnc: error: " << e.what() << "\n";
      return 1;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) {
    std::cerr << "attnc: error: cannot create " << o.out_dir << ": " << ec.message() << "\n";
    return 1;
  }
  nlohmann::ordered_json manifest;
  manifest["sources"] = nlohmann::ordered_json::array();
  manifest["kernels"] = nlohmann::ordered_json::array();
  std::set<std::string> names;  // kernels' files are named after them: one folder, unique names
  bool kernel_found = o.kernel.empty();
  for (const std::string& file : o.files) {
    auto p = load_program(file);
    if (report_diagnostics(*p, false)) return 1;
    const std::string source = std::filesystem::path(file).filename().string();
    manifest["sources"].push_back(source);
    std::vector<const Decl*> kernels = p->kernels();
    if (!o.kernel.empty()) {
      // One file: a missing kernel is reported with the kernels it has.
      const Decl* k = o.files.size() == 1 ? select_kernel(*p, file, o.kernel) : p->kernel(o.kernel);
      if (!k && o.files.size() == 1) return 1;
      kernels.assign(k ? 1 : 0, k);
      kernel_found = kernel_found || k;
    }
    for (const Decl* k : kernels) {
      if (!names.insert(k->name).second) {
        std::cerr << "attnc: error: " << file << ": a kernel named '" << k->name
                  << "' is already compiled into " << o.out_dir << "\n";
        return 1;
      }
      auto entry = compile_kernel(*p, *k, source, targets, o);
      if (!entry) return 1;
      manifest["kernels"].push_back(std::move(*entry));
    }
  }
  if (!kernel_found) {
    std::cerr << "attnc: error: none of the files given has a kernel '" << o.kernel << "'\n";
    return 1;
  }
  try {
    write_dlpack_header(o.out_dir);
    write_output_file(std::filesystem::path(o.out_dir) / "manifest.json", manifest.dump(2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "attnc: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace attn::cli
