// attn::Kernel: a loaded kernel's call operator, which records each launch with its shapes.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "attn/loader.hpp"

namespace attn {

Kernel::Kernel(std::shared_ptr<const KernelModule> module, std::string key,
               std::shared_ptr<FlightRecorder> recorder)
    : module_(std::move(module)), key_(std::move(key)), recorder_(std::move(recorder)) {}

int Kernel::operator()(const attn_kernel_args& args) const {
  if (!module_) {
    if (args.error && args.error_size > 0) std::snprintf(args.error, args.error_size, "empty attn::Kernel");
    return -1;
  }
  TraceEvent e;
  e.kind = TraceEventKind::Launch;
  std::memcpy(e.key, key_.data(), std::min<size_t>(key_.size(), 16));
  const DLTensor* tensors[3] = {args.q, args.k, args.v};
  for (int t = 0; t < 3; ++t)
    if (tensors[t])
      for (int d = 0; d < std::min(tensors[t]->ndim, 4); ++d) e.shape[t][d] = tensors[t]->shape[d];
  e.time_ns = recorder_->now_ns();
  e.status = module_->invoke(&args);
  e.duration_ns = recorder_->now_ns() - e.time_ns;
  if (e.status != 0 && args.error && args.error_size > 0) {
    size_t n = strnlen(args.error, std::min(args.error_size, sizeof e.detail - 1));
    std::memcpy(e.detail, args.error, n);
  }
  recorder_->record(e);
  return e.status;
}

}  // namespace attn
