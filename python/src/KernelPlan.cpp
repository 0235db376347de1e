// A library kernel's tile plan for one call, counted (KernelPlan.h).
#include "python/src/KernelPlan.h"

#include <memory>
#include <mutex>
#include <stdexcept>

#include "backends/io/KernelIO.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "python/src/KernelLibrary.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/TilePlanner.h"

namespace attn::python {

namespace {

/// The plan program of `ir`, made once per kernel per process (plan_tiles runs Halide's interval
/// analysis), with every Partial run refined per tile: the closed-form ranges take a query tile's
/// rows as block_q of them, so the last tile of a short call (a context-parallel chunk of 10 rows)
/// stays Partial where the box test, which clamps the rows to q_len, proves it empty. A caller
/// that skips whole calls needs that proof.
std::shared_ptr<const TilePlanProgram> program_of(const KernelIR& ir) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const TilePlanProgram>> programs;
  const std::string key = kernel_hash(ir);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = programs.find(key); it != programs.end()) return it->second;
  }
  auto program = std::make_shared<TilePlanProgram>(tile_plan_program(*plan_tiles(ir)));
  program->ranges_exact = false;
  std::lock_guard<std::mutex> lock(mutex);
  return programs.emplace(key, program).first->second;
}

bool dense(const TensorView& t) {
  int64_t stride = 1;
  for (size_t d = t.shape.size(); d-- > 0; stride *= t.shape[d])
    if (t.shape[d] != 1 && t.strides[d] != stride) return false;
  return true;
}

}  // namespace

PlanCounts plan_counts(const LibraryKernel& kernel, int64_t q_len, int64_t kv_len,
                       const std::map<std::string, double>& scalars,
                       const std::map<std::string, TensorView>& buffers) {
  if (q_len <= 0 || kv_len <= 0)
    throw InputError("a tile plan needs positive lengths, got " + std::to_string(q_len) + " x " +
                     std::to_string(kv_len));
  auto refined = program_of(kernel.ir());
  const TilePlanProgram& program = *refined;
  TilePlanInputs inputs;
  inputs.q_len = q_len, inputs.kv_len = kv_len;
  for (const std::string& name : program.scalars) {
    auto it = scalars.find(name);
    if (it == scalars.end()) throw InputError("the tile plan needs scalar argument '" + name + "'");
    inputs.scalars[name] = it->second;
  }
  for (const std::string& name : program.buffers) {
    auto it = buffers.find(name);
    if (it == buffers.end()) throw InputError("the tile plan needs buffer '" + name + "'");
    const TensorView& t = it->second;
    if (t.device.device_type != kDLCPU || !dense(t))
      throw InputError("the tile plan reads buffer '" + name + "' in host memory, dense");
    try {
      inputs.buffers[name] = tile_buffer_view(dl_scalar_type(t.dtype), t.data, t.shape);
    } catch (const std::invalid_argument& e) {
      throw InputError("the tile plan cannot read buffer '" + name + "': " + e.what());
    }
  }
  TileGrid grid;
  try {
    grid = plan_tile_grid(program, inputs);
  } catch (const std::logic_error& e) {  // invalid_argument, out_of_range (a buffer index)
    throw InputError(std::string("the tile plan failed: ") + e.what());
  }
  PlanCounts counts;
  counts.tiles = grid.q_tiles * grid.kv_tiles;
  counts.full = grid.count(TileKind::Full);
  counts.partial = grid.count(TileKind::Partial);
  return counts;
}

}  // namespace attn::python
