// `attnc bench FILE [KERNEL] --shape B,H,L,D [-t TARGET] [--dtype T] [--backward]`: warm-up, timed
// runs (forward, or forward + backward), and the rate of the unmasked work (the tile plan's
// density), as a table or JSON; with --serving TRACE.json a serving step instead (ServingBench.cpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "backends/Backend.h"
#include "cli/Commands.h"
#include "cli/KernelSession.h"
#include "cli/ServingBench.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "runtime/TilePlanner.h"

namespace attn::cli {

namespace {

std::vector<int64_t> parse_shape(const std::string& text) {
  std::vector<int64_t> dims;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    try {
      size_t used = 0;
      long long v = std::stoll(part, &used);
      if (used != part.size() || v <= 0) throw std::invalid_argument(part);
      dims.push_back(v);
    } catch (const std::exception&) {
      throw InputError("--shape '" + text + "': '" + part + "' is not a positive integer");
    }
  }
  if (dims.size() != 4) throw InputError("--shape must be B,H,L,D (got '" + text + "')");
  return dims;
}

// Fraction of (q, kv) pairs the mask allows, from the tile plan (exact or sampled).
MaskDensity density_of(const KernelIR& ir, const KernelInputs& in, int64_t Lq, int64_t Lk) {
  auto plan = plan_tiles(ir);  // owns the program below
  const TilePlanProgram& prog = tile_plan_program(*plan);
  TilePlanInputs pi;
  pi.q_len = Lq, pi.kv_len = Lk;
  pi.scalars = in.scalars;
  for (const auto& [name, t] : in.buffers) pi.buffers[name] = tile_buffer_view(t);
  TileGrid grid = plan_tile_grid(prog, pi);
  return mask_density(prog, pi, grid);
}

/// --backward's request: a random dOut and every f32 buffer whose gradient the kernel has (those
/// its score reads; validate_gradient_request says which).
GradientRequest backward_request(const KernelIR& ir, const KernelInputs& in, std::mt19937& rng) {
  GradientRequest r;
  r.dout = random_tensor(in.q.type, {in.q.shape[0], in.q.shape[1], in.q.shape[2], in.v.shape[3]}, rng);
  for (const auto& [name, tensor] : in.buffers) {
    GradientRequest one{r.dout, {}, {name}};
    try {
      validate_gradient_request(ir, in, one);
      r.buffers.push_back(name);
    } catch (const InputError&) {  // not f32, or not read by the score: no gradient
    }
  }
  return r;
}

}  // namespace

int run_bench(const BenchOptions& o) {
  auto [program, loaded] = load_kernel(o.file, o.kernel);
  std::shared_ptr<const KernelIR> ir = loaded;
  if (!ir) return 1;
  try {
    const Backend& target = find_backend(o.target, Capability::Run);
    // Checked before any work: a target without the tuner or the backward.
    const bool tune = o.autotune && find_backend(o.target, Capability::Tune).can(Capability::Tune);
    const bool backward =
        o.backward && find_backend(o.target, Capability::Backward).can(Capability::Backward);
    if (!o.dtype.empty())
      ir = with_dtype(*ir, dtype_named(o.dtype).value_or(DType::F32));  // Main.cpp checked the name
    if (!o.serving.empty()) return bench_serving(*ir, target, o);
    std::vector<int64_t> s = parse_shape(o.shape);
    const int64_t B = s[0], H = s[1], L = s[2], D = s[3];
    const int64_t Hkv = o.kv_heads > 0 ? o.kv_heads : H, Dv = o.value_dim > 0 ? o.value_dim : D;
    const int64_t Lk = o.kv_len > 0 ? o.kv_len : L;
    std::mt19937 rng(2026);
    ScalarType type = io_scalar_type(kernel_options(*ir).dtype);
    KernelInputs in;
    in.q = random_tensor(type, {B, H, L, D}, rng);
    in.k = random_tensor(type, {B, Hkv, Lk, D}, rng);
    in.v = random_tensor(type, {B, Hkv, Lk, Dv}, rng);
    bind_kernel_args(*ir, o.args, in);
    validate_inputs(*ir, in);

    GradientRequest request = backward ? backward_request(*ir, in, rng) : GradientRequest{};

    MaskDensity density = density_of(*ir, in, L, Lk);
    // The backward's five products (S, dP, dV, dK, dQ) against the forward's two.
    const double flops = 2.0 * double(B) * double(H) * double(L) * double(Lk) *
                         (backward ? double(3 * D + 2 * Dv) + double(D + Dv) : double(D + Dv)) *
                         density.density;

    if (tune) (o.json ? std::cerr : std::cout) << target.tune(*ir, in);

    const bool progress = !o.json && ::isatty(2);
    std::vector<double> ms;
    for (int i = 0; i < o.warmup + o.iters; ++i) {
      bool timed = i >= o.warmup;
      if (progress)
        std::fprintf(stderr, "\r%s %d/%d ", timed ? "run   " : "warm-up", timed ? i - o.warmup + 1 : i + 1,
                     timed ? o.iters : o.warmup);
      auto t0 = std::chrono::steady_clock::now();
      if (backward)
        (void)target.backward(*ir, in, request, o.threads);  // runs the forward first
      else
        (void)target.run(*ir, in, o.threads);
      double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (timed) ms.push_back(t);
      if (progress) std::fprintf(stderr, "%9.3f ms", t);
    }
    if (progress) std::fprintf(stderr, "\r%40s\r", "");
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                      : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
    double gflops = flops / (median * 1e-3) / 1e9;
    std::string shape = std::to_string(B) + "x" + std::to_string(H) + "x" + std::to_string(L) +
                        (Lk != L ? "/" + std::to_string(Lk) : "") + "x" + std::to_string(D);
    if (o.json) {
      nlohmann::ordered_json j;
      j["kernel"] = kernel_name(*ir);
      j["target"] = o.target;
      j["pass"] = backward ? "forward+backward" : "forward";
      j["shape"] = {{"B", B}, {"H", H}, {"Hkv", Hkv}, {"L", L}, {"Lkv", Lk}, {"D", D}, {"Dv", Dv}};
      j["dtype"] = scalar_type_name(type);
      j["density"] = density.density;
      j["density_exact"] = density.exact;
      j["iters"] = o.iters;
      j["ms"] = {{"median", median}, {"min", sorted.front()}, {"max", sorted.back()}, {"all", ms}};
      j["gflops"] = gflops;
      std::cout << j.dump(2) << "\n";
      return 0;
    }
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %-9s %-18s %-5s %8s %10s %10s %10s %10s\n", "kernel", "target",
                  "shape B,H,L,D", "dtype", "density", "median ms", "min ms", "max ms", "GFLOP/s");
    std::cout << line;
    std::snprintf(line, sizeof line, "%-20s %-9s %-18s %-5s %8.4f %10.3f %10.3f %10.3f %10.1f\n",
                  kernel_name(*ir).c_str(), o.target.c_str(), shape.c_str(), scalar_type_name(type),
                  density.density, median, sorted.front(), sorted.back(), gflops);
    std::cout << line;
    std::cout << "GFLOP/s counts the unmasked work only: 2*B*H*Lq*Lkv*"
              << (backward ? "(4D+3Dv) (forward + backward)" : "(D+Dv)") << "*density"
              << (density.exact ? "" : " (density sampled)") << "; " << o.iters << " timed runs after "
              << o.warmup << " warm-up\n";
  } catch (const std::exception& e) {
    report_kernel_error(e, *program);
    return 1;
  }
  return 0;
}

}  // namespace attn::cli
