// check_backward: the generated backward's four launches beside the f64 reference's two.
#include "bench/gpu/KitBackward.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include "attn/cuda_backward_abi.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/TilePlanText.h"
#include "runtime/TilePlanner.h"

namespace attn::kit {

namespace {

/// Row-major strides of a [B, H, L, C] tensor: batch, head, row.
void strides4(long long (&s)[3], int64_t h, int64_t l, int64_t c) {
  s[2] = c;
  s[1] = l * c;
  s[0] = h * l * c;
}

double relative(const std::vector<double>& got, const std::vector<double>& want) {
  double worst = 0, scale = 1;
  for (double w : want) scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < want.size(); ++i)
    worst =
        std::max(worst, std::isnan(got[i]) || std::isnan(want[i]) ? INFINITY : std::abs(got[i] - want[i]));
  return worst / scale;
}

std::vector<double> widen(const HostTensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[static_cast<size_t>(i)] = t.get(i);
  return out;
}

}  // namespace

double GradientErrors::worst() const { return std::max({dq, dk, dv, dbuffers}); }

BackwardSource parse_backward_source(std::string text) {
  BackwardSource s;
  static_cast<CudaBackwardInfo&>(s) = parse_cuda_backward_info(text);
  const std::string begin = "/* attn-tile-plan:", end = "attn-tile-plan-end */";
  if (const size_t b = text.find(begin); b != std::string::npos) {
    const size_t from = text.find('\n', b) + 1, e = text.find(end, from);
    if (e != std::string::npos) s.tile_plan = text.substr(from, e - from);
  }
  s.text = std::move(text);
  return s;
}

ReferenceGradients reference_backward(CudaDevice& device, const CudaModule& module, const attn_cuda_params& p,
                                      const void* dout, const std::vector<double>& lse,
                                      const long long (&site_base)[ATTN_CUDA_MAX_SITES], long long grad_numel,
                                      int64_t d, int64_t dv) {
  std::vector<CudaBuffer> memory;
  memory.reserve(8);
  auto zeroed = [&](size_t bytes) {
    memory.push_back(device.alloc(std::max<size_t>(bytes, 8)));
    device.zero(memory.back());
    return reinterpret_cast<double*>(memory.back().ptr());
  };
  const int64_t rows = int64_t(p.batch) * p.q_heads * p.q_len,
                keys = int64_t(p.batch) * p.kv_heads * p.kv_len;
  struct {
    attn_cuda_params p;
    const void* dout;
    const double* lse;
    double *delta, *dq, *dk, *dv, *grad;
    long long site_base[ATTN_CUDA_MAX_SITES];
  } rp;
  std::memset(&rp, 0, sizeof rp);
  rp.p = p;
  rp.dout = dout;
  memory.push_back(device.alloc(std::max<size_t>(lse.size() * 8, 8)));
  device.upload(memory.back(), lse.data(), lse.size() * 8);
  rp.lse = reinterpret_cast<const double*>(memory.back().ptr());
  rp.delta = zeroed(size_t(rows) * 8);
  rp.dq = zeroed(size_t(rows * d) * 8);
  rp.dk = zeroed(size_t(keys * d) * 8), rp.dv = zeroed(size_t(keys * dv) * 8);
  if (grad_numel > 0) rp.grad = zeroed(size_t(grad_numel) * 8);
  std::copy(site_base, site_base + ATTN_CUDA_MAX_SITES, rp.site_base);
  device.launch(module, "attn_reference_bwd_rows", {unsigned((rows + 127) / 128), 1, 1}, 128, 0, &rp,
                sizeof rp);
  device.launch(module, "attn_reference_bwd_keys", {unsigned((keys + 127) / 128), 1, 1}, 128, 0, &rp,
                sizeof rp);
  device.synchronize();
  auto take = [&](const double* ptr, int64_t n) {
    std::vector<double> v(static_cast<size_t>(n));
    device.download(v.data(), CudaBuffer::borrow(reinterpret_cast<uint64_t>(ptr), v.size() * 8),
                    v.size() * 8);
    return v;
  };
  ReferenceGradients g;
  g.dq = take(rp.dq, rows * d), g.dk = take(rp.dk, keys * d), g.dv = take(rp.dv, keys * dv);
  if (grad_numel > 0) g.grad = take(rp.grad, grad_numel);
  return g;
}

GradientErrors check_backward(CudaDevice& device, const CudaModule& module, const BackwardSource& src,
                              const CudaPreparedLaunch& fwd, const std::vector<ArgSpec>& args,
                              const std::vector<HostTensor>& buffers, const std::vector<double>& ref_out,
                              const std::vector<double>& ref_lse, std::mt19937& rng) {
  GradientErrors result;
  std::vector<CudaBuffer> memory;
  memory.reserve(32);  // stable addresses
  auto upload = [&](const void* data, size_t bytes) {
    memory.push_back(device.alloc(std::max<size_t>(bytes, 4)));
    device.upload(memory.back(), data, bytes);
    return memory.back().ptr();
  };
  auto zeroed = [&](size_t bytes) {
    memory.push_back(device.alloc(std::max<size_t>(bytes, 4)));
    device.zero(memory.back());
    return memory.back().ptr();
  };
  attn_cuda_bwd_params bp;
  std::memset(&bp, 0, sizeof bp);
  attn_cuda_params& p = bp.fwd;
  p = fwd.params;
  const int64_t B = p.batch, Hq = p.q_heads, Hkv = p.kv_heads, Lq = p.q_len, Lkv = p.kv_len;
  const int64_t D = src.head_dim, Dv = src.value_dim;
  p.tile_rows = p.tile_runs = nullptr;  // the forward's tiles; the backward's plan is below
  p.kv_splits = 0, p.partial = nullptr, p.split_done = nullptr;
  p.pack_heads = 0;  // the forward's decoding layout; the backward has one query head per row
  // The f64 forward's out (in the kernel's dtype) and lse (f32), as the forward would leave them.
  HostTensor out(src.dtype, {B, Hq, Lq, Dv}), lse(ScalarType::F32, {B, Hq, Lq});
  for (int64_t i = 0; i < out.numel(); ++i) out.set(i, ref_out[static_cast<size_t>(i)]);
  for (int64_t i = 0; i < lse.numel(); ++i) lse.set(i, ref_lse[static_cast<size_t>(i)]);
  p.out = reinterpret_cast<void*>(upload(out.bytes.data(), out.bytes.size()));
  p.lse = reinterpret_cast<float*>(upload(lse.bytes.data(), lse.bytes.size()));
  strides4(p.out_stride, Hq, Lq, Dv);
  p.lse_stride[2] = 1, p.lse_stride[1] = Lq, p.lse_stride[0] = Hq * Lq;
  std::vector<std::string> names;
  for (const ArgSpec& a : args)
    if (a.buffer) names.push_back(a.name);
  std::shared_ptr<CudaDevice> unowned(&device, [](CudaDevice*) {});
  std::shared_ptr<CudaErrorWord> word = CudaErrorWord::make(unowned, names);
  std::vector<std::vector<long long>> extents;
  for (const HostTensor& t : buffers) extents.emplace_back(t.shape.begin(), t.shape.end());
  word->note_extents(std::move(extents));
  p.error = word->device_ptr();

  // The backward's run-time tile plan, both ways (masks that read buffers).
  if (!src.tile_plan.empty()) {
    TilePlanInputs in;
    in.q_len = Lq, in.kv_len = Lkv;
    size_t b = 0;
    for (const ArgSpec& a : args) {
      if (a.buffer)
        in.buffers[a.name] = tile_buffer_view(buffers[b++]);
      else
        in.scalars[a.name] = 16;
    }
    const TileGrid grid = plan_tile_grid(read_tile_plan_program(src.tile_plan), in);
    const CudaTileRuns rows = cuda_tile_runs(grid), cols = cuda_tile_runs(transpose_tile_grid(grid));
    auto ints = [&](const std::vector<int>& v) {
      return reinterpret_cast<const int*>(upload(v.data(), v.size() * sizeof(int)));
    };
    p.tile_rows = ints(rows.rows), p.tile_runs = ints(rows.runs);
    bp.tile_cols = ints(cols.rows), bp.tile_col_runs = ints(cols.runs);
  }

  HostTensor dout = random_tensor(src.dtype, {B, Hq, Lq, Dv}, rng);
  bp.dout = reinterpret_cast<const void*>(upload(dout.bytes.data(), dout.bytes.size()));
  strides4(bp.dout_stride, Hq, Lq, Dv);
  const size_t elem = 2;
  bp.dq = reinterpret_cast<void*>(zeroed(size_t(B * Hq * Lq * D) * elem));
  bp.dk = reinterpret_cast<void*>(zeroed(size_t(B * Hkv * Lkv * D) * elem));
  bp.dv = reinterpret_cast<void*>(zeroed(size_t(B * Hkv * Lkv * Dv) * elem));
  strides4(bp.dq_stride, Hq, Lq, D), strides4(bp.dk_stride, Hkv, Lkv, D),
      strides4(bp.dv_stride, Hkv, Lkv, Dv);
  bp.delta = reinterpret_cast<float*>(zeroed(size_t(B * Hq * Lq) * 4));
  // Every f32 buffer a read site reads, end to end.
  std::map<std::string, long long> base;
  {
    size_t b = 0;
    for (const ArgSpec& a : args) {
      if (!a.buffer) continue;
      const HostTensor& t = buffers[b++];
      if (a.elem == "f32" &&
          std::find(src.site_buffers.begin(), src.site_buffers.end(), a.name) != src.site_buffers.end()) {
        base[a.name] = bp.grad_numel;
        bp.grad_numel += t.numel();
      }
    }
  }
  for (size_t s = 0; s < ATTN_CUDA_MAX_SITES; ++s)
    bp.site_base[s] =
        s < src.site_buffers.size() && base.count(src.site_buffers[s]) ? base[src.site_buffers[s]] : -1;
  const unsigned q_tiles = static_cast<unsigned>((Lq + src.block_m - 1) / src.block_m);
  if (bp.grad_numel > 0) {
    bp.grad_slots = static_cast<int>(B * Hq * q_tiles * (src.block_m / 16));
    bp.grad_partial = reinterpret_cast<float*>(zeroed(size_t(bp.grad_slots) * size_t(bp.grad_numel) * 4));
    bp.grad_out = reinterpret_cast<float*>(zeroed(size_t(bp.grad_numel) * 4));
    result.buffers = true;
  }
  const unsigned b3 = static_cast<unsigned>(B), hq = static_cast<unsigned>(Hq),
                 hkv = static_cast<unsigned>(Hkv);
  device.launch(module, src.pre, {static_cast<unsigned>((Lq + 3) / 4), hq, b3}, 128, 0, &bp, sizeof bp);
  device.launch(module, src.dkdv, {static_cast<unsigned>((Lkv + src.block_n - 1) / src.block_n), hkv, b3},
                static_cast<unsigned>(src.threads), static_cast<unsigned>(src.dkdv_smem), &bp, sizeof bp);
  device.launch(module, src.dq, {q_tiles, hq, b3}, static_cast<unsigned>(src.threads),
                static_cast<unsigned>(src.dq_smem), &bp, sizeof bp);
  if (bp.grad_numel > 0)
    device.launch(module, src.grad, {static_cast<unsigned>((bp.grad_numel + 255) / 256), 1, 1}, 256, 0, &bp,
                  sizeof bp);
  device.synchronize();
  if (std::string e = word->take(); !e.empty()) {
    result.error = e;
    return result;
  }

  // The f64 reference on the same inputs and dOut.
  attn_cuda_params inputs = p;
  inputs.error = nullptr;  // the inputs are in range: the kernel's run above reported nothing
  const ReferenceGradients want =
      reference_backward(device, module, inputs, bp.dout, ref_lse, bp.site_base, bp.grad_numel, D, Dv);
  auto got = [&](const void* ptr, std::vector<int64_t> shape) {
    HostTensor t(src.dtype, std::move(shape));
    device.download(t.bytes.data(), CudaBuffer::borrow(reinterpret_cast<uint64_t>(ptr), t.bytes.size()),
                    t.bytes.size());
    return widen(t);
  };
  result.dq = relative(got(bp.dq, {B, Hq, Lq, D}), want.dq);
  result.dk = relative(got(bp.dk, {B, Hkv, Lkv, D}), want.dk);
  result.dv = relative(got(bp.dv, {B, Hkv, Lkv, Dv}), want.dv);
  if (bp.grad_numel > 0) {
    std::vector<float> g(static_cast<size_t>(bp.grad_numel));
    device.download(g.data(), CudaBuffer::borrow(reinterpret_cast<uint64_t>(bp.grad_out), g.size() * 4),
                    g.size() * 4);
    result.dbuffers = relative(std::vector<double>(g.begin(), g.end()), want.grad);
  }
  return result;
}

}  // namespace attn::kit
