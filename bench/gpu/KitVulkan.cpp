// check_vulkan_folder: a Vulkan module against the CUDA f64 reference of the same kernel.
#include "bench/gpu/KitVulkan.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "attn/vulkan.hpp"
#include "runtime/KernelCallArgs.h"
#include "runtime/Nvrtc.h"
#include "runtime/VulkanCompiler.h"
#include "runtime/VulkanKernel.h"

namespace attn::kit {

namespace fs = std::filesystem;

namespace {

/// The loader's vulkan request of NAME.spv and NAME.layout.
KernelRequest vulkan_request(const fs::path& spv) {
  const std::string words = read_text(spv);
  const std::string layout = read_text(fs::path(spv).replace_extension(".layout"));
  if (words.size() % 4 != 0 || layout.empty())
    throw std::invalid_argument(spv.string() + ": not a SPIR-V module with its .layout beside it");
  std::vector<uint32_t> w(words.size() / 4);
  std::copy(words.begin(), words.end(), reinterpret_cast<char*>(w.data()));
  return vulkan_kernel_request(layout.c_str(), w.data(), w.size());
}

/// Runs `module` on host tensors; returns out, or throws with the kernel's message.
HostTensor run_vulkan(const VulkanKernelModule& module, const HostTensor& q, const HostTensor& k,
                      const HostTensor& v, const std::vector<HostTensor>& buffers,
                      const std::vector<double>& scalars, int repeat, double* gpu_ms) {
  HostTensor out(q.type, {q.shape[0], q.shape[1], q.shape[2], v.shape[3]});
  KernelCallTensors t;
  t.q = &q, t.k = &k, t.v = &v, t.out = &out;
  for (const HostTensor& b : buffers) t.buffers.push_back(&b);
  t.scalars = scalars;
  KernelCallArgs args(t);
  if (module.dispatch(&args.args(), repeat, gpu_ms) != 0) throw std::runtime_error(args.error());
  return out;
}

}  // namespace

int check_vulkan_folder(CudaDevice& device, const fs::path& dir, const fs::path& cuda_dir,
                        const CheckOptions& o, int64_t time_len, std::mt19937& rng) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".spv") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::unique_ptr<Compiler> compiler = make_vulkan_compiler();
  int failures = 0;
  for (const fs::path& spv : files) {
    const std::string name = spv.parent_path().filename().string() + "/" + spv.stem().string();
    std::ostringstream line;
    int failed = 0;
    try {
      const KernelRequest request = vulkan_request(spv);
      std::shared_ptr<const KernelModule> loaded = compiler->load(compiler->compile(request), request);
      const auto& module = dynamic_cast<const VulkanKernelModule&>(*loaded);
      fs::path cu = dir / (spv.stem().string() + ".cu");
      if (!fs::exists(cu)) cu = cuda_dir / (spv.stem().string() + ".cu");
      const Kit k = load_kit(cu);
      const vk::KernelLayout layout = vk::parse_vulkan_kernel(request.source);
      if (layout.head_dim != k.info.head_dim || layout.value_dim != k.info.value_dim) {
        std::cout << "skip vulkan " << name << ": built for head dims " << layout.head_dim << "/"
                  << layout.value_dim << ", its CUDA reference for " << k.info.head_dim << "/"
                  << k.info.value_dim << std::endl;
        continue;
      }
      std::shared_ptr<CudaModule> ref = device.load(reference_cubin(k, o));  // step 1's, when kept
      const double tol = k.info.dtype == ScalarType::F16 ? 1e-2 : 3e-3;      // bf16 runs as f32 on Vulkan
      double worst = 0;
      for (auto [lq, lkv] : {std::pair<int64_t, int64_t>{77, 77}, {200, 333}, {1, 3001}}) {
        HostTensor q = random_tensor(k.info.dtype, {2, 4, lq, k.info.head_dim}, rng);
        HostTensor kt = random_tensor(k.info.dtype, {2, 2, lkv, k.info.head_dim}, rng);
        HostTensor v = random_tensor(k.info.dtype, {2, 2, lkv, k.info.value_dim}, rng);
        std::vector<HostTensor> buffers = make_buffers(k.args, 4, std::max(lq, lkv), rng);
        CudaLaunchRequest req = request_for(k, q, kt, v, buffers);
        const CudaPreparedLaunch L = prepare_cuda_launch(device, without_plan(k.info), req);
        const Reference want = run_reference(device, *ref, k.info, L);
        const HostTensor got = run_vulkan(module, q, kt, v, buffers, req.scalars, 1, nullptr);
        double err = 0;
        for (size_t i = 0; i < want.out.size(); ++i) {
          const double a = got.get(static_cast<int64_t>(i));
          err = std::max(err, std::isnan(a) ? INFINITY : std::abs(a - want.out[i]));
        }
        worst = std::max(worst, err);
        if (err > tol) {
          ++failed;
          line << " | Lq=" << lq << " Lkv=" << lkv << ": max |err| " << err;
        }
      }
      line << "; max |err| " << worst;
      if (time_len > 0) {
        HostTensor q = random_tensor(k.info.dtype, {4, 16, time_len, k.info.head_dim}, rng);
        HostTensor kt = random_tensor(k.info.dtype, {4, 16, time_len, k.info.head_dim}, rng);
        HostTensor v = random_tensor(k.info.dtype, {4, 16, time_len, k.info.value_dim}, rng);
        std::vector<HostTensor> buffers = make_buffers(k.args, 16, time_len, rng, true);
        double ms = -1;
        (void)run_vulkan(module, q, kt, v, buffers, std::vector<double>(k.info.scalar_names.size(), 16), 5,
                         &ms);
        line << "; B=4 H=16 L=" << time_len << ": " << ms << " ms";
      }
    } catch (const std::exception& e) {
      ++failed;
      line << " | " << e.what();
    }
    std::cout << (failed ? "FAIL " : "ok   ") << "vulkan " << name << line.str() << std::endl;
    failures += failed;
  }
  std::cout << files.size() << " Vulkan kernels, " << failures << " failures" << std::endl;
  return failures;
}

}  // namespace attn::kit
