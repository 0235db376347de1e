// bench_cuda: attnc's side of the GPU benchmark. Per variant of bench/gpu/variants.attn: cold
// compile (print + NVRTC), the loader's cold get and warm get (disk cache hit + module load),
// kernel time (CUDA events), ptxas resources; JSON on stdout or --json FILE. On sm_90 the same for
// Hopper's warpgroup kernel (fields prefixed wgmma_; --no-wgmma skips it). --backward adds the
// backward's cold compile and ptxas resources and the forward + backward time (fields bwd_*).
// --dry-run stops before the device (works without one).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <nlohmann/json.hpp>

#include "attn/loader.hpp"
#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaPrinter.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/CudaCompiler.h"
#include "runtime/CudaLauncher.h"
#include "runtime/Nvrtc.h"

using namespace attn;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Args {
  std::string variants = "bench/gpu/variants.attn";
  std::string json;
  std::string only;
  bool dry_run = false;
  int sm = 0;  // 0: the device's (90 in a dry run)
  int64_t B = 4, H = 16, L = 8192, D = 128;
  int repeats = 20;
  bool wgmma = true;      // also time Hopper's warpgroup kernel (sm 90); --no-wgmma leaves it out
  bool backward = false;  // also compile and time the backward (forward + backward)
};

HostTensor random_bf16(std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor t(ScalarType::BF16, std::move(shape));
  std::normal_distribution<float> n(0.f, 1.f);
  uint16_t* p = t.data<uint16_t>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = f32_to_bf16(n(rng));
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (s == "--dry-run")
      a.dry_run = true;
    else if (s == "--json")
      a.json = next();
    else if (s == "--no-wgmma")
      a.wgmma = false;
    else if (s == "--backward")
      a.backward = true;
    else if (s == "--variants")
      a.variants = next();
    else if (s == "--only")
      a.only = next();
    else if (s == "--sm")
      a.sm = std::stoi(next());
    else if (s == "--len")
      a.L = std::stoll(next());
    else if (s == "--repeats")
      a.repeats = std::stoi(next());
    else {
      std::cerr << "usage: bench_cuda [--dry-run] [--json FILE] [--variants FILE] [--only KERNEL] [--sm N] "
                   "[--len L] [--repeats N] [--no-wgmma] [--backward]\n";
      return 2;
    }
  }
  std::shared_ptr<CudaDevice> device;
  if (!a.dry_run) {
    try {
      device = CudaDevice::open();
    } catch (const CudaError& e) {
      std::cerr << "bench_cuda: " << e.what() << " (use --dry-run to stop before the device)\n";
      return 1;
    }
  }
  const int sm = a.sm ? a.sm : device ? device->sm() : 90;
  auto program = load_program(a.variants);
  if (program->diags.has_errors()) {
    std::cerr << render_diagnostics(program->diags, program->sources);
    return 1;
  }
  nlohmann::ordered_json out;
  out["device"] = device ? device->name() : "none (dry run)";
  out["sm"] = sm;
  out["nvrtc"] = nvrtc_version();
  out["shape"] = {{"B", a.B}, {"H", a.H}, {"L", a.L}, {"D", a.D}, {"dtype", "bf16"}};
  std::mt19937 rng(42);
  HostTensor q, k, v;
  if (device) {
    q = random_bf16({a.B, a.H, a.L, a.D}, rng);
    k = random_bf16({a.B, a.H, a.L, a.D}, rng);
    v = random_bf16({a.B, a.H, a.L, a.D}, rng);
  }
  // Everything one kernel build costs and takes, into r with field names prefixed by `prefix`.
  auto measure = [&](const KernelIR& kernel, const CudaPrintOptions& po, const std::string& prefix,
                     nlohmann::ordered_json& r) {
    auto key = [&](const char* name) { return prefix + name; };
    // Cold compile: everything from the IR to a cubin, as the loader does on a cache miss.
    const auto t0 = Clock::now();
    CudaKernelSource src = print_cuda_kernel(kernel, po);
    const double print_s = seconds_since(t0);
    r[key("print_ms")] = 1e3 * print_s;
    NvrtcOptions no;
    no.arch = "sm_" + std::to_string(sm) + (sm == 90 ? "a" : "");
    NvrtcResult nv = nvrtc_compile(src.cu, src.launch.entry + ".cu", no);
    r[key("cold_compile_s")] = seconds_since(t0);
    r[key("tiles")] = describe(src.tiles);
    if (const PtxasFunction* f = nv.report.find(src.launch.entry)) {
      r[key("registers")] = f->registers;
      r[key("spill_bytes")] = f->spill_stores + f->spill_loads;
    }
    r[key("smem_bytes")] = src.launch.smem_bytes;
    std::cerr << kernel.name << ": cold compile " << r[key("cold_compile_s")].get<double>() << " s, "
              << r[key("tiles")].get<std::string>() << "\n";
    if (!device) return;
    // The loader's path, as an application sees it: cold (empty disk cache: print was done
    // above, NVRTC, module load) and warm (a new Loader on the same cache: disk hit, module load).
    char dir_template[] = "/tmp/attnc-bench-cache-XXXXXX";
    LoaderOptions lo;
    lo.cache_dir = mkdtemp(dir_template);
    const KernelRequest request{"cuda", src.cu, src.launch.entry, {}, write_cuda_launch_info(src.launch)};
    {
      Loader cold(lo);
      cold.add_compiler(make_cuda_compiler());
      const auto t1 = Clock::now();
      cold.get(request);
      r[key("loader_cold_s")] = print_s + seconds_since(t1);  // IR -> source -> cubin -> module
    }
    {
      Loader warm(lo);
      warm.add_compiler(make_cuda_compiler());
      const auto t2 = Clock::now();
      warm.get(request);
      r[key("warm_load_ms")] = 1e3 * seconds_since(t2);
      r[key("warm_disk_hits")] = warm.stats().disk_hits;
    }
    std::filesystem::remove_all(lo.cache_dir);
    std::shared_ptr<CudaModule> module = device->load(nv.cubin);

    CudaLaunchRequest req;
    req.q = &q;
    req.k = &k;
    req.v = &v;
    req.scale = 1.0 / std::sqrt(static_cast<double>(a.D));
    req.timed_repeats = a.repeats;
    std::vector<HostTensor> buffers;
    buffers.reserve(kernel.args.size());
    for (const KernelArg& arg : kernel.args) {
      if (arg.kind != KernelArg::Kind::Buffer) continue;
      if (arg.name == "doc") {  // documents of 1130 tokens (density ~0.069 causal), as in torch_baseline.py
        buffers.emplace_back(ScalarType::I32, std::vector<int64_t>{a.L});
        for (int64_t i = 0; i < a.L; ++i) buffers.back().data<int32_t>()[i] = static_cast<int32_t>(i / 1130);
      } else {  // ALiBi slopes 2^(-8 (h + 1) / H)
        buffers.emplace_back(ScalarType::F32, std::vector<int64_t>{a.H});
        for (int64_t h = 0; h < a.H; ++h)
          buffers.back().data<float>()[h] =
              std::pow(2.f, -8.f * static_cast<float>(h + 1) / static_cast<float>(a.H));
      }
      req.buffers.push_back({arg.name, &buffers.back()});
    }
    try {
      CudaLaunchResult res = launch_cuda_kernel(*device, *module, src.launch, req);
      std::vector<float> t = res.times_ms;
      std::sort(t.begin(), t.end());
      r[key("ms_median")] = t[t.size() / 2];
      r[key("ms_min")] = t.front();
      std::cerr << "  " << t[t.size() / 2] << " ms (median of " << t.size() << ")\n";
    } catch (const std::exception& e) {
      r[key("error")] = e.what();
      std::cerr << "  error: " << e.what() << "\n";
    }
  };
  // The backward: cold compile and resources of its kernels, then forward + backward on the device
  // (dOut random, the gradient of every f32 buffer: the ALiBi slopes).
  auto measure_backward = [&](const KernelIR& kernel, nlohmann::ordered_json& r) {
    CudaPrintOptions po;
    po.sm = sm;
    try {
      const auto t0 = Clock::now();
      const CudaBackwardSource src = print_cuda_backward(kernel, po);
      NvrtcOptions no;
      no.arch = "sm_" + std::to_string(sm) + (sm == 90 ? "a" : "");
      NvrtcResult nv = nvrtc_compile(src.cu, src.launch.dq + ".cu", no);
      r["bwd_cold_compile_s"] = seconds_since(t0);
      int registers = 0, spills = 0;
      for (const std::string& entry : {src.launch.dkdv, src.launch.dq})
        if (const PtxasFunction* f = nv.report.find(entry)) {
          registers = std::max(registers, f->registers);
          spills += f->spill_stores + f->spill_loads;
        }
      r["bwd_registers"] = registers;
      r["bwd_spill_bytes"] = spills;
      std::cerr << kernel.name << " backward: cold compile " << r["bwd_cold_compile_s"].get<double>()
                << " s, " << registers << " registers, " << spills << " B spills\n";
      if (!device) return;
      KernelInputs in;
      in.q = q, in.k = k, in.v = v;
      GradientRequest request;
      request.dout = random_bf16({a.B, a.H, a.L, a.D}, rng);
      for (const KernelArg& arg : kernel.args) {
        if (arg.kind != KernelArg::Kind::Buffer) continue;
        HostTensor t = arg.elem == ElemType::I32 ? HostTensor(ScalarType::I32, {a.L})
                                                 : HostTensor(ScalarType::F32, {a.H});
        for (int64_t i = 0; i < t.numel(); ++i)
          t.set(i, arg.elem == ElemType::I32 ? double(i / 1130)
                                             : std::pow(2.0, -8.0 * double(i + 1) / double(a.H)));
        if (arg.elem == ElemType::F32) request.buffers.push_back(arg.name);
        in.buffers[arg.name] = std::move(t);
      }
      CudaRunOptions o;
      o.timed_repeats = a.repeats;
      std::vector<float> t = run_cuda_backward(kernel, in, request, o).times_ms;
      std::sort(t.begin(), t.end());
      r["bwd_ms_median"] = t[t.size() / 2];
      r["bwd_ms_min"] = t.front();
      std::cerr << "  forward + backward " << t[t.size() / 2] << " ms (median of " << t.size() << ")\n";
    } catch (const std::exception& e) {
      r["bwd_error"] = e.what();
      std::cerr << "  backward error: " << e.what() << "\n";
    }
  };
  std::vector<std::shared_ptr<const KernelIR>> irs;
  for (const Decl* decl : program->kernels()) {
    if (!a.only.empty() && decl->name != a.only) continue;
    DiagnosticEngine diags;
    auto ir = lower_kernel(*program, *decl, diags);
    if (!ir) {
      std::cerr << render_diagnostics(diags, program->sources);
      return 1;
    }
    CudaPrintOptions po;
    po.sm = sm;
    measure(*ir, po, "", out["variants"][decl->name]);
    if (a.backward) measure_backward(*ir, out["variants"][decl->name]);
    irs.push_back(std::move(ir));
  }
  // Hopper's warpgroup kernel beside the table's (report.py prints both), after all of them: a
  // fault in the kernel that has never run costs only its own figures.
  if (a.wgmma && sm == 90)
    for (const std::shared_ptr<const KernelIR>& ir : irs) {
      CudaPrintOptions po;
      po.sm = sm;
      po.prefer_wgmma = true;
      measure(*ir, po, "wgmma_", out["variants"][ir->name]);
    }
  const std::string text = out.dump(2) + "\n";
  if (a.json.empty())
    std::cout << text;
  else
    std::ofstream(a.json) << text;
  return 0;
}
