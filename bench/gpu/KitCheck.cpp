// check_kernel: forward, backward, decode and out-of-range checks of one kit kernel.
#include "bench/gpu/KitCheck.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

#include "bench/gpu/KitBackward.h"
#include "bench/gpu/KitRaggedBackward.h"
#include "runtime/CudaLaunchPlan.h"
#include "runtime/CudaRagged.h"
#include "runtime/Nvrtc.h"

namespace attn::kit {

namespace {

double tolerance(ScalarType t) { return t == ScalarType::F32 ? 2e-3 : t == ScalarType::F16 ? 1e-2 : 3e-2; }

std::string gb(int64_t bytes) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(bytes) / double(1 << 30) << " GB";
  return s.str();
}

std::string shape_text(int64_t lq, int64_t lkv) {
  return "Lq=" + std::to_string(lq) + " Lkv=" + std::to_string(lkv);
}

/// max |got - want| over out (NaN: infinite), and over the LSE and the row maxima where the kernel
/// writes them (equal infinities: 0).
std::pair<double, double> forward_error(const Kit& k, const CudaLaunchResult& got, const Reference& want) {
  double worst = 0, worst_rows = 0;
  for (size_t i = 0; i < want.out.size(); ++i) {
    const double a = got.out.get(static_cast<int64_t>(i));
    worst = std::max(worst, std::isnan(a) ? INFINITY : std::abs(a - want.out[i]));
  }
  for (auto [wanted, rows, reference] :
       {std::tuple{k.lse, &got.lse, &want.lse}, std::tuple{k.max, &got.max, &want.max}})
    if (wanted)
      for (size_t i = 0; i < reference->size(); ++i) {
        const double a = rows->get(static_cast<int64_t>(i)), b = (*reference)[i];
        worst_rows = std::max(worst_rows, (std::isinf(a) && std::isinf(b) && a == b) ? 0.0 : std::abs(a - b));
      }
  return {worst, worst_rows};
}

/// The parts of one kernel's result line.
struct Line {
  int failures = 0;
  std::vector<std::string> fails;  // what failed, in order
  std::string fwd, bwd, decode, oor;
  void fail(const std::string& what) {
    ++failures;
    if (fails.size() < 4) fails.push_back(what);
  }
};

struct Shape {
  int64_t b, hq, hkv, lq, lkv;
  int batch_base = 0;  ///< the mask's b of entry 0 (a ragged batch's sequence, launched on its own)
};

/// The host bytes of one launch: q, k, v, out and the reference's f64 rows, and the buffers.
int64_t host_bytes(const Kit& k, const Shape& s) {
  const int64_t e = k.info.dtype == ScalarType::F32 ? 4 : 2;
  const int64_t d = k.info.head_dim, dv = k.info.value_dim;
  return s.b * (s.hq * s.lq * (d + dv) * e + s.hkv * s.lkv * (d + dv) * e + s.hq * s.lq * (dv + 1) * 8) +
         buffer_bytes(k.args, s.hq, std::max(s.lq, s.lkv));
}

/// K and V of the decode shapes, made once per process per (dtype, D, Dv): 32k keys are slow to draw.
const std::pair<HostTensor, HostTensor>& decode_kv(const Kit& k, std::mt19937& rng) {
  static std::map<std::tuple<int, int, int>, std::pair<HostTensor, HostTensor>> cache;
  auto key = std::make_tuple(static_cast<int>(k.info.dtype), k.info.head_dim, k.info.value_dim);
  auto it = cache.find(key);
  if (it == cache.end()) {
    HostTensor kt = random_tensor(k.info.dtype, {1, 8, 32768, k.info.head_dim}, rng);
    HostTensor v = random_tensor(k.info.dtype, {1, 8, 32768, k.info.value_dim}, rng);
    it = cache.emplace(key, std::make_pair(std::move(kt), std::move(v))).first;
  }
  return it->second;
}

}  // namespace

HostTensor sequence_rows(const HostTensor& t, int64_t first, int64_t rows) {
  const int64_t heads = t.shape[1], cols = t.shape[2];
  HostTensor out(t.type, {1, heads, rows, cols});
  const size_t es = scalar_type_size(t.type), row = size_t(cols) * es;
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(out.bytes.data() + size_t(h * rows + r) * row,
                  t.bytes.data() + size_t((first + r) * heads + h) * row, row);
  return out;
}

/// The f64 reference forward of one launch (its own error word says whether it read out of range).
Reference run_reference(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                        const CudaPreparedLaunch& L) {
  const attn_cuda_params& p = L.params;
  const int64_t rows = int64_t(p.batch) * p.q_heads * p.q_len;
  CudaBuffer out =
      device.alloc(static_cast<size_t>(std::max<int64_t>(rows * info.value_dim, 1)) * sizeof(double));
  CudaBuffer lse = device.alloc(static_cast<size_t>(std::max<int64_t>(rows, 1)) * sizeof(double));
  CudaBuffer max = device.alloc(static_cast<size_t>(std::max<int64_t>(rows, 1)) * sizeof(double));
  struct {
    attn_cuda_params p;
    double *out, *lse, *max;
  } rp{p, reinterpret_cast<double*>(out.ptr()), reinterpret_cast<double*>(lse.ptr()),
       reinterpret_cast<double*>(max.ptr())};
  const unsigned grid[3] = {static_cast<unsigned>((rows * 32 + 127) / 128), 1, 1};  // a warp per row
  Reference r;
  r.out.resize(static_cast<size_t>(rows * info.value_dim));
  r.lse.resize(static_cast<size_t>(rows));
  r.max.resize(static_cast<size_t>(rows));
  if (rows == 0) return r;
  device.launch(module, "attn_reference_fwd", grid, 128, 0, &rp, sizeof rp);
  device.synchronize();
  attn_cuda_error err;
  device.download(&err, *L.error_memory, sizeof err);
  r.out_of_range = err.flag != 0;
  device.download(r.out.data(), out, r.out.size() * sizeof(double));
  device.download(r.lse.data(), lse, r.lse.size() * sizeof(double));
  device.download(r.max.data(), max, r.max.size() * sizeof(double));
  return r;
}

/// The kernel's info for the reference launches: no tile plan (the reference visits every key; a
/// plan would read the buffers on the host first).
CudaLaunchInfo without_plan(CudaLaunchInfo info) {
  info.tile_plan.clear();
  return info;
}

std::vector<uint8_t> reference_cubin(const Kit& k, const CheckOptions& o) {
  const std::filesystem::path kept =
      o.cubins.empty()
          ? std::filesystem::path()
          : o.cubins / (k.cu.parent_path().filename().string() + "__" + k.cu.stem().string() + ".cubin");
  if (!kept.empty() && std::filesystem::exists(kept)) {
    const std::string bytes = read_text(kept);
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
  }
  NvrtcOptions no;
  no.arch = o.arch;
  std::vector<uint8_t> cubin =
      nvrtc_compile(k.source + "\n" + o.reference, k.cu.filename().string(), no).cubin;
  if (!kept.empty()) {
    std::filesystem::create_directories(o.cubins);
    const std::filesystem::path part = kept.string() + ".part";  // whole files only: renamed when written
    std::ofstream(part, std::ios::binary)
        .write(reinterpret_cast<const char*>(cubin.data()), static_cast<std::streamsize>(cubin.size()));
    std::filesystem::rename(part, kept);
  }
  return cubin;
}

namespace {

/// The ragged check (page 0: 5 sequences with no queries, no keys, one row, more queries than
/// keys and the reverse) or the paged one (4 sequences in shuffled pages of `page` keys, their
/// queries each sequence's last 1, 3, 40 and 16 tokens): the
/// packed launch through launch_cuda_sequences (then its plan replayed from a CUDA graph) against
/// run_reference on dense copies of each sequence, with its index as `b` and (paged) its queries at their
/// positions. Returns the worst |error| of Out (-1 when it could not run; `line` says why).
double check_sequences(CudaDevice& device, const CudaModule& module, const CudaModule& kernel,
                       const CudaLaunchInfo& kernel_info, const Kit& k, const CudaLaunchInfo& ref_info,
                       int64_t page, std::mt19937& rng, Line& line) {
  const bool paged = page > 0;
  const std::string what = (paged ? "paged (pages of " + std::to_string(page) + ")" : std::string("ragged")) +
                           (kernel_info.one_grid ? " as one grid" : "");
  try {
    const std::vector<int64_t> q_lens =
        paged ? std::vector<int64_t>{1, 3, 40, 16} : std::vector<int64_t>{1, 0, 77, 200, 3};
    const std::vector<int64_t> k_lens =
        paged ? std::vector<int64_t>{70, 3, 300, 16} : std::vector<int64_t>{1, 5, 133, 64, 0};
    const int64_t hq = 4, hkv = 2, d = k.info.head_dim, dv = k.info.value_dim;
    std::vector<int64_t> cu_q = {0}, cu_k = {0};
    for (size_t i = 0; i < q_lens.size(); ++i)
      cu_q.push_back(cu_q.back() + q_lens[i]), cu_k.push_back(cu_k.back() + k_lens[i]);
    const int64_t tq = cu_q.back(), tk = cu_k.back();
    const HostTensor q = random_tensor(k.info.dtype, {tq, hq, d}, rng);
    // The keys packed [Tk, Hkv, C]; paged, sequence s's page j holds its keys page * j.. in the cache.
    const HostTensor kt = random_tensor(k.info.dtype, {tk, hkv, d}, rng);
    const HostTensor v = random_tensor(k.info.dtype, {tk, hkv, dv}, rng);
    const std::vector<HostTensor> buffers = make_buffers(k.args, hq, 300, rng);
    std::vector<CudaSequence> seqs;
    PagedLayout layout;
    HostTensor k_cache, v_cache;
    if (paged) {
      layout.page_size = page, layout.max_pages = 0;
      for (int64_t n : k_lens) layout.max_pages = std::max(layout.max_pages, (n + page - 1) / page);
      std::vector<int32_t> order;  // cache page of each (sequence, page), shuffled
      for (size_t s = 0; s < k_lens.size(); ++s)
        for (int64_t j = 0; j < (k_lens[s] + page - 1) / page; ++j) order.push_back(int32_t(order.size()));
      std::shuffle(order.begin(), order.end(), rng);
      layout.pages = int64_t(order.size());
      layout.table.assign(k_lens.size() * size_t(layout.max_pages), 0);
      k_cache = HostTensor(k.info.dtype, {layout.pages, page, hkv, d});
      v_cache = HostTensor(k.info.dtype, {layout.pages, page, hkv, dv});
      const size_t es = scalar_type_size(k.info.dtype);
      size_t next = 0;
      for (size_t s = 0; s < k_lens.size(); ++s) {
        layout.kv_lens.push_back(int32_t(k_lens[s]));
        for (int64_t j = 0; j < (k_lens[s] + page - 1) / page; ++j) {
          const int32_t pg = order[next++];
          layout.table[s * size_t(layout.max_pages) + size_t(j)] = pg;
          for (int64_t r = 0; r < page && j * page + r < k_lens[s]; ++r) {
            const int64_t from = cu_k[s] + j * page + r, to = pg * page + r;
            std::memcpy(k_cache.bytes.data() + size_t(to * hkv * d) * es,
                        kt.bytes.data() + size_t(from * hkv * d) * es, size_t(hkv * d) * es);
            std::memcpy(v_cache.bytes.data() + size_t(to * hkv * dv) * es,
                        v.bytes.data() + size_t(from * hkv * dv) * es, size_t(hkv * dv) * es);
          }
        }
      }
      if (std::string why = check_paged_layout(cu_q, layout, tq, seqs); !why.empty())
        throw std::logic_error(why);
    } else if (std::string why = check_ragged_layout(cu_q, cu_k, tq, tk, seqs); !why.empty()) {
      throw std::logic_error(why);
    }
    // The reference, per sequence on dense copies: rows [h][position] of Out (and the LSE).
    std::vector<Reference> want(seqs.size());
    const size_t es = scalar_type_size(k.info.dtype);
    for (size_t s = 0; s < seqs.size(); ++s) {
      const CudaSequence& sq = seqs[s];
      if (sq.q_len == 0) continue;
      if (sq.k_len == 0) {  // no keys: Out 0, LSE -inf (with a sink its logit, not checked here: NaN)
        want[s].out.assign(size_t(hq * sq.q_len * dv), 0.0);
        want[s].lse.assign(size_t(hq * sq.q_len), k.sink ? NAN : -INFINITY);
        continue;
      }
      const HostTensor qs = sequence_rows(q, sq.q_row, sq.q_len), ks = sequence_rows(kt, cu_k[s], sq.k_len),
                       vs = sequence_rows(v, cu_k[s], sq.k_len);
      CudaLaunchRequest req = request_for(k, qs, ks, vs, buffers);
      CudaPreparedLaunch L = prepare_cuda_launch(device, ref_info, req);
      L.params.batch_base = static_cast<int>(s);
      // Rows are positions: Q starts q_first rows before the copy (rows before it are absent).
      L.params.q = static_cast<const char*>(L.params.q) - sq.q_first * L.params.q_stride[2] * int64_t(es);
      L.params.q_len = static_cast<int>(sq.q_first + sq.q_len),
      L.params.q_first = static_cast<int>(sq.q_first);
      Reference r = run_reference(device, module, k.info, L);
      if (r.out_of_range) {
        line.fail(what + ": the kit's inputs read out of range (its index generation is wrong)");
        return -1;
      }
      for (int64_t h = 0; h < hq; ++h)  // the present rows: positions q_first..
        for (int64_t i = 0; i < sq.q_len; ++i) {
          const size_t row = size_t(h * (sq.q_first + sq.q_len) + sq.q_first + i);
          want[s].out.insert(want[s].out.end(), r.out.begin() + long(row * dv),
                             r.out.begin() + long((row + 1) * dv));
          want[s].lse.push_back(r.lse[row]);
        }
    }
    // The kernel: the packed tensors' block over the buffers of a prepared dense launch, then one
    // launch per sequence.
    const HostTensor q1 = sequence_rows(q, 0, 1), k1 = sequence_rows(kt, 0, 1), v1 = sequence_rows(v, 0, 1);
    CudaLaunchRequest req = request_for(k, q1, k1, v1, buffers);
    CudaPreparedLaunch L = prepare_cuda_launch(device, k.info, req);
    std::vector<CudaBuffer> packed;  // q, k, v, out, lse
    packed.reserve(5);
    auto upload = [&](const void* data, size_t bytes) {
      packed.push_back(device.alloc(std::max<size_t>(bytes, 1)));
      if (bytes) device.upload(packed.back(), data, bytes);
      return reinterpret_cast<void*>(packed.back().ptr());
    };
    HostTensor out(cuda_out_type(k.info.dtype), {tq, hq, dv}), lse(ScalarType::F32, {tq, hq});
    attn_cuda_params p = L.params;
    p.q = upload(q.bytes.data(), q.bytes.size());
    const HostTensor& kk = paged ? k_cache : kt;
    const HostTensor& vv = paged ? v_cache : v;
    p.k = upload(kk.bytes.data(), kk.bytes.size()), p.v = upload(vv.bytes.data(), vv.bytes.size());
    p.out = upload(out.bytes.data(), out.bytes.size());
    p.lse = static_cast<float*>(upload(lse.bytes.data(), lse.bytes.size()));
    p.lse = k.lse ? p.lse : nullptr;
    p.max = nullptr;  // the prepared launch's maxima are one dense row's: not this batch's (not checked here)
    p.q_stride[0] = 0, p.q_stride[1] = d, p.q_stride[2] = hq * d;
    p.out_stride[0] = 0, p.out_stride[1] = dv, p.out_stride[2] = hq * dv;
    p.k_stride[0] = 0, p.k_stride[1] = d, p.k_stride[2] = hkv * d;
    p.v_stride[0] = 0, p.v_stride[1] = dv, p.v_stride[2] = hkv * dv;
    p.lse_stride[0] = 0, p.lse_stride[1] = 1, p.lse_stride[2] = hq;
    p.batch = 1, p.q_len = static_cast<int>(tq), p.kv_len = static_cast<int>(tk);
    if (paged) {
      p.k_page_stride = page * hkv * d, p.v_page_stride = page * hkv * dv,
      p.page_size = static_cast<int>(page);
      p.kv_len = 0;
    }
    launch_cuda_sequences(device, kernel, kernel_info, p, seqs, layout.table, paged ? layout.max_pages : 0,
                          req.scalars, req.buffers);
    attn_cuda_error err{};
    device.download(&err, *L.error_memory, sizeof err);
    if (err.flag) line.fail(what + ": the kernel reported an out-of-range read");
    device.download(out.bytes.data(), packed[3], out.bytes.size());
    device.download(lse.bytes.data(), packed[4], lse.bytes.size());
    // The same launches planned once and captured in a CUDA graph (global capture mode: a launch
    // that allocated, copied or waited would fail the capture), replayed twice over a zeroed Out:
    // the same bytes.
    {
      const CudaPlacedPlan placed(device,
                                  plan_cuda_launches(kernel_info, device.sm_count(), p, seqs, layout.table,
                                                     paged ? layout.max_pages : 0, req.scalars, req.buffers));
      CudaGraph graph(device, [&](void* stream) {
        launch_cuda_plan(device, kernel, kernel_info, p, placed.plan(), placed.memory(), stream);
      });
      device.zero(packed[3]);
      graph.replay();
      graph.replay();
      HostTensor again(cuda_out_type(k.info.dtype), {tq, hq, dv});
      device.download(again.bytes.data(), packed[3], again.bytes.size());
      if (again.bytes != out.bytes)
        line.fail(what + ": the CUDA graph's replay differs from the direct launch");
    }
    double worst = 0, lse_worst = 0;
    for (size_t s = 0; s < seqs.size(); ++s)
      for (int64_t h = 0; h < hq; ++h)
        for (int64_t i = 0; i < seqs[s].q_len; ++i) {
          const int64_t row = h * seqs[s].q_len + i, t = seqs[s].q_row + i;
          for (int64_t c = 0; c < dv; ++c) {
            const double a = out.get((t * hq + h) * dv + c), b = want[s].out[size_t(row * dv + c)];
            worst = std::max(worst, std::isnan(a) ? INFINITY : std::abs(a - b));
          }
          if (k.lse && !std::isnan(want[s].lse[size_t(row)])) {
            const double a = lse.get(t * hq + h), b = want[s].lse[size_t(row)];
            lse_worst =
                std::max(lse_worst, (std::isinf(a) && std::isinf(b) && a == b) ? 0.0 : std::abs(a - b));
          }
        }
    if (worst > tolerance(k.info.dtype) || lse_worst > 1e-2) {
      std::ostringstream m;
      m << what << ": max |err| " << worst << (k.lse ? " lse " + std::to_string(lse_worst) : "");
      line.fail(m.str());
    }
    return worst;
  } catch (const std::exception& e) {
    line.fail(what + ": " + e.what());
    return -1;
  }
}

}  // namespace

int check_kernel(CudaDevice& device, const Kit& k, const CheckOptions& o, std::mt19937& rng) {
  Line line;
  const std::string name = kit_name(k.cu);
  NvrtcOptions no;
  no.arch = o.arch;
  std::shared_ptr<CudaModule> module = device.load(reference_cubin(k, o));
  std::shared_ptr<CudaModule> bwd_module;
  BackwardSource bwd;
  if (o.backward && !k.backward.empty()) {
    bwd = parse_backward_source(read_text(k.backward));
    bwd_module = device.load(
        nvrtc_compile(bwd.text + "\n" + o.reference_bwd, k.backward.filename().string(), no).cubin);
  }
  const CudaLaunchInfo ref_info = without_plan(k.info);
  const double tol = tolerance(k.info.dtype);

  // One forward (and backward) check: false when it could not run.
  double fwd_worst = 0, lse_worst = 0, bwd_worst = 0, decode_worst = 0;
  GradientErrors bwd_sum;
  int fwd_shapes = 0, bwd_shapes = 0, decode_shapes = 0;
  auto check = [&](const Shape& s, bool decode) {
    const std::string at = shape_text(s.lq, s.lkv) + (decode ? " Hq=32 Hkv=8" : "") +
                           (s.batch_base ? " b+" + std::to_string(s.batch_base) : "");
    if (int64_t bytes = host_bytes(k, s); bytes > o.max_host_bytes) {
      line.fail(at + ": its inputs would take " + gb(bytes) + " of host memory (over the kit's cap of " +
                gb(o.max_host_bytes) + ")");
      return;
    }
    HostTensor q = random_tensor(k.info.dtype, {s.b, s.hq, s.lq, k.info.head_dim}, rng);
    HostTensor kt_local, v_local;
    const HostTensor* kt = &kt_local;
    const HostTensor* v = &v_local;
    if (decode) {
      const auto& kv = decode_kv(k, rng);
      kt = &kv.first, v = &kv.second;
    } else {
      kt_local = random_tensor(k.info.dtype, {s.b, s.hkv, s.lkv, k.info.head_dim}, rng);
      v_local = random_tensor(k.info.dtype, {s.b, s.hkv, s.lkv, k.info.value_dim}, rng);
    }
    std::vector<HostTensor> buffers = make_buffers(k.args, s.hq, std::max(s.lq, s.lkv), rng);
    CudaLaunchRequest req = request_for(k, q, *kt, *v, buffers);
    // An FP8 kernel's descale factors: one for Q, one per (b, kv head) for K and V, over every b
    // the mask sees (batch_base on).
    HostTensor descales[3];
    if (k.info.dtype == ScalarType::F8E4M3 || k.info.dtype == ScalarType::F8E5M2) {
      descales[0] = HostTensor(ScalarType::F32, {1});
      descales[0].set(0, 0.75);
      for (int t : {1, 2}) {
        descales[t] = HostTensor(ScalarType::F32, {s.b + s.batch_base, s.hkv});
        for (int64_t i = 0; i < descales[t].numel(); ++i) descales[t].set(i, 0.5 + 0.25 * double(i % 5));
      }
      for (int t = 0; t < 3; ++t) req.descale[t] = &descales[t];
    }
    // One upload for both: the reference ignores the tile plan and the launch layout.
    CudaPreparedLaunch L = prepare_cuda_launch(device, k.info, req);
    L.params.batch_base = s.batch_base;  // the forward, its reference, the backward and its reference
    const Reference want = run_reference(device, *module, k.info, L);
    if (want.out_of_range) {
      line.fail(at + ": the kit's inputs read out of range (its index generation is wrong)");
      return;
    }
    CudaLaunchResult got;
    try {
      got = launch_prepared(device, *module, k.info, L, req);
    } catch (const std::exception& e) {
      line.fail(at + ": " + e.what());
      return;
    }
    auto [worst, worst_lse] = forward_error(k, got, want);
    if (decode) {
      ++decode_shapes;
      decode_worst = std::max(decode_worst, worst);
    } else {
      ++fwd_shapes;
      fwd_worst = std::max(fwd_worst, worst);
      lse_worst = std::max(lse_worst, worst_lse);
    }
    if (worst > tol || worst_lse > 1e-2) {
      std::ostringstream m;
      m << at << ": max |err| " << worst << (k.lse || k.max ? " lse/max " + std::to_string(worst_lse) : "");
      line.fail(m.str());
    }
    if (!bwd_module || decode) return;
    const GradientErrors g =
        check_backward(device, *bwd_module, bwd, L, k.args, buffers, want.out, want.lse, rng);
    if (!g.error.empty()) {
      line.fail(at + " backward: " + g.error);
      return;
    }
    ++bwd_shapes;
    bwd_sum.dq = std::max(bwd_sum.dq, g.dq), bwd_sum.dk = std::max(bwd_sum.dk, g.dk);
    bwd_sum.dv = std::max(bwd_sum.dv, g.dv), bwd_sum.dbuffers = std::max(bwd_sum.dbuffers, g.dbuffers);
    bwd_sum.buffers = bwd_sum.buffers || g.buffers;
    bwd_worst = std::max(bwd_worst, g.worst());
    if (g.worst() > tol) {
      std::ostringstream m;
      m << at << " backward: dQ " << g.dq << " dK " << g.dk << " dV " << g.dv << " dbuffers " << g.dbuffers;
      line.fail(m.str());
    }
  };
  auto guarded = [&](const Shape& s, bool decode) {
    try {
      check(s, decode);
    } catch (const std::exception& e) {
      line.fail(shape_text(s.lq, s.lkv) + ": " + e.what());
    }
  };
  // The last two run split-KV (few query tiles, many keys: runtime/CudaGrid.h).
  for (auto [lq, lkv] :
       {std::pair<int64_t, int64_t>{1, 1}, {77, 77}, {200, 333}, {513, 129}, {1, 3001}, {70, 2600}})
    guarded({2, 4, 2, lq, lkv}, false);
  // A ragged batch's sequence as the launcher runs it, forward and backward: a batch of its own
  // whose mask sees b = 3 + the entry (attn_cuda_params::batch_base).
  if (o.ragged) guarded({2, 4, 2, 77, 133, 3}, false);
  if (o.decode)
    for (int64_t lq = 1; lq <= 16; ++lq) guarded({1, 32, 8, lq, 32768}, true);

  // A ragged batch and a paged cache (runtime/CudaLaunchPlan.h), against the reference on dense
  // copies of each sequence: launched one sequence at a time (the plain build, as a C caller's
  // loader request runs it), then as one grid (the build the Python package and `attnc run` load
  // for them, kCudaOneGridFlag).
  double ragged_worst = -1, paged_worst = -1, ragged_bwd_worst = -1;
  if (o.ragged && bwd_module) {  // the backward through the launcher, on packed tensors
    const GradientErrors g = check_ragged_backward(device, *module, *bwd_module, bwd, k, ref_info, rng);
    if (!g.error.empty()) {
      line.fail(g.error);
    } else {
      ragged_bwd_worst = g.worst();
      if (g.worst() > tol) {
        std::ostringstream m;
        m << "ragged backward: dQ " << g.dq << " dK " << g.dk << " dV " << g.dv << " dbuffers " << g.dbuffers;
        line.fail(m.str());
      }
    }
  }
  if (o.ragged) {
    ragged_worst = check_sequences(device, *module, *module, k.info, k, ref_info, 0, rng, line);
    try {
      NvrtcOptions grid_options;
      grid_options.arch = o.arch;
      grid_options.extra = {kCudaOneGridFlag};
      const std::shared_ptr<CudaModule> grid_module =
          device.load(nvrtc_compile(k.source, k.cu.filename().string(), grid_options).cubin);
      CudaLaunchInfo grid_info = k.info;
      grid_info.one_grid = true;
      ragged_worst = std::max(
          ragged_worst, check_sequences(device, *module, *grid_module, grid_info, k, ref_info, 0, rng, line));
      // Pages of 16 keys (a key tile across pages: a lookup per row) and of 128 (a tile within a page).
      paged_worst =
          std::max(check_sequences(device, *module, *grid_module, grid_info, k, ref_info, 16, rng, line),
                   check_sequences(device, *module, *grid_module, grid_info, k, ref_info, 128, rng, line));
    } catch (const std::exception& e) {
      line.fail(std::string("the one-grid build: ") + e.what());
    }
  }

  // The deliberate out-of-range launch: every buffer of extent 1, so any read past the first head,
  // query or key is out of range; the kernel runs without its run-time tile plan (which would
  // report it on the host first), so the device flag must say it.
  const bool has_buffers =
      std::any_of(k.args.begin(), k.args.end(), [](const ArgSpec& a) { return a.buffer; });
  if (o.out_of_range && has_buffers) {
    try {
      HostTensor q = random_tensor(k.info.dtype, {2, 4, 77, k.info.head_dim}, rng);
      HostTensor kt = random_tensor(k.info.dtype, {2, 2, 77, k.info.head_dim}, rng);
      HostTensor v = random_tensor(k.info.dtype, {2, 2, 77, k.info.value_dim}, rng);
      std::vector<HostTensor> buffers = make_out_of_range_buffers(k.args);
      CudaLaunchRequest req = request_for(k, q, kt, v, buffers);
      CudaPreparedLaunch L = prepare_cuda_launch(device, ref_info, req);
      if (!run_reference(device, *module, k.info, L).out_of_range) {
        line.oor = "out-of-range: not read (every read guarded)";
      } else {
        try {
          (void)launch_cuda_kernel(device, *module, ref_info, req);
          line.fail("out-of-range: the reference read out of range but the kernel did not report it");
        } catch (const CudaError& e) {
          const std::string m = e.what();
          if (m.find("out of range") == std::string::npos)
            line.fail("out-of-range: " + m);
          else
            line.oor = "out-of-range: caught by the device flag (" + m + ")";
        }
      }
    } catch (const std::exception& e) {
      line.fail(std::string("out-of-range: ") + e.what());
    }
  } else if (o.out_of_range) {
    line.oor = "out-of-range: no buffers";
  }

  std::ostringstream out;
  out << (line.failures ? "FAIL " : "ok   ") << name << ":";
  out << " fwd " << fwd_shapes << " shapes max|err| " << fwd_worst;
  if (k.lse || k.max) out << (k.max ? " lse/max " : " lse ") << lse_worst;
  if (bwd_module)
    out << "; bwd " << bwd_shapes << " shapes dQ " << bwd_sum.dq << " dK " << bwd_sum.dk << " dV "
        << bwd_sum.dv << (bwd_sum.buffers ? " dbuffers " + std::to_string(bwd_sum.dbuffers) : "");
  else
    out << "; bwd none";
  if (o.decode) out << "; decode " << decode_shapes << " shapes max|err| " << decode_worst;
  if (ragged_worst >= 0) out << "; ragged 5 sequences max|err| " << ragged_worst;
  if (ragged_bwd_worst >= 0) out << "; ragged backward 5 sequences max rel err " << ragged_bwd_worst;
  if (paged_worst >= 0) out << "; paged 4 sequences (pages of 16 and 128) max|err| " << paged_worst;
  if (!line.oor.empty()) out << "; " << line.oor;
  for (const std::string& f : line.fails) out << " | " << f;
  if (line.failures > static_cast<int>(line.fails.size()))
    out << " | (" << line.failures - static_cast<int>(line.fails.size()) << " more)";
  std::cout << out.str() << std::endl;
  return line.failures;
}

int compile_kernel(const Kit& k, const CheckOptions& o) {
  NvrtcOptions no;
  no.arch = o.arch;
  auto seconds = [](auto t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  auto t0 = std::chrono::steady_clock::now();
  NvrtcResult nv = nvrtc_compile(k.source + "\n" + o.reference, k.cu.filename().string(), no);
  const double fwd_s = seconds(t0);
  const PtxasFunction* fn = nv.report.find(k.info.entry);
  std::ostringstream line;
  line << "compiled " << kit_name(k.cu) << " (" << o.arch << "): " << (fn ? fn->registers : 0)
       << " registers, " << (fn ? fn->spill_stores : 0) << " B spills, nvrtc " << fwd_s << " s";
  if (o.backward && !k.backward.empty()) {
    const BackwardSource b = parse_backward_source(read_text(k.backward));
    t0 = std::chrono::steady_clock::now();
    (void)nvrtc_compile(b.text + "\n" + o.reference_bwd, k.backward.filename().string(), no);
    line << ", backward nvrtc " << seconds(t0) << " s";
  }
  std::cout << line.str() << std::endl;
  return 0;
}

}  // namespace attn::kit
