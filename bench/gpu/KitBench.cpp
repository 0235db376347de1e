// The kit's timings (kit_check --bench, --tune): NVRTC cold compile, warm load, kernel time.
#include "bench/gpu/KitBench.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench/gpu/KitKernel.h"
#include "runtime/CudaTuner.h"
#include "runtime/Nvrtc.h"

namespace attn::kit {

namespace fs = std::filesystem;

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

std::string tune_variant(CudaDevice& device, const fs::path& dir, int64_t len, std::mt19937& rng,
                         bool no_wgmma, const fs::path& cubins) {
  std::vector<CudaTuneSource> candidates;
  std::ifstream names(dir / "names.txt");
  std::string name;
  for (int i = 0; std::getline(names, name); ++i) {
    char file[16];
    std::snprintf(file, sizeof file, "%02d.cu", i);
    if (no_wgmma && name.rfind("wgmma", 0) == 0) continue;
    CudaTuneSource c{name, read_text(dir / file), {}, {}, {}};
    const fs::path cubin = cubins / dir.filename() / fs::path(file).replace_extension(".cubin");
    if (!cubins.empty() && fs::exists(cubin)) {
      const std::string bytes = read_text(cubin);
      c.cubin.assign(bytes.begin(), bytes.end());
      c.log = read_text(fs::path(cubin).replace_extension(".log"));
    }
    candidates.push_back(std::move(c));
  }
  if (candidates.empty()) throw std::runtime_error("no candidates in " + dir.string());
  Kit k = load_kit(dir / "00.cu");
  const int64_t check_len = 1000;
  HostTensor cq = kit::random_tensor(k.info.dtype, {1, 4, check_len, k.info.head_dim}, rng);
  HostTensor ck = kit::random_tensor(k.info.dtype, {1, 4, check_len, k.info.head_dim}, rng);
  HostTensor cv = kit::random_tensor(k.info.dtype, {1, 4, check_len, k.info.value_dim}, rng);
  std::vector<HostTensor> cbuf = kit::make_buffers(k.args, 4, check_len, rng, false);
  HostTensor q = kit::random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor kt = kit::random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor v = kit::random_tensor(k.info.dtype, {4, 16, len, k.info.value_dim}, rng);
  std::vector<HostTensor> tbuf = kit::make_buffers(k.args, 16, len, rng, true);
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
  HostTensor q = kit::random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor kt = kit::random_tensor(k.info.dtype, {4, 16, len, k.info.head_dim}, rng);
  HostTensor v = kit::random_tensor(k.info.dtype, {4, 16, len, k.info.value_dim}, rng);
  std::vector<HostTensor> buffers = kit::make_buffers(k.args, 16, len, rng, true);
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

int precompile_tune(const fs::path& tune, const fs::path& out, const std::string& arch, int shard,
                    int shards) {
  std::vector<fs::path> all;
  for (const auto& row : fs::directory_iterator(tune))
    if (row.is_directory())
      for (const auto& e : fs::directory_iterator(row.path()))
        if (e.path().extension() == ".cu") all.push_back(e.path());
  std::sort(all.begin(), all.end());
  int failures = 0;
  for (size_t i = static_cast<size_t>(shard); i < all.size(); i += static_cast<size_t>(shards)) {
    const fs::path& f = all[i];
    const std::string what = f.parent_path().filename().string() + "/" + f.filename().string();
    try {
      NvrtcOptions no;
      no.arch = arch;
      const NvrtcResult nv = nvrtc_compile(read_text(f), f.filename().string(), no);
      const fs::path dir = out / f.parent_path().filename();
      fs::create_directories(dir);
      std::ofstream(dir / fs::path(f.filename()).replace_extension(".cubin"), std::ios::binary)
          .write(reinterpret_cast<const char*>(nv.cubin.data()),
                 static_cast<std::streamsize>(nv.cubin.size()));
      std::ofstream(dir / fs::path(f.filename()).replace_extension(".log")) << nv.log;
      std::cout << "precompiled " << what << ": nvrtc " << nv.seconds << " s" << std::endl;
    } catch (const std::exception& e) {
      // The tuner compiles it again and rejects it with this message.
      std::cout << "precompile " << what << " failed: " << e.what() << std::endl;
      ++failures;
    }
  }
  return failures;
}

}  // namespace attn::kit
