// The search over tile shapes, and its binding to a GPU.
#include "runtime/CudaTuner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "runtime/Nvrtc.h"

namespace attn {

namespace {

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;  // equal infinities included
    const double d = std::abs(a[i] - b[i]);
    worst = std::max(worst, std::isnan(d) ? INFINITY : d);
  }
  return worst;
}

std::string format_difference(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", d);
  return buf;
}

}  // namespace

CudaTuneResult cuda_autotune(CudaTuneBackend& backend, double tolerance) {
  CudaTuneResult result;
  if (backend.size() == 0) throw std::invalid_argument("the autotuner has no candidates");
  std::vector<double> baseline;
  for (size_t i = 0; i < backend.size(); ++i) {
    CudaTuneTrial trial;
    trial.name = backend.name(i);
    try {
      trial.rejected = backend.prepare(i);
      if (trial.rejected.empty()) {
        std::vector<double> out = backend.check_output(i);
        if (i == 0) {
          baseline = std::move(out);
        } else {
          const double d = max_abs_difference(out, baseline);
          if (!(d <= tolerance))
            trial.rejected = "output differs from the table's by " + format_difference(d);
        }
      }
      if (trial.rejected.empty()) trial.ms = backend.time_ms(i);
    } catch (const std::exception& e) {
      if (i == 0) throw;  // the baseline must work: nothing to compare with otherwise
      trial.rejected = e.what();
    }
    if (i == 0 && !trial.rejected.empty())
      throw std::runtime_error("the table's tile shape (" + trial.name + ") is unusable: " + trial.rejected);
    const bool faster = i > 0 && trial.rejected.empty() && trial.ms < result.trials[result.best].ms;
    result.trials.push_back(std::move(trial));
    if (faster) result.best = i;
  }
  return result;
}

double cuda_tune_tolerance(ScalarType io) {
  return io == ScalarType::F32 ? 1e-4 : io == ScalarType::F16 ? 4e-3 : 3e-2;
}

CudaDeviceTuner::CudaDeviceTuner(CudaDevice& device, std::vector<CudaTuneSource> candidates,
                                 CudaLaunchRequest check, CudaLaunchRequest timing)
    : device_(device),
      candidates_(std::move(candidates)),
      modules_(candidates_.size()),
      infos_(candidates_.size()),
      check_(std::move(check)),
      timing_(std::move(timing)) {}

std::string CudaDeviceTuner::prepare(size_t i) {
  infos_[i] = candidates_[i].info.empty() ? parse_cuda_launch_info(candidates_[i].source)
                                          : read_cuda_launch_info(candidates_[i].info);
  NvrtcOptions options;
  options.arch = "sm_" + std::to_string(device_.sm()) + (device_.sm() == 90 ? "a" : "");
  NvrtcResult nv = nvrtc_compile(candidates_[i].source, "candidate.cu", options);
  const PtxasFunction* fn = nv.report.find(infos_[i].entry);
  if (fn && fn->spill_stores + fn->spill_loads > 0)
    return "spills " + std::to_string(fn->spill_stores + fn->spill_loads) + " bytes";
  modules_[i] = device_.load(nv.cubin);
  return "";
}

std::vector<double> CudaDeviceTuner::check_output(size_t i) {
  CudaLaunchRequest r = check_;
  r.timed_repeats = 0;
  r.scale = infos_[i].scale;
  CudaLaunchResult got = launch_cuda_kernel(device_, *modules_[i], infos_[i], r);
  std::vector<double> out;
  for (int64_t j = 0; j < got.out.numel(); ++j) out.push_back(got.out.get(j));
  if (r.lse)
    for (int64_t j = 0; j < got.lse.numel(); ++j) out.push_back(got.lse.get(j));
  return out;
}

double CudaDeviceTuner::time_ms(size_t i) {
  CudaLaunchRequest r = timing_;
  r.scale = infos_[i].scale;
  if (r.timed_repeats <= 0) r.timed_repeats = 5;
  std::vector<float> t = launch_cuda_kernel(device_, *modules_[i], infos_[i], r).times_ms;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace attn
