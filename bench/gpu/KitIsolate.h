// Runs the kit's kernels in a worker process, so that one kernel (a fault, the out-of-memory killer,
// a hang) never takes the others' results down.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace attn::kit {

/// Calls work(i) for i in [0, n) in a forked worker (forked before the caller touches CUDA; the
/// worker opens the device itself), each with `seconds_per_item` on an alarm. When the worker dies
/// (signal, exit or the alarm) while on item i, prints "FAIL <name(i)>: ..." on stdout, counts
/// one failure and forks a new worker from i + 1. The worker raises its own OOM score, so the
/// kernel that runs the machine out of memory is the one killed. Returns the sum of work()'s
/// results plus the deaths.
int run_isolated(size_t n, const std::function<int(size_t)>& work,
                 const std::function<std::string(size_t)>& name, unsigned seconds_per_item);

}  // namespace attn::kit
