// run_cpu_kernel: HostTensors in, the compiled kernel through the attn_kernel_args ABI, HostTensors out.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "backends/cpu/CpuBackend.h"
#include "runtime/KernelCallArgs.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"

namespace attn {

namespace {

/// One compiled kernel per distinct kernel in this process: generating the source (Halide) takes
/// ~1 s, so it is done once per structural hash, not once per call (and once per user's disk cache
/// while this build of attnc lasts: host_kernel_request).
std::shared_ptr<CpuKernel> compiled(const KernelIR& ir) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<CpuKernel>> kernels;
  const std::string key = kernel_hash(ir);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = kernels.find(key); it != kernels.end()) return it->second;
  }
  auto kernel = compile_host_kernel(ir);  // the loader compiles each distinct source once
  std::lock_guard<std::mutex> lock(mutex);
  return kernels.emplace(key, kernel).first->second;
}

/// The plan program of `ir` in the host kernel's tiles, made once per kernel (plan_tiles runs
/// Halide's interval analysis).
std::shared_ptr<const TilePlan> plan_for(const KernelIR& ir, CpuTiles tiles) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const TilePlan>> plans;
  const std::string key = kernel_hash(ir) + "/" + std::to_string(tiles.tile_q) + "x" + std::to_string(tiles.key_block);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = plans.find(key); it != plans.end()) return it->second;
  }
  auto plan = plan_tiles(ir, PlanTilesOptions{tiles.tile_q, tiles.key_block});
  std::lock_guard<std::mutex> lock(mutex);
  return plans.emplace(key, plan).first->second;
}

}  // namespace

CpuKeyRanges cpu_key_ranges(const KernelIR& ir, const TilePlanInputs& inputs) {
  CpuTiles tiles = cpu_kernel_tiles(host_cpu_target());
  auto plan = plan_for(ir, tiles);
  const TilePlanProgram& program = tile_plan_program(*plan);
  CpuKeyRanges out;
  if (program.index_only) return out;
  attn_tile_eval::KeyRanges keys = attn_tile_eval::key_ranges(plan_tile_grid(program, inputs));
  out.block_q = keys.block_q;
  out.ranges = std::move(keys.ranges);
  out.run_starts = std::move(keys.run_starts);
  out.runs = std::move(keys.runs);
  return out;
}

void set_key_ranges(attn_kernel_args& args, const CpuKeyRanges& ranges) {
  const bool runs = !ranges.ranges.empty() && !ranges.run_starts.empty();
  args.kv_ranges = ranges.ranges.empty() ? nullptr : ranges.ranges.data();
  args.kv_ranges_block_q = ranges.block_q;
  args.kv_run_starts = runs ? ranges.run_starts.data() : nullptr;
  args.kv_runs = runs ? ranges.runs.data() : nullptr;
}

CpuKeyRanges cpu_key_ranges(const KernelIR& ir, const KernelInputs& in) {
  try {
    TilePlanInputs plan_inputs;
    plan_inputs.q_len = in.q.shape[2], plan_inputs.kv_len = in.k.shape[2];
    plan_inputs.scalars = in.scalars;
    for (const auto& [name, tensor] : in.buffers) plan_inputs.buffers[name] = tile_buffer_view(tensor);
    return cpu_key_ranges(ir, plan_inputs);
  } catch (const std::logic_error&) {  // invalid_argument, out_of_range
    return {};
  }
}

KernelOutputs run_cpu_kernel(const KernelIR& ir, const KernelInputs& in, int threads) {
  KernelOutputs out = make_outputs(ir, in);
  KernelCallArgs call(call_tensors(ir, in, out));
  // Buffer masks: the run-time plan's key ranges per query tile (the kernel skips the rest). A
  // ragged batch's sequences each take the kernel's own plan.
  CpuKeyRanges ranges = in.ragged() ? CpuKeyRanges{} : cpu_key_ranges(ir, in);
  call.args().num_threads = threads;
  set_key_ranges(call.args(), ranges);
  const HeadDims dims = input_head_dims(in);
  if (compiled(with_call_head_dims(ir, dims.head_dim, dims.value_dim))->run(call.args()) != 0)
    throw InputError(call.error()[0] ? call.error() : "the CPU kernel failed");
  return out;
}

}  // namespace attn
