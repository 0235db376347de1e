// A call's launches planned on the host, placed in device memory, launched (runtime/CudaLaunchPlan.h).
#include "runtime/CudaLaunchPlan.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

/// `n` rounded up to 256 bytes: each launch's share of the workspace starts aligned.
size_t aligned(size_t n) { return (n + 255) / 256 * 256; }

/// The parameter block of `launch` before the plan's memory is attached: the sequence's view of
/// the packed call (cuda_sequence_params, its table row at `table`), or the dense call itself.
attn_cuda_params launch_view(const CudaLaunchInfo& info, const attn_cuda_params& packed,
                             const CudaLaunchPlan& plan, const CudaPlannedLaunch& launch, uint64_t table) {
  if (launch.sequence < 0) return packed;
  attn_cuda_params p = packed;
  p.page_table = plan.table.empty() ? nullptr : reinterpret_cast<const int*>(table);
  return cuda_sequence_params(p, launch.rows, launch.sequence, scalar_type_size(info.dtype),
                              scalar_type_size(cuda_out_type(info.dtype)), plan.table_stride);
}

/// The one grid of `plan`'s launches for the call `packed` of `info`'s kernel: each launch's
/// changes to the call's block (what launch_view and planned_params change, relative to the call's
/// tensors and the plan's data), and one work item per CTA, longest first: CTAs with more key
/// tiles each (a long sequence's, fewer split shares) start before short ones, and within a
/// launch the last query tiles first (under a causal mask they visit the most keys), so that the
/// grid's tail is short CTAs.
void one_grid_launches(const CudaLaunchInfo& info, const attn_cuda_params& packed, CudaLaunchPlan& plan) {
  std::vector<int64_t> weight;  // key tiles per CTA of each launch
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const CudaPlannedLaunch& l = plan.launches[i];
    attn_cuda_launch d{};
    d.sequence = l.sequence;
    if (l.sequence >= 0) {
      d.q_row = l.rows.q_row - l.rows.q_first;  // rows are positions (paged: q_first before the first query)
      d.k_row = plan.table.empty() && l.rows.k_len > 0 ? l.rows.k_row : 0;
      d.q_len = static_cast<int>(l.rows.q_first + l.rows.q_len);
      d.kv_len = static_cast<int>(l.rows.k_len);
      d.q_first = static_cast<int>(l.rows.q_first);
      d.table_row = static_cast<int>(l.sequence * plan.table_stride);
    }
    d.q_tile0 = l.q_tile0;
    d.pack_heads = l.grid.pack_heads ? 1 : 0;
    d.kv_splits = l.grid.kv_splits;
    d.partial_at = static_cast<long long>(l.partial_at / sizeof(float));
    d.done_at = static_cast<long long>(l.done_at / sizeof(int));
    d.tile_rows_at = static_cast<int>(l.tile_rows), d.tile_runs_at = static_cast<int>(l.tile_runs);
    d.grid_x = static_cast<int>(l.grid.grid[0]), d.grid_y = static_cast<int>(l.grid.grid[1]);
    plan.one_grid.push_back(d);
    const int64_t keys = l.sequence >= 0 ? l.rows.k_len : packed.kv_len, block = std::max(info.block_n, 1);
    weight.push_back((keys + block - 1) / block / std::max(l.grid.kv_splits, 1));
    for (unsigned z = 0; z < l.grid.grid[2]; ++z)
      for (unsigned y = 0; y < l.grid.grid[1]; ++y)
        for (unsigned x = 0; x < l.grid.grid[0]; ++x)
          plan.work.insert(plan.work.end(), {static_cast<int>(i), static_cast<int>(x), static_cast<int>(y),
                                             static_cast<int>(z)});
  }
  const size_t items = plan.work.size() / 4;
  std::vector<size_t> order(items);
  for (size_t i = 0; i < items; ++i) order[i] = i;
  const std::vector<int>& w = plan.work;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const int64_t wa = weight[size_t(w[4 * a])], wb = weight[size_t(w[4 * b])];
    return wa != wb ? wa > wb : w[4 * a + 1] > w[4 * b + 1];
  });
  std::vector<int> sorted;
  sorted.reserve(w.size());
  for (size_t i : order) sorted.insert(sorted.end(), w.begin() + long(4 * i), w.begin() + long(4 * i + 4));
  plan.work = std::move(sorted);
}

}  // namespace

CudaLaunchPlan plan_cuda_launches(const CudaLaunchInfo& info, int sm_count, const attn_cuda_params& packed,
                                  const std::vector<CudaSequence>& sequences, std::vector<int32_t> table,
                                  int64_t table_stride, const std::vector<double>& scalars,
                                  const std::vector<CudaTensorArg>& buffers) {
  CudaLaunchPlan plan;
  plan.table = std::move(table);
  plan.table_stride = table_stride;
  const bool paged = packed.page_size > 0;
  plan.shape = {
      packed.batch,     packed.q_heads,        packed.kv_heads,      packed.q_len, paged ? 0 : packed.kv_len,
      packed.page_size, packed.lse != nullptr, packed.max != nullptr};
  std::vector<CudaPlannedLaunch> wanted;
  if (sequences.empty()) {
    if (packed.q_len > 0) wanted.push_back({});
  } else {
    for (size_t s = 0; s < sequences.size(); ++s)
      if (sequences[s].q_len > 0) {  // a sequence without queries writes nothing
        CudaPlannedLaunch l;
        l.sequence = static_cast<int>(s);
        l.rows = sequences[s];
        wanted.push_back(l);
      }
  }
  // One grid: its launches' CTAs fill the GPU together, so their split-KV shares count them all
  // (a decoding row among many sequences is not split as if it were alone).
  int64_t grid_ctas = 0;
  if (info.one_grid)
    for (const CudaPlannedLaunch& l : wanted) {
      attn_cuda_params one = launch_view(info, packed, plan, l, 0);
      grid_ctas += plan_launch_grid(info, sm_count, one, std::numeric_limits<int32_t>::max()).tiles;
    }
  for (CudaPlannedLaunch& l : wanted) {
    attn_cuda_params one = launch_view(info, packed, plan, l, 0);
    l.grid = plan_launch_grid(info, sm_count, one, grid_ctas);
    l.q_tile0 = one.q_tile0;
    if (l.grid.kv_splits > 1) {
      l.partial_at = plan.partial_bytes;
      plan.partial_bytes += aligned(cuda_split_partial_bytes(one, l.grid, info.value_dim));
      l.done_at = plan.done_bytes;
      plan.done_bytes += aligned(cuda_split_done_bytes(l.grid));
    }
    std::vector<int> rows, runs;
    if (!info.tile_plan.empty() &&
        plan_tile_runs(info, one.q_len, one.kv_len, scalars, buffers, rows, runs)) {
      l.tile_rows = static_cast<int64_t>(plan.tile_ints.size());
      plan.tile_ints.insert(plan.tile_ints.end(), rows.begin(), rows.end());
      l.tile_runs = static_cast<int64_t>(plan.tile_ints.size());
      plan.tile_ints.insert(plan.tile_ints.end(), runs.begin(), runs.end());
    }
    plan.launches.push_back(l);
  }
  if (info.one_grid) one_grid_launches(info, packed, plan);
  return plan;
}

std::string check_planned_call(const CudaLaunchPlan& plan, const attn_cuda_params& packed) {
  const CudaPlanShape& s = plan.shape;
  const bool paged = s.page_size > 0;
  auto differs = [](const char* what, int64_t planned, int64_t given) {
    return std::string("the call's ") + what + " (" + std::to_string(given) + ") differs from the plan's (" +
           std::to_string(planned) + "); plan again for a new layout or shape";
  };
  if (packed.page_size != s.page_size) return differs("page size", s.page_size, packed.page_size);
  if (packed.batch != s.batch) return differs("batch", s.batch, packed.batch);
  if (packed.q_heads != s.q_heads) return differs("query heads", s.q_heads, packed.q_heads);
  if (packed.kv_heads != s.kv_heads) return differs("key/value heads", s.kv_heads, packed.kv_heads);
  if (packed.q_len != s.q_rows) return differs("query rows", s.q_rows, packed.q_len);
  if (!paged && packed.kv_len != s.kv_rows) return differs("key rows", s.kv_rows, packed.kv_len);
  if ((packed.lse != nullptr) != s.lse)
    return s.lse ? "the plan was made for a call with an lse; this call has none"
                 : "the plan was made for a call without an lse; this call has one";
  if ((packed.max != nullptr) != s.max)
    return s.max ? "the plan was made for a call with row maxima (max); this call has none"
                 : "the plan was made for a call without row maxima (max); this call has them";
  return {};
}

attn_cuda_params planned_params(const CudaLaunchInfo& info, const attn_cuda_params& packed,
                                const CudaLaunchPlan& plan, const CudaPlannedLaunch& launch,
                                const CudaPlanMemory& memory) {
  attn_cuda_params p = launch_view(info, packed, plan, launch, memory.table);
  p.q_tile0 = launch.q_tile0;
  p.pack_heads = launch.grid.pack_heads ? 1 : 0;
  const bool split = launch.grid.kv_splits > 1;
  p.kv_splits = split ? launch.grid.kv_splits : 0;
  p.partial = split ? reinterpret_cast<float*>(memory.partial + launch.partial_at) : nullptr;
  p.split_done = split ? reinterpret_cast<int*>(memory.done + launch.done_at) : nullptr;
  if (launch.tile_rows >= 0) {
    p.tile_rows =
        reinterpret_cast<const int*>(memory.tiles + static_cast<uint64_t>(launch.tile_rows) * sizeof(int));
    p.tile_runs =
        reinterpret_cast<const int*>(memory.tiles + static_cast<uint64_t>(launch.tile_runs) * sizeof(int));
  }
  return p;
}

attn_cuda_params one_grid_params(const attn_cuda_params& packed, const CudaPlanMemory& memory) {
  attn_cuda_params p = packed;
  if (packed.page_size > 0) p.page_table = reinterpret_cast<const int*>(memory.table);
  p.tile_rows = p.tile_runs = reinterpret_cast<const int*>(memory.tiles);
  p.partial = reinterpret_cast<float*>(memory.partial);
  p.split_done = reinterpret_cast<int*>(memory.done);
  p.launches = reinterpret_cast<const attn_cuda_launch*>(memory.launches);
  p.work = reinterpret_cast<const int*>(memory.work);
  return p;
}

void launch_cuda_plan(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                      const attn_cuda_params& packed, const CudaLaunchPlan& plan,
                      const CudaPlanMemory& memory, void* stream) {
  if (info.one_grid) {
    if (plan.work.empty()) return;  // no row has a query
    const attn_cuda_params p = one_grid_params(packed, memory);
    const unsigned grid[3] = {static_cast<unsigned>(plan.work.size() / 4), 1, 1};
    device.launch(module, info.entry, grid, static_cast<unsigned>(info.threads),
                  static_cast<unsigned>(info.smem_bytes), &p, sizeof p, stream);
    return;
  }
  for (const CudaPlannedLaunch& l : plan.launches) {
    const attn_cuda_params p = planned_params(info, packed, plan, l, memory);
    device.launch(module, info.entry, l.grid.grid, static_cast<unsigned>(info.threads),
                  static_cast<unsigned>(info.smem_bytes), &p, sizeof p, stream);
  }
}

CudaPlacedPlan::CudaPlacedPlan(CudaDevice& device, CudaLaunchPlan plan) : plan_(std::move(plan)) {
  const size_t table_bytes = plan_.table.size() * sizeof(int32_t),
               tile_bytes = plan_.tile_ints.size() * sizeof(int);
  if (table_bytes) {
    table_ = device.alloc(table_bytes);
    device.upload(table_, plan_.table.data(), table_bytes);
    memory_.table = table_.ptr();
  }
  if (tile_bytes) {
    tiles_ = device.alloc(tile_bytes);
    device.upload(tiles_, plan_.tile_ints.data(), tile_bytes);
    memory_.tiles = tiles_.ptr();
  }
  if (!plan_.work.empty()) {
    const size_t launch_bytes = plan_.one_grid.size() * sizeof(attn_cuda_launch),
                 work_bytes = plan_.work.size() * sizeof(int);
    one_grid_ = device.alloc(launch_bytes + work_bytes);
    device.upload(one_grid_, plan_.one_grid.data(), launch_bytes);
    memory_.launches = one_grid_.ptr();
    memory_.work = one_grid_.ptr() + launch_bytes;
    device.upload(CudaBuffer::borrow(memory_.work, work_bytes), plan_.work.data(), work_bytes);
  }
  if (plan_.done_bytes) {  // counters first, zeroed; the partial rows after them
    workspace_ = device.alloc(plan_.done_bytes + plan_.partial_bytes);
    device.zero(workspace_);
    memory_.done = workspace_.ptr();
    memory_.partial = workspace_.ptr() + plan_.done_bytes;
  }
}

CudaPlanMemory place_cuda_plan(CudaStreamScratch& scratch, const CudaLaunchPlan& plan) {
  CudaPlanMemory m;
  if (!plan.table.empty()) m.table = scratch.upload(plan.table.data(), plan.table.size() * sizeof(int32_t));
  if (!plan.tile_ints.empty())
    m.tiles = scratch.upload(plan.tile_ints.data(), plan.tile_ints.size() * sizeof(int));
  if (plan.done_bytes) {
    m.done = scratch.alloc(plan.done_bytes, true);
    m.partial = scratch.alloc(plan.partial_bytes);
  }
  if (!plan.work.empty()) {
    m.launches = scratch.upload(plan.one_grid.data(), plan.one_grid.size() * sizeof(attn_cuda_launch));
    m.work = scratch.upload(plan.work.data(), plan.work.size() * sizeof(int));
  }
  return m;
}

void launch_cuda_sequences(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                           const attn_cuda_params& p, const std::vector<CudaSequence>& sequences,
                           std::vector<int32_t> table, int64_t table_stride,
                           const std::vector<double>& scalars, const std::vector<CudaTensorArg>& buffers) {
  const CudaPlacedPlan placed(device, plan_cuda_launches(info, device.sm_count(), p, sequences,
                                                         std::move(table), table_stride, scalars, buffers));
  launch_cuda_plan(device, module, info, p, placed.plan(), placed.memory());
  device.synchronize();  // the plan's memory is freed when this returns
}

}  // namespace attn
