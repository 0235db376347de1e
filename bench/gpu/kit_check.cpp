// kit_check: the GPU session's fallback that needs only a C++ compiler and the CUDA toolkit (no
// Halide, ANTLR or Boost): every generated .cu of a kit folder (bench/gpu/make_kit.sh) is compiled
// with NVRTC, run on random inputs with odd lengths and GQA, and compared with a naive f64
// forward appended to the same source (attn_reference.cuh); --bench times a folder of variants, and
// --tune DIR runs the autotuner (runtime/CudaTuner.h) over DIR/<variant>/*.cu, the tile shapes
// bench/gpu/cuda_tile_variants wrote, reporting the fastest beside the table's (--no-wgmma: without
// Hopper's warpgroup shapes); --bench-wgmma DIR times DIR's build of each variant beside it.
// Build: c++ -std=c++20 -O2 -I. -Iruntime/include bench/gpu/kit_check.cpp runtime/{Nvrtc,
//   PtxasReport,CudaDriver,CudaLauncher,CudaLaunch,CudaGrid,CudaTuner,HostTensor,TileProgram,TilePlanner,
//   TilePlanText}.cpp -ldl -o kit_check
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "runtime/CudaLauncher.h"
#include "runtime/CudaTuner.h"
#include "runtime/Nvrtc.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One run-time argument from the ATTN_ARGS macro: "name:i32[len]" or "name:f32".
struct ArgSpec {
  std::string name, elem;
  std::vector<std::string> dims;
  bool buffer = false;
};

std::vector<ArgSpec> parse_args(const std::string& src, bool& lse) {
  std::vector<ArgSpec> out;
  const std::string key = "\n#define ATTN_ARGS \"";
  size_t a = src.find(key);
  lse = src.find("\n#define ATTN_LSE 1\n") != std::string::npos;
  if (a == std::string::npos) return out;
  a += key.size();
  std::istringstream words(src.substr(a, src.find('"', a) - a));
  std::string w;
  while (words >> w) {
    ArgSpec s;
    const size_t colon = w.find(':'), bracket = w.find('[');
    s.name = w.substr(0, colon);
    s.elem = w.substr(colon + 1, (bracket == std::string::npos ? w.size() : bracket) - colon - 1);
    if (bracket != std::string::npos) {
      s.buffer = true;
      std::istringstream dims(w.substr(bracket + 1, w.size() - bracket - 2));
      std::string d;
      while (std::getline(dims, d, ',')) s.dims.push_back(d);
    }
    out.push_back(s);
  }
  return out;
}

HostTensor random_tensor(ScalarType t, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor x(t, std::move(shape));
  std::normal_distribution<double> n(0.0, 1.0);
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, n(rng));
  return x;
}

/// Buffers for a run: document ids (sorted, ~1/97 boundaries) or zero starts for i32, slopes for
/// f32, sparse flags for bool; `heads` dimensions get Hq, the rest the longer length.
std::vector<HostTensor> make_buffers(const std::vector<ArgSpec>& args, int64_t hq, int64_t len,
                                     std::mt19937& rng, bool documents_1130) {
  std::vector<HostTensor> out;
  for (const ArgSpec& a : args) {
    if (!a.buffer) continue;
    std::vector<int64_t> shape;
    for (const std::string& d : a.dims) shape.push_back(d == "heads" ? hq : len);
    if (a.elem == "i32") {
      HostTensor x(ScalarType::I32, shape);
      int64_t doc = 0;
      for (int64_t i = 0; i < x.numel(); ++i) {
        if (documents_1130)
          doc = i / 1130;
        else if (i > 0 && rng() % 97 == 0)
          ++doc;
        x.set(i, a.name == "start" ? 0.0 : static_cast<double>(doc));
      }
      out.push_back(std::move(x));
    } else if (a.elem == "f32") {
      HostTensor x(ScalarType::F32, shape);
      for (int64_t i = 0; i < x.numel(); ++i)
        x.set(i, std::pow(2.0, -8.0 * static_cast<double>(i + 1) / static_cast<double>(hq)));
      out.push_back(std::move(x));
    } else {
      HostTensor x(ScalarType::Bool, shape);
      for (int64_t i = 0; i < x.numel(); ++i) x.set(i, rng() % 50 == 0 ? 1 : 0);
      out.push_back(std::move(x));
    }
  }
  return out;
}

struct Kit {
  fs::path cu;
  std::string source;
  CudaLaunchInfo info;
  std::vector<ArgSpec> args;
  bool lse = false;
};

Kit load_kit(const fs::path& cu) {
  Kit k;
  k.cu = cu;
  k.source = read_text(cu);
  k.info = parse_cuda_launch_info(k.source);
  k.args = parse_args(k.source, k.lse);
  return k;
}

CudaLaunchRequest request_for(const Kit& k, const HostTensor& q, const HostTensor& kt, const HostTensor& v,
                              const std::vector<HostTensor>& buffers) {
  CudaLaunchRequest r;
  r.q = &q;
  r.k = &kt;
  r.v = &v;
  size_t b = 0;
  for (const ArgSpec& a : k.args) {
    if (a.buffer)
      r.buffers.push_back({a.name, &buffers[b++]});
    else
      r.scalars.push_back(16);
  }
  r.scale = k.info.scale;
  r.lse = k.lse;
  return r;
}

/// Checks one kernel against the f64 reference on several shapes; returns the failures.
int check_kernel(CudaDevice& device, const Kit& k, const std::string& arch, const std::string& reference,
                 std::mt19937& rng) {
  NvrtcOptions no;
  no.arch = arch;
  NvrtcResult nv = nvrtc_compile(k.source + "\n" + reference, k.cu.filename().string(), no);
  std::shared_ptr<CudaModule> module = device.load(nv.cubin);
  const ScalarType t = k.info.dtype;
  const double tol = t == ScalarType::F32 ? 2e-3 : t == ScalarType::F16 ? 1e-2 : 3e-2;
  int failures = 0;
  // The last two run split-KV (few query tiles, many keys: runtime/CudaGrid.h).
  for (auto [lq, lkv] :
       {std::pair<int64_t, int64_t>{1, 1}, {77, 77}, {200, 333}, {513, 129}, {1, 3001}, {70, 2600}}) {
    const int64_t B = 2, Hq = 4, Hkv = 2;
    HostTensor q = random_tensor(t, {B, Hq, lq, k.info.head_dim}, rng);
    HostTensor kt = random_tensor(t, {B, Hkv, lkv, k.info.head_dim}, rng);
    HostTensor v = random_tensor(t, {B, Hkv, lkv, k.info.value_dim}, rng);
    std::vector<HostTensor> buffers = make_buffers(k.args, Hq, std::max(lq, lkv), rng, false);
    CudaLaunchRequest req = request_for(k, q, kt, v, buffers);
    // The reference first: its error word says whether the inputs index out of range.
    CudaPreparedLaunch L = prepare_cuda_launch(device, k.info, req);
    const int64_t rows = B * Hq * lq;
    CudaBuffer ref_out = device.alloc(static_cast<size_t>(rows * k.info.value_dim) * sizeof(double));
    CudaBuffer ref_lse = device.alloc(static_cast<size_t>(rows) * sizeof(double));
    struct {
      attn_cuda_params p;
      double* out;
      double* lse;
    } rp{L.params, reinterpret_cast<double*>(ref_out.ptr()), reinterpret_cast<double*>(ref_lse.ptr())};
    const unsigned grid[3] = {static_cast<unsigned>((rows + 127) / 128), 1, 1};
    device.launch(*module, "attn_reference_fwd", grid, 128, 0, &rp, sizeof rp);
    device.synchronize();
    attn_cuda_error err;
    device.download(&err, *L.error_memory, sizeof err);
    std::vector<double> want(static_cast<size_t>(rows * k.info.value_dim)),
        want_lse(static_cast<size_t>(rows));
    device.download(want.data(), ref_out, want.size() * sizeof(double));
    device.download(want_lse.data(), ref_lse, want_lse.size() * sizeof(double));
    std::string what = k.cu.stem().string() + " Lq=" + std::to_string(lq) + " Lkv=" + std::to_string(lkv);
    CudaLaunchResult got;
    try {
      got = launch_cuda_kernel(device, *module, k.info, req);
    } catch (const CudaError& e) {
      if (err.flag) continue;  // both report an out-of-range index: consistent
      std::cout << "FAIL " << what << ": " << e.what() << "\n";
      ++failures;
      continue;
    }
    if (err.flag) {
      std::cout << "FAIL " << what << ": the reference reads out of range but the kernel did not report it\n";
      ++failures;
      continue;
    }
    double worst = 0, worst_lse = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      const double a = got.out.get(static_cast<int64_t>(i));
      worst = std::max(worst, std::isnan(a) ? INFINITY : std::abs(a - want[i]));
    }
    if (k.lse)
      for (size_t i = 0; i < want_lse.size(); ++i) {
        const double a = got.lse.get(static_cast<int64_t>(i)), b = want_lse[i];
        worst_lse = std::max(worst_lse, (std::isinf(a) && std::isinf(b) && a == b) ? 0.0 : std::abs(a - b));
      }
    const bool ok = worst <= tol && worst_lse <= 1e-2;
    if (!ok) ++failures;
    std::cout << (ok ? "ok   " : "FAIL ") << what << ": max |err| " << worst
              << (k.lse ? " lse " + std::to_string(worst_lse) : "") << "\n";
  }
  return failures;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

/// The autotuner over `dir`'s candidates (names.txt, 00.cu, 01.cu, ...; 00 is the table's):
/// checked against 00 on B=1, H=4, L=1000, timed on the benchmark shape. JSON fields.
/// `no_wgmma` leaves out Hopper's warpgroup shapes (when their own check failed on this device).
std::string tune_variant(CudaDevice& device, const fs::path& dir, int64_t len, std::mt19937& rng,
                         bool no_wgmma) {
  std::vector<CudaTuneSource> candidates;
  std::ifstream names(dir / "names.txt");
  std::string name;
  for (int i = 0; std::getline(names, name); ++i) {
    char file[16];
    std::snprintf(file, sizeof file, "%02d.cu", i);
    if (no_wgmma && name.rfind("wgmma", 0) == 0) continue;
    candidates.push_back({name, read_text(dir / file), {}});
  }
  if (candidates.empty()) throw std::runtime_error("no candidates in " + dir.string());
  Kit k = load_kit(dir / "00.cu");
  const int64_t check_len = 1000;
  HostTensor cq = random_tensor(k.info.dtype, {1, 4, check_len, k.info.head_dim}, rng);
  HostTensor ck = random_tensor(k.info.dtype, {1, 4, check_len, k.info.head_dim}, rng);
  HostTensor cv = random_tensor(k.info.dtype, {1, 4, check_len, k.info.value_dim}, rng);
  std::vector<HostTensor> cbuf = make_buffers(k.args, 4, check_len, rng, false);
  HostTensor q = random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor kt = random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor v = random_tensor(k.info.dtype, {4, 16, len, k.info.value_dim}, rng);
  std::vector<HostTensor> tbuf = make_buffers(k.args, 16, len, rng, true);
  CudaLaunchRequest check = request_for(k, cq, ck, cv, cbuf), timing = request_for(k, q, kt, v, tbuf);
  timing.timed_repeats = 5;
  CudaDeviceTuner tuner(device, std::move(candidates), check, timing);
  CudaTuneResult r = cuda_autotune(tuner, cuda_tune_tolerance(k.info.dtype));
  std::ostringstream out;
  out << "\"tuned_tiles\": " << json_string(r.trials[r.best].name)
      << ", \"tuned_ms\": " << r.trials[r.best].ms << ", \"table_tiles\": " << json_string(r.trials[0].name)
      << ", \"table_ms\": " << r.trials[0].ms << ", \"trials\": [";
  for (size_t i = 0; i < r.trials.size(); ++i)
    out << (i ? ", " : "") << "{\"tiles\": " << json_string(r.trials[i].name)
        << ", \"ms\": " << r.trials[i].ms << ", \"rejected\": " << json_string(r.trials[i].rejected) << "}";
  out << "]";
  for (const CudaTuneTrial& t : r.trials)
    std::cout << "  tune " << dir.filename().string() << ": " << t.name << " "
              << (t.rejected.empty() ? std::to_string(t.ms) + " ms" : "rejected: " + t.rejected) << "\n";
  return out.str();
}

/// Compiles `f` (cold, NVRTC), loads it (warm) and times it on B=4, H=16, L=len: JSON fields,
/// each name prefixed with `prefix`. Without a device, the compile only.
std::string time_kernel(CudaDevice* device, const fs::path& f, const std::string& arch, int64_t len,
                        std::mt19937& rng, const std::string& prefix) {
  std::ostringstream out;
  Kit k = load_kit(f);
  NvrtcOptions no;
  no.arch = arch;
  const auto t0 = std::chrono::steady_clock::now();
  NvrtcResult nv = nvrtc_compile(k.source, f.filename().string(), no);
  const double cold = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const PtxasFunction* fn = nv.report.find(k.info.entry);
  out << "\"" << prefix << "cold_compile_s\": " << cold << ", \"" << prefix
      << "registers\": " << (fn ? fn->registers : 0) << ", \"" << prefix
      << "spill_bytes\": " << (fn ? fn->spill_stores + fn->spill_loads : 0) << ", \"" << prefix
      << "smem_bytes\": " << k.info.smem_bytes;
  if (!device) return out.str();
  const auto t1 = std::chrono::steady_clock::now();
  std::shared_ptr<CudaModule> module = device->load(nv.cubin);
  module->function(k.info.entry);
  out << ", \"" << prefix << "warm_load_ms\": "
      << 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  HostTensor q = random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor kt = random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor v = random_tensor(k.info.dtype, {4, 16, len, k.info.value_dim}, rng);
  std::vector<HostTensor> buffers = make_buffers(k.args, 16, len, rng, true);
  CudaLaunchRequest req = request_for(k, q, kt, v, buffers);
  req.timed_repeats = 20;
  try {
    std::vector<float> t = launch_cuda_kernel(*device, *module, k.info, req).times_ms;
    std::sort(t.begin(), t.end());
    out << ", \"" << prefix << "ms_median\": " << t[t.size() / 2] << ", \"" << prefix
        << "ms_min\": " << t.front();
  } catch (const std::exception& e) {
    out << ", \"" << prefix << "error\": " << json_string(e.what());
  }
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> check_dirs;
  fs::path bench_dir, tune_dir, wgmma_dir, reference = "backends/cuda/device/attn_reference.cuh", json;
  bool dry = false, no_wgmma = false;
  int64_t len = 8192;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--dry-run")
      dry = true;
    else if (a == "--bench")
      bench_dir = next();
    else if (a == "--json")
      json = next();
    else if (a == "--tune")
      tune_dir = next();
    else if (a == "--bench-wgmma")
      wgmma_dir = next();
    else if (a == "--no-wgmma")
      no_wgmma = true;
    else if (a == "--len")
      len = std::stoll(next());
    else if (a == "--reference")
      reference = next();
    else
      check_dirs.push_back(a);
  }
  std::shared_ptr<CudaDevice> device;
  std::string arch = "sm_90a";
  if (!dry) {
    try {
      device = CudaDevice::open();
    } catch (const CudaError& e) {
      std::cerr << "kit_check: " << e.what() << " (--dry-run compiles only)\n";
      return 1;
    }
    arch = "sm_" + std::to_string(device->sm()) + (device->sm() == 90 ? "a" : "");
  }
  const std::string ref_text = read_text(reference);
  std::mt19937 rng(1234);
  int failures = 0, kernels = 0;
  for (const fs::path& dir : check_dirs) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".cu") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      ++kernels;
      try {
        Kit k = load_kit(f);
        if (dry) {
          NvrtcOptions no;
          no.arch = arch;
          NvrtcResult nv = nvrtc_compile(k.source + "\n" + ref_text, f.filename().string(), no);
          const PtxasFunction* fn = nv.report.find(k.info.entry);
          std::cout << "compiled " << f.stem().string() << " (" << arch << "): " << (fn ? fn->registers : 0)
                    << " registers, " << (fn ? fn->spill_stores : 0) << " B spills\n";
          continue;
        }
        failures += check_kernel(*device, k, arch, ref_text, rng);
      } catch (const std::exception& e) {
        std::cout << "FAIL " << f.stem().string() << ": " << e.what() << "\n";
        ++failures;
      }
    }
  }
  std::cout << kernels << " kernels, " << failures << " failures\n";

  if (!bench_dir.empty() && !json.empty()) {
    std::ostringstream out;
    out << "{\n  \"device\": \"" << (device ? device->name() : "none (dry run)")
        << "\",\n  \"sm\": " << (device ? device->sm() : 90) << ",\n  \"nvrtc\": \"" << nvrtc_version()
        << "\",\n  \"shape\": {\"B\": 4, \"H\": 16, \"L\": " << len
        << ", \"D\": 128, \"dtype\": \"bf16\"},\n  \"variants\": {";
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(bench_dir))
      if (e.path().extension() == ".cu") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    const char* sep = "\n";
    for (const fs::path& f : files) {
      out << sep << "    \"" << f.stem().string() << "\": {"
          << time_kernel(device.get(), f, arch, len, rng, "");
      sep = ",\n";
      if (!wgmma_dir.empty() && fs::exists(wgmma_dir / f.filename())) {
        try {
          const std::string fields =
              time_kernel(device.get(), wgmma_dir / f.filename(), arch, len, rng, "wgmma_");
          out << ", " << fields;
        } catch (const std::exception& e) {
          out << ", \"wgmma_error\": " << json_string(e.what());
        }
      }
      if (device && !tune_dir.empty() && fs::is_directory(tune_dir / f.stem())) {
        try {
          const std::string fields = tune_variant(*device, tune_dir / f.stem(), len, rng, no_wgmma);
          out << ", " << fields;
        } catch (const std::exception& e) {
          out << ", \"tune_error\": " << json_string(e.what());
        }
      }
      out << "}";
    }
    out << "\n  }\n}\n";
    std::ofstream(json) << out.str();
  }
  return failures ? 1 : 0;
}
