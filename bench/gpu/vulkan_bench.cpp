// attn_vulkan_bench: one kernel on the Vulkan device: checked against the reference on a small
// shape, then timed with GPU timestamps on the target shape (TFLOP/s over the unmasked work).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "backends/reference/Reference.h"
#include "backends/spirv/RunVulkan.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "frontend/Program.h"
#include "runtime/TilePlanner.h"

using namespace attn;

namespace {

HostTensor random_tensor(ScalarType t, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor x(t, std::move(shape));
  std::normal_distribution<double> n(0, 1);
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, n(rng));
  return x;
}

// Inputs of the bench kernels: documents of ~1/16 of the length (docs/performance.md's density),
// slopes.
KernelInputs make_inputs(const KernelIR& ir, int B, int H, int L, int D, std::mt19937& rng) {
  const KernelOptions& o = kernel_options(ir);
  ScalarType t = io_scalar_type(o.dtype);
  KernelInputs in;
  in.q = random_tensor(t, {B, H, L, D}, rng);
  in.k = random_tensor(t, {B, H, L, D}, rng);
  in.v = random_tensor(t, {B, H, L, D}, rng);
  for (const KernelArgInfo& a : kernel_args(ir)) {
    if (!a.is_buffer) continue;
    if (a.elem == ElemType::I32) {
      HostTensor doc(ScalarType::I32, {L});
      for (int i = 0; i < L; ++i) doc.set(i, i / std::max(1, L / 16));
      in.buffers[a.name] = doc;
    } else {
      HostTensor s(ScalarType::F32, {H});
      for (int h = 0; h < H; ++h) s.set(h, -std::exp2(-8.0 * (h + 1) / H));
      in.buffers[a.name] = s;
    }
  }
  return in;
}

double max_diff(const HostTensor& a, const HostTensor& b) {
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) worst = std::max(worst, std::fabs(a.get(i) - b.get(i)));
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: attn_vulkan_bench FILE KERNEL [B H L D [REPEAT]]\n");
    return 2;
  }
  int B = argc > 3 ? std::atoi(argv[3]) : 4, H = argc > 4 ? std::atoi(argv[4]) : 16;
  int L = argc > 5 ? std::atoi(argv[5]) : 8192, D = argc > 6 ? std::atoi(argv[6]) : 128;
  int repeat = argc > 7 ? std::atoi(argv[7]) : 10;
  try {
    auto p = load_program(argv[1]);
    if (p->diags.has_errors()) {
      std::fprintf(stderr, "%s", render_diagnostics(p->diags, p->sources).c_str());
      return 1;
    }
    const Decl* k = p->kernel(argv[2]);
    if (!k) throw std::runtime_error(std::string("no kernel ") + argv[2]);
    DiagnosticEngine diags;
    auto ir = lower_kernel(*p, *k, diags);
    if (!ir) throw std::runtime_error(render_diagnostics(diags, p->sources));
    std::mt19937 rng(1);

    // Correctness first, on a shape the reference finishes quickly.
    KernelInputs small = make_inputs(*ir, 1, 2, 300, D, rng);
    double err = max_diff(run_vulkan(*ir, small).out, run_reference(*ir, small).out);

    // Density of the mask from the tile planner (exact per element up to 2^22 elements per tile set).
    KernelInputs in = make_inputs(*ir, B, H, L, D, rng);
    auto plan = plan_tiles(*ir);
    TilePlanInputs pin;
    pin.q_len = pin.kv_len = L;
    for (auto& [name, t] : in.buffers) pin.buffers[name] = tile_buffer_view(t);
    const TilePlanProgram& prog = tile_plan_program(*plan);
    double density = mask_density(prog, pin, plan_tile_grid(prog, pin)).density;

    VulkanRunOptions opt;
    opt.repeat = repeat;
    VulkanRunStats stats;
    run_vulkan(*ir, in, opt, &stats);
    double flops = 4.0 * B * H * double(L) * L * D * density;
    std::printf("%-16s %-28s B=%d H=%d L=%d D=%d density %.3f  max|err| %.2e  %.3f ms  %.1f TFLOP/s\n",
                argv[2], stats.device.c_str(), B, H, L, D, density, err, stats.gpu_ms,
                stats.gpu_ms > 0 ? flops / stats.gpu_ms / 1e9 : 0.0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_vulkan_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
