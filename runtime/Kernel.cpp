// attn::Kernel: a loaded kernel's call operator, which records each launch with its shapes.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>

#include "attn/loader.hpp"

namespace attn {

Kernel::Kernel(std::shared_ptr<const KernelModule> module, std::string key,
               std::shared_ptr<FlightRecorder> recorder)
    : module_(std::move(module)), key_(std::move(key)), recorder_(std::move(recorder)) {}

namespace {

int empty_kernel(const attn_kernel_args& args) {
  if (args.error && args.error_size > 0) std::snprintf(args.error, args.error_size, "empty attn::Kernel");
  return -1;
}

}  // namespace

int Kernel::operator()(const attn_kernel_args& args) const {
  if (!module_) return empty_kernel(args);
  return record(args, [&] { return module_->invoke(&args); });
}

int Kernel::plan(const attn_kernel_args& args, std::shared_ptr<const void>& plan) const {
  plan = nullptr;
  if (!module_) return empty_kernel(args);
  return module_->plan_calls(&args, plan);
}

int Kernel::run_planned(const void* plan, const attn_kernel_args& args, void* stream) const {
  if (!module_) return empty_kernel(args);
  return record(args, [&] { return module_->invoke_planned(plan, &args, stream); });
}

int Kernel::record(const attn_kernel_args& args, const std::function<int()>& call) const {
  TraceEvent e;
  e.kind = TraceEventKind::Launch;
  std::memcpy(e.key, key_.data(), std::min<size_t>(key_.size(), 16));
  const DLTensor* tensors[3] = {args.q, args.k, args.v};
  for (int t = 0; t < 3; ++t)
    if (tensors[t])
      for (int d = 0; d < std::min(tensors[t]->ndim, 4); ++d) e.shape[t][d] = tensors[t]->shape[d];
  e.time_ns = recorder_->now_ns();
  e.status = call();
  e.duration_ns = recorder_->now_ns() - e.time_ns;
  if (e.status != 0 && args.error && args.error_size > 0) {
    size_t n = strnlen(args.error, std::min(args.error_size, sizeof e.detail - 1));
    std::memcpy(e.detail, args.error, n);
  }
  recorder_->record(e);
  return e.status;
}

}  // namespace attn
