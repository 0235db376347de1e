// The CUDA launcher: device copies of every tensor (contiguous row-major), one parameter block.
#include "runtime/CudaLauncher.h"

#include "runtime/TilePlanText.h"
#include "runtime/TilePlanner.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

namespace attn {

namespace {

/// Row-major strides in elements of the first three dimensions of a 4-D tensor.
void strides3(const HostTensor& t, long long (&s)[3]) {
  s[2] = t.shape[3];
  s[1] = t.shape[2] * s[2];
  s[0] = t.shape[1] * s[1];
}

}  // namespace

CudaTileRuns cuda_tile_runs(const TileGrid& grid) {
  CudaTileRuns out;
  out.rows.assign(grid.row_begin.begin(), grid.row_begin.end());
  for (const TileRun& run : grid.runs)
    out.runs.insert(out.runs.end(), {static_cast<int>(run.begin), static_cast<int>(run.end),
                                     run.kind == TileKind::Full ? 2 : 1});
  if (out.runs.empty()) out.runs.assign(3, 0);
  return out;
}

bool plan_tile_runs(const CudaLaunchInfo& info, int64_t q_len, int64_t kv_len,
                    const std::vector<double>& scalars, const std::vector<CudaTensorArg>& buffers,
                    std::vector<int>& rows, std::vector<int>& runs) {
  if (info.tile_plan.empty() || q_len <= 0 || kv_len <= 0) return false;
  TilePlanProgram program = read_tile_plan_program(info.tile_plan);
  if (program.block_q != info.block_m || program.block_kv != info.block_n) return false;
  TilePlanInputs in;
  in.q_len = q_len;
  in.kv_len = kv_len;
  for (size_t i = 0; i < info.scalar_names.size() && i < scalars.size(); ++i)
    in.scalars[info.scalar_names[i]] = scalars[i];
  for (const CudaTensorArg& b : buffers) in.buffers[b.name] = tile_buffer_view(*b.tensor);
  CudaTileRuns plan = cuda_tile_runs(plan_tile_grid(program, in));
  rows = std::move(plan.rows);
  runs = std::move(plan.runs);
  return true;
}

bool upload_tile_plan(CudaDevice& device, const CudaLaunchInfo& info, int64_t q_len, int64_t kv_len,
                      const std::vector<double>& scalars, const std::vector<CudaTensorArg>& buffers,
                      CudaBuffer& rows_memory, CudaBuffer& runs_memory) {
  std::vector<int> rows, runs;
  if (!plan_tile_runs(info, q_len, kv_len, scalars, buffers, rows, runs)) return false;
  rows_memory = device.alloc(rows.size() * sizeof(int));
  device.upload(rows_memory, rows.data(), rows.size() * sizeof(int));
  runs_memory = device.alloc(runs.size() * sizeof(int));
  device.upload(runs_memory, runs.data(), runs.size() * sizeof(int));
  return true;
}

CudaPreparedLaunch prepare_cuda_launch(CudaDevice& device, const CudaLaunchInfo& info,
                                       const CudaLaunchRequest& r) {
  if (r.buffers.size() > ATTN_CUDA_MAX_BUFFERS || r.scalars.size() > ATTN_CUDA_MAX_SCALARS)
    throw CudaError("too many kernel arguments for the CUDA parameter block");
  for (const HostTensor* t : {r.q, r.k, r.v}) {
    if (!t || t->shape.size() != 4) throw CudaError("q, k and v must be 4-D tensors");
    if (t->type != info.dtype)
      throw CudaError(std::string("q, k and v must be ") + scalar_type_name(info.dtype));
  }
  if (r.q->shape[3] != info.head_dim || r.v->shape[3] != info.value_dim)
    throw CudaError("the kernel was compiled for head_dim " + std::to_string(info.head_dim) +
                    " and value_dim " + std::to_string(info.value_dim) + ", got " + r.q->shape_string() +
                    " and " + r.v->shape_string());
  const int64_t B = r.q->shape[0], Hq = r.q->shape[1], Lq = r.q->shape[2], Dv = r.v->shape[3];
  if (B > 65535 || Hq > 65535) throw CudaError("batch and head counts must be at most 65535 on CUDA");
  if (Lq > INT32_MAX || r.k->shape[2] > INT32_MAX) throw CudaError("sequence lengths must fit in 32 bits");

  CudaPreparedLaunch L;
  auto upload = [&](const HostTensor& t) -> const CudaBuffer& {
    L.memory.push_back(device.alloc(t.bytes.size()));
    device.upload(L.memory.back(), t.bytes.data(), t.bytes.size());
    return L.memory.back();
  };
  auto ptr = [](const CudaBuffer& b) { return reinterpret_cast<void*>(b.ptr()); };
  attn_cuda_params& p = L.params;
  std::memset(&p, 0, sizeof p);
  p.q = ptr(upload(*r.q));
  p.k = ptr(upload(*r.k));
  p.v = ptr(upload(*r.v));
  L.out = HostTensor(cuda_out_type(info.dtype), {B, Hq, Lq, Dv});
  L.memory.push_back(device.alloc(L.out.bytes.size()));
  L.out_memory = &L.memory.back();
  p.out = ptr(*L.out_memory);
  // Per-row results, [B, Hq, Lq] f32: the LSE and the row maxima where asked for.
  auto row_result = [&](bool wanted, HostTensor& host, const CudaBuffer*& memory, long long(&stride)[3]) {
    if (!wanted) return static_cast<float*>(nullptr);
    host = HostTensor(ScalarType::F32, {B, Hq, Lq});
    L.memory.push_back(device.alloc(host.bytes.size()));
    memory = &L.memory.back();
    stride[2] = 1, stride[1] = Lq, stride[0] = Hq * Lq;
    return static_cast<float*>(ptr(*memory));
  };
  p.lse = row_result(r.lse, L.lse, L.lse_memory, p.lse_stride);
  p.max = row_result(r.max, L.max, L.max_memory, p.max_stride);
  L.memory.push_back(device.alloc(sizeof(attn_cuda_error)));
  L.error_memory = &L.memory.back();
  device.zero(*L.error_memory);
  p.error = static_cast<attn_cuda_error*>(ptr(*L.error_memory));
  strides3(*r.q, p.q_stride);
  strides3(*r.k, p.k_stride);
  strides3(*r.v, p.v_stride);
  strides3(L.out, p.out_stride);
  p.batch = static_cast<int>(B);
  p.q_heads = static_cast<int>(Hq);
  p.kv_heads = static_cast<int>(r.k->shape[1]);
  p.q_len = static_cast<int>(Lq);
  p.kv_len = static_cast<int>(r.k->shape[2]);
  p.scale = static_cast<float>(r.scale);
  p.scale_log2 = static_cast<float>(r.scale / std::log(2.0));
  // One factor, or one per (batch index b, key/value head): rows for every b the launch's mask sees
  // (B of them, or more when the caller sets batch_base).
  for (int t = 0; t < 3; ++t)
    if (const HostTensor* f = r.descale[t]) {
      const bool per_head = f->shape.size() == 2 && f->shape[0] >= B && f->shape[1] == p.kv_heads;
      if (f->type != ScalarType::F32 || !(f->shape == std::vector<int64_t>{1} || per_head))
        throw CudaError("descale factors must be f32 [1] or [B, Hkv]");
      p.descale[t] = static_cast<const float*>(ptr(upload(*f)));
      if (per_head) p.descale_stride[t][0] = p.kv_heads, p.descale_stride[t][1] = 1;
    }
  for (size_t i = 0; i < r.buffers.size(); ++i) {
    const HostTensor& t = *r.buffers[i].tensor;
    if (t.shape.size() > ATTN_CUDA_MAX_RANK)
      throw CudaError("tensor argument '" + r.buffers[i].name + "' has too many dimensions");
    attn_cuda_buffer& b = p.buffers[i];
    b.data = ptr(upload(t));
    b.rank = static_cast<int>(t.shape.size());
    long long stride = 1;
    for (int d = b.rank - 1; d >= 0; --d) {
      b.shape[d] = t.shape[static_cast<size_t>(d)];
      b.stride[d] = stride;
      stride *= b.shape[d];
    }
  }
  for (size_t i = 0; i < r.scalars.size(); ++i) p.scalars[i] = r.scalars[i];
  L.memory.push_back(CudaBuffer());
  L.memory.push_back(CudaBuffer());
  if (upload_tile_plan(device, info, Lq, r.k->shape[2], r.scalars, r.buffers, L.memory[L.memory.size() - 2],
                       L.memory.back())) {
    p.tile_rows = static_cast<const int*>(ptr(L.memory[L.memory.size() - 2]));
    p.tile_runs = static_cast<const int*>(ptr(L.memory.back()));
  }
  const CudaGrid g =
      plan_cuda_grid(info, device.sm_count(), B, Hq, r.k->shape[1], Lq, r.k->shape[2], r.kv_splits);
  L.split.attach(device, p, g, Dv);
  std::copy(g.grid, g.grid + 3, L.grid);
  return L;
}

CudaLaunchResult launch_prepared(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                                 CudaPreparedLaunch& L, const CudaLaunchRequest& r) {
  const attn_cuda_params& p = L.params;
  CudaLaunchResult result;
  auto launch = [&] {
    device.launch(module, info.entry, L.grid, static_cast<unsigned>(info.threads),
                  static_cast<unsigned>(info.smem_bytes), &p, sizeof p);
  };
  if (p.q_len > 0) {
    launch();
    device.synchronize();
    for (int i = 0; i < r.timed_repeats; ++i) result.times_ms.push_back(device.time_ms(launch));
  }

  attn_cuda_error err;
  device.download(&err, *L.error_memory, sizeof err);
  if (err.flag) {
    std::string name = err.buffer >= 0 && static_cast<size_t>(err.buffer) < r.buffers.size()
                           ? r.buffers[err.buffer].name
                           : "?";
    long long extent = 0;
    if (err.buffer >= 0 && static_cast<size_t>(err.buffer) < r.buffers.size() && err.dim >= 0 &&
        static_cast<size_t>(err.dim) < r.buffers[err.buffer].tensor->shape.size())
      extent = r.buffers[err.buffer].tensor->shape[err.dim];
    throw CudaError("buffer '" + name + "' index " + std::to_string(err.index) + " is out of range [0, " +
                    std::to_string(extent) + ") in dimension " + std::to_string(err.dim));
  }
  result.out = std::move(L.out);
  device.download(result.out.bytes.data(), *L.out_memory, result.out.bytes.size());
  for (auto [from, to, memory] :
       {std::tuple{&L.lse, &result.lse, L.lse_memory}, std::tuple{&L.max, &result.max, L.max_memory}})
    if (memory) {
      *to = std::move(*from);
      device.download(to->bytes.data(), *memory, to->bytes.size());
    }
  return result;
}

CudaLaunchResult launch_cuda_kernel(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                                    const CudaLaunchRequest& r) {
  CudaPreparedLaunch L = prepare_cuda_launch(device, info, r);
  return launch_prepared(device, module, info, L, r);
}

}  // namespace attn
