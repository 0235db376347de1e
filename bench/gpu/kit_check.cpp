// kit_check: the GPU session's check that needs only a C++ compiler and the CUDA toolkit (no Halide,
// ANTLR or Boost): every generated .cu of the kit folders (bench/gpu/make_kit.sh) is compiled with
// NVRTC and checked against an f64 GPU reference appended to its own source (KitCheck.h: forward,
// backward, decode over 32k keys, a deliberate out-of-range launch), one result line per kernel,
// each kernel in a worker process that may die alone (KitIsolate.h); --shard i/N checks every
// N-th kernel from the i-th, so N processes share a machine's cores. --bench times a folder of
// variants and --tune DIR runs the autotuner over DIR/<variant>/*.cu, writing the JSON after every
// row; --precompile-tune compiles the tuner's candidates ahead, sharded like the check; --vulkan
// checks Vulkan modules (the loader's vulkan target) against the same f64 CUDA reference. Build:
// bench/gpu/build_kit_check.sh (the source list is there).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "attn/vulkan.hpp"
#include "bench/gpu/KitBench.h"
#include "bench/gpu/KitCheck.h"
#include "bench/gpu/KitIsolate.h"
#include "bench/gpu/KitServing.h"
#include "bench/gpu/KitVulkan.h"
#include "runtime/Nvrtc.h"

using namespace attn;
using namespace attn::kit;
namespace fs = std::filesystem;

namespace {

constexpr const char* kUsage =
    "usage: kit_check [--dry-run] [--shard I/N] [--sample N] [--no-backward] [--no-decode]\n"
    "                 [--no-ragged] [--no-out-of-range] [--kernel-seconds S] [--reference F] "
    "[--reference-bwd F]\n"
    "                 [--ref-cubins DIR] DIR...\n"
    "       kit_check --bench DIR --json FILE [--bench-wgmma DIR] [--tune DIR [--tune-only] [--cubins DIR]]\n"
    "                 [--no-wgmma] [--len L] [--dry-run]\n"
    "       kit_check --precompile-tune DIR --cubins OUT [--shard I/N] [--arch sm_90a]\n"
    "       kit_check --vulkan DIR [--vulkan-bench DIR] [--vulkan-cuda DIR] [--ref-cubins DIR] [--len L]\n"
    "                 [--dry-run]\n"
    "       kit_check --serving TRACE --serving-kernel FILE.cu... --json FILE [--dry-run]\n";

struct Args {
  std::vector<fs::path> check_dirs;
  fs::path bench_dir, tune_dir, wgmma_dir, json, precompile_dir, cubins;
  fs::path vulkan_dir, vulkan_bench_dir, vulkan_cuda_dir;  ///< Vulkan modules, their CUDA sources
  fs::path serving;                                        ///< the serving trace (--serving)
  std::vector<fs::path> serving_kernels;                   ///< the kernels that serve it
  fs::path ref_cubins;          ///< where the reference cubins are kept between steps (CheckOptions::cubins)
  std::string arch = "sm_90a";  ///< --precompile-tune's target (the GPU machine's)
  fs::path reference = "backends/cuda/device/attn_reference.cuh";
  fs::path reference_bwd = "backends/cuda/device/attn_reference_bwd.cuh";
  bool dry = false, no_wgmma = false, tune_only = false;
  bool backward = true, decode = true, ragged = true, out_of_range = true;
  int shard = 0, shards = 1, sample = 1;
  unsigned kernel_seconds = 180;
  int64_t len = 8192;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(s + " needs a value");
      return argv[++i];
    };
    if (s == "--dry-run")
      a.dry = true;
    else if (s == "--bench")
      a.bench_dir = next();
    else if (s == "--serving")
      a.serving = next();
    else if (s == "--serving-kernel")
      a.serving_kernels.push_back(next());
    else if (s == "--json")
      a.json = next();
    else if (s == "--tune")
      a.tune_dir = next();
    else if (s == "--tune-only")
      a.tune_only = true;
    else if (s == "--precompile-tune")
      a.precompile_dir = next();
    else if (s == "--cubins")
      a.cubins = next();
    else if (s == "--arch")
      a.arch = next();
    else if (s == "--vulkan")
      a.vulkan_dir = next();
    else if (s == "--vulkan-bench")
      a.vulkan_bench_dir = next();
    else if (s == "--vulkan-cuda")
      a.vulkan_cuda_dir = next();
    else if (s == "--ref-cubins")
      a.ref_cubins = next();
    else if (s == "--bench-wgmma")
      a.wgmma_dir = next();
    else if (s == "--no-wgmma")
      a.no_wgmma = true;
    else if (s == "--no-backward")
      a.backward = false;
    else if (s == "--no-decode")
      a.decode = false;
    else if (s == "--no-ragged")
      a.ragged = false;
    else if (s == "--no-out-of-range")
      a.out_of_range = false;
    else if (s == "--len")
      a.len = std::stoll(next());
    else if (s == "--reference")
      a.reference = next();
    else if (s == "--reference-bwd")
      a.reference_bwd = next();
    else if (s == "--kernel-seconds")
      a.kernel_seconds = static_cast<unsigned>(std::stoul(next()));
    else if (s == "--sample")
      a.sample = std::max(1, std::stoi(next()));  // check and bench folders
    else if (s == "--shard") {
      const std::string v = next();
      const size_t slash = v.find('/');
      if (slash == std::string::npos) throw std::invalid_argument("--shard takes I/N, e.g. 3/16");
      a.shard = std::stoi(v.substr(0, slash)), a.shards = std::stoi(v.substr(slash + 1));
      if (a.shards < 1 || a.shard < 0 || a.shard >= a.shards)
        throw std::invalid_argument("--shard " + v + ": need 0 <= I < N");
    } else if (!s.empty() && s[0] == '-')
      throw std::invalid_argument("unknown option " + s);
    else
      a.check_dirs.push_back(s);
  }
  return a;
}

/// The kernels to check: every forward .cu of the folders (not NAME_backward.cu), in name order,
/// then this shard's share, then every `sample`-th of it.
std::vector<fs::path> kernels_of(const Args& a) {
  std::vector<fs::path> all;
  for (const fs::path& dir : a.check_dirs) {
    if (!fs::is_directory(dir)) throw std::invalid_argument(dir.string() + " is not a folder");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string stem = e.path().stem().string();
      if (e.path().extension() == ".cu" && !stem.ends_with("_backward")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    all.insert(all.end(), files.begin(), files.end());
  }
  std::vector<fs::path> mine;
  for (size_t i = static_cast<size_t>(a.shard); i < all.size(); i += static_cast<size_t>(a.shards))
    mine.push_back(all[i]);
  std::vector<fs::path> sampled;
  for (size_t i = 0; i < mine.size(); i += static_cast<size_t>(a.sample)) sampled.push_back(mine[i]);
  return sampled;
}

/// The worker's device, opened on first use (after the fork).
CudaDevice& worker_device() {
  static std::shared_ptr<CudaDevice> device = CudaDevice::open();
  return *device;
}

std::string arch_of(const CudaDevice& d) {
  return "sm_" + std::to_string(d.sm()) + (d.sm() == 90 ? "a" : "");
}

/// The timings (and with --tune the tuner) per variant of --bench, the JSON rewritten after each
/// row so that a stop loses nothing already measured.
int bench(const Args& a) {
  std::shared_ptr<CudaDevice> device;
  std::string arch = "sm_90a";
  if (!a.dry) {
    device = CudaDevice::open();
    arch = arch_of(*device);
  }
  std::mt19937 rng(4321);
  std::vector<fs::path> all, files;
  for (const auto& e : fs::directory_iterator(a.bench_dir))
    if (e.path().extension() == ".cu") all.push_back(e.path());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); i += static_cast<size_t>(a.sample)) files.push_back(all[i]);
  std::ostringstream head;
  head << "{\n  \"device\": \"" << (device ? device->name() : "none (dry run)")
       << "\",\n  \"sm\": " << (device ? device->sm() : 90) << ",\n  \"nvrtc\": \"" << nvrtc_version()
       << "\",\n  \"shape\": {\"B\": 4, \"H\": 16, \"L\": " << a.len
       << ", \"D\": 128, \"dtype\": \"bf16\"},\n  \"variants\": {";
  std::string rows;
  for (const fs::path& f : files) {
    std::string fields;
    auto add = [&](const std::string& more) { fields += (fields.empty() ? "" : ", ") + more; };
    if (!a.tune_only) {
      try {
        add(time_kernel(device.get(), f, arch, a.len, rng, ""));
      } catch (const std::exception& e) {
        add("\"error\": " + json_string(e.what()));
      }
      if (!a.wgmma_dir.empty() && fs::exists(a.wgmma_dir / f.filename())) {
        try {
          add(time_kernel(device.get(), a.wgmma_dir / f.filename(), arch, a.len, rng, "wgmma_"));
        } catch (const std::exception& e) {
          add("\"wgmma_error\": " + json_string(e.what()));
        }
      }
    }
    if (device && !a.tune_dir.empty() && fs::is_directory(a.tune_dir / f.stem())) {
      try {
        add(tune_variant(*device, a.tune_dir / f.stem(), a.len, rng, a.no_wgmma, a.cubins));
      } catch (const std::exception& e) {
        add("\"tune_error\": " + json_string(e.what()));
      }
    }
    rows +=
        (rows.empty() ? "\n" : ",\n") + std::string("    \"") + f.stem().string() + "\": {" + fields + "}";
    std::ofstream(a.json) << head.str() << rows << "\n  }\n}\n";
    std::cout << "row " << f.stem().string() << " written" << std::endl;
  }
  return 0;
}

/// The Vulkan modules of --vulkan (checked) and --vulkan-bench (checked and timed) against the
/// CUDA f64 reference; a dry run builds each pipeline only (the device, the loader, the ICD).
int vulkan(const Args& a) {
  CheckOptions o;
  o.reference = read_text(a.reference);
  o.cubins = a.ref_cubins;
  if (a.dry) {
    int failures = 0;
    std::unique_ptr<Compiler> compiler = make_vulkan_compiler();
    for (const fs::path& dir : {a.vulkan_dir, a.vulkan_bench_dir}) {
      if (dir.empty()) continue;
      std::vector<fs::path> all;
      for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".spv") all.push_back(e.path());
      std::sort(all.begin(), all.end());
      for (size_t i = 0; i < all.size(); i += static_cast<size_t>(a.sample)) {
        try {
          const std::string words = read_text(all[i]);
          std::vector<uint32_t> w(words.size() / 4);
          std::copy(words.begin(), words.end(), reinterpret_cast<char*>(w.data()));
          const KernelRequest r = vulkan_kernel_request(
              read_text(fs::path(all[i]).replace_extension(".layout")).c_str(), w.data(), w.size());
          (void)compiler->load(compiler->compile(r), r);
          std::cout << "built vulkan " << all[i].stem().string() << std::endl;
        } catch (const std::exception& e) {
          std::cout << "FAIL vulkan " << all[i].stem().string() << ": " << e.what() << std::endl;
          ++failures;
        }
      }
    }
    return failures;
  }
  std::shared_ptr<CudaDevice> device = CudaDevice::open();
  o.arch = arch_of(*device);
  std::mt19937 rng(99);
  int failures = 0;
  const fs::path cuda = a.vulkan_cuda_dir;
  if (!a.vulkan_dir.empty()) failures += check_vulkan_folder(*device, a.vulkan_dir, cuda, o, 0, rng);
  if (!a.vulkan_bench_dir.empty())
    failures += check_vulkan_folder(*device, a.vulkan_bench_dir, cuda, o, a.len, rng);
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::cout << std::unitbuf;  // a killed process still leaves every line it wrote
  Args a;
  try {
    a = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "kit_check: " << e.what() << "\n" << kUsage;
    return 2;
  }
  if (a.check_dirs.empty() && a.bench_dir.empty() && a.precompile_dir.empty() && a.vulkan_dir.empty() &&
      a.vulkan_bench_dir.empty() && a.serving.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  int failures = 0;
  try {
    if (!a.check_dirs.empty()) {
      CheckOptions o;
      o.reference = read_text(a.reference);
      o.reference_bwd = read_text(a.reference_bwd);
      if (o.reference.empty() || o.reference_bwd.empty())
        throw std::invalid_argument("cannot read " + a.reference.string() + " or " +
                                    a.reference_bwd.string());
      o.backward = a.backward, o.decode = a.decode, o.ragged = a.ragged, o.out_of_range = a.out_of_range;
      o.cubins = a.ref_cubins;
      if (const char* cap = std::getenv("ATTNC_KIT_MAX_HOST_GB"))
        o.max_host_bytes = static_cast<int64_t>(std::atof(cap) * double(1 << 30));
      const std::vector<fs::path> files = kernels_of(a);
      auto work = [&](size_t i) -> int {
        try {
          const Kit k = load_kit(files[i]);
          if (a.dry) return compile_kernel(k, o);
          CheckOptions mine = o;
          mine.arch = arch_of(worker_device());
          std::mt19937 rng(1234 + static_cast<unsigned>(i));
          return check_kernel(worker_device(), k, mine, rng);
        } catch (const std::exception& e) {
          std::cout << "FAIL " << kit_name(files[i]) << ": " << e.what() << std::endl;
          return 1;
        }
      };
      failures += run_isolated(
          files.size(), work, [&](size_t i) { return kit_name(files[i]); }, a.kernel_seconds);
      std::cout << files.size() << " kernels (shard " << a.shard << "/" << a.shards << "), " << failures
                << " failures" << std::endl;
    }
    if (!a.precompile_dir.empty()) {
      if (a.cubins.empty()) throw std::invalid_argument("--precompile-tune needs --cubins OUT");
      failures += precompile_tune(a.precompile_dir, a.cubins, a.arch, a.shard, a.shards);
    }
    if (!a.vulkan_dir.empty() || !a.vulkan_bench_dir.empty()) failures += vulkan(a);
    if (!a.bench_dir.empty()) {
      if (a.json.empty()) throw std::invalid_argument("--bench needs --json FILE");
      failures += bench(a);
    }
    if (!a.serving.empty()) {
      if (a.json.empty() || a.serving_kernels.empty())
        throw std::invalid_argument("--serving needs --serving-kernel FILE.cu and --json FILE");
      CudaDevice* device = a.dry ? nullptr : &worker_device();
      std::ofstream(a.json) << serve_trace(device, a.serving, a.serving_kernels,
                                           device ? arch_of(*device) : a.arch)
                            << "\n";
    }
  } catch (const std::exception& e) {
    std::cout << "kit_check: " << e.what() << std::endl;
    return 1;
  }
  return failures ? 1 : 0;
}
