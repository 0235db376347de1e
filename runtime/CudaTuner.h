// The CUDA autotuner: times the candidate tile shapes of one kernel on the device and keeps the
// fastest whose output matches the table's choice. Halide-free: kit_check (a GPU machine without
// attnc's build dependencies) and run_cuda (attnc) share it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/CudaLauncher.h"

namespace attn {

/// One try of the search.
struct CudaTuneTrial {
  std::string name;      ///< the candidate's tile shape in words (backends/cuda describe())
  double ms = 0;         ///< median time of the timed launches; 0 when rejected
  std::string rejected;  ///< why it was not timed: compile error, spills, launch error, wrong output
};

struct CudaTuneResult {
  size_t best = 0;  ///< index of the fastest usable candidate (0, the baseline, when none beats it)
  std::vector<CudaTuneTrial> trials;
};

/// What the search needs from the world; CudaDeviceTuner binds it to a GPU, tests to fakes.
class CudaTuneBackend {
 public:
  virtual ~CudaTuneBackend() = default;
  virtual size_t size() const = 0;
  virtual std::string name(size_t i) const = 0;
  /// Compiles candidate i; returns why it cannot be used ("" when it can). Throwing counts as a
  /// rejection too.
  virtual std::string prepare(size_t i) = 0;
  /// Candidate i's output on the check inputs (Out, then LSE when the kernel writes it).
  virtual std::vector<double> check_output(size_t i) = 0;
  /// Candidate i's median time on the timing inputs.
  virtual double time_ms(size_t i) = 0;
};

/// Tries every candidate in order. Candidate 0 is the baseline (the tile table's choice): it must
/// be usable (otherwise its error propagates), and every other candidate's check output must match
/// its output within `tolerance` (largest absolute difference; -inf matches -inf). The fastest
/// usable candidate wins; ties keep the earlier one.
CudaTuneResult cuda_autotune(CudaTuneBackend& backend, double tolerance);

/// The largest difference from the table's output a candidate may show, by I/O type.
double cuda_tune_tolerance(ScalarType io);

/// One candidate for the device tuner: its name and generated source, and optionally its cubin and
/// NVRTC log compiled ahead (kit_check compiles a GPU session's candidates in parallel first).
struct CudaTuneSource {
  std::string name, source;
  std::string info;            ///< its launch shape (write_cuda_launch_info); empty: read from the source
  std::vector<uint8_t> cubin;  ///< empty: compiled by prepare()
  std::string log;             ///< the cubin's NVRTC log (ptxas -v lines: spills)
};

/// The device binding: NVRTC for the device's architecture (a candidate with spills is rejected),
/// launches through launch_cuda_kernel on `check` and `timing` requests (whose tensors the caller
/// keeps alive), `timing.timed_repeats` launches timed.
class CudaDeviceTuner : public CudaTuneBackend {
 public:
  CudaDeviceTuner(CudaDevice& device, std::vector<CudaTuneSource> candidates, CudaLaunchRequest check,
                  CudaLaunchRequest timing);
  size_t size() const override { return candidates_.size(); }
  std::string name(size_t i) const override { return candidates_[i].name; }
  std::string prepare(size_t i) override;
  std::vector<double> check_output(size_t i) override;
  double time_ms(size_t i) override;

 private:
  CudaDevice& device_;
  std::vector<CudaTuneSource> candidates_;
  std::vector<std::shared_ptr<CudaModule>> modules_;
  std::vector<CudaLaunchInfo> infos_;
  CudaLaunchRequest check_, timing_;
};

}  // namespace attn
