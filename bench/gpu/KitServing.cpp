// The kit's serving step: the shipped trace over one paged KV cache, both builds, graphs and direct
// launches (bench/gpu/KitServing.h).
#include "bench/gpu/KitServing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <numeric>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "bench/gpu/KitBench.h"
#include "bench/gpu/KitInputs.h"
#include "bench/gpu/KitKernel.h"
#include "runtime/CudaLaunchPlan.h"
#include "runtime/Nvrtc.h"

namespace attn::kit {

namespace fs = std::filesystem;

namespace {

/// The trace's step: its cache's shape and its requests' query and key counts.
struct Trace {
  int64_t page_size = 0, heads = 0, kv_heads = 0, head_dim = 0;
  std::vector<int64_t> q_lens, kv_lens;
};

Trace read_trace(const fs::path& path) {
  const std::string text = read_text(path);
  Trace t;
  auto field = [&](const char* name) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(std::string("\"") + name + "\"\\s*:\\s*([0-9]+)")))
      throw std::invalid_argument(path.string() + " has no \"" + name + "\"");
    return std::stoll(m[1]);
  };
  t.page_size = field("page_size"), t.heads = field("heads"), t.kv_heads = field("kv_heads");
  t.head_dim = field("head_dim");
  const std::regex request("\"q_len\"\\s*:\\s*([0-9]+)\\s*,\\s*\"kv_len\"\\s*:\\s*([0-9]+)");
  for (std::sregex_iterator it(text.begin(), text.end(), request), end; it != end; ++it)
    t.q_lens.push_back(std::stoll((*it)[1])), t.kv_lens.push_back(std::stoll((*it)[2]));
  if (t.q_lens.empty()) throw std::invalid_argument(path.string() + " has no requests");
  return t;
}

/// Fills `bytes` of device memory at `dst` with copies of `chunk`.
void fill(CudaDevice& device, uint64_t dst, size_t bytes, const std::vector<uint8_t>& chunk) {
  for (size_t at = 0; at < bytes; at += chunk.size()) {
    const size_t n = std::min(chunk.size(), bytes - at);
    device.upload(CudaBuffer::borrow(dst + at, n), chunk.data(), n);
  }
}

}  // namespace

std::string serve_trace(CudaDevice* device, const fs::path& trace_path, const std::vector<fs::path>& kernels,
                        const std::string& arch) {
  const Trace t = read_trace(trace_path);
  const int64_t n = static_cast<int64_t>(t.q_lens.size()), page = t.page_size;
  const int64_t hq = t.heads, hkv = t.kv_heads, d = t.head_dim;
  // The layout: each request's pages shuffled over the cache; queries packed.
  PagedLayout layout;
  layout.page_size = page;
  std::vector<int64_t> cu_q = {0};
  int64_t pairs = 0, kv_rows = 0, decoding = 0;
  for (int64_t i = 0; i < n; ++i) {
    layout.max_pages = std::max(layout.max_pages, (t.kv_lens[size_t(i)] + page - 1) / page);
    cu_q.push_back(cu_q.back() + t.q_lens[size_t(i)]);
    const int64_t ql = t.q_lens[size_t(i)], kl = t.kv_lens[size_t(i)];
    pairs += ql * (kl - ql) + ql * (ql + 1) / 2;  // causal, the queries last
    kv_rows += kl;
    decoding += ql == 1;
  }
  std::vector<int32_t> order;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < (t.kv_lens[size_t(i)] + page - 1) / page; ++j)
      order.push_back(int32_t(order.size()));
  std::mt19937 rng(29);
  std::shuffle(order.begin(), order.end(), rng);
  layout.pages = static_cast<int64_t>(order.size());
  layout.table.assign(size_t(n * layout.max_pages), 0);
  size_t next = 0;
  for (int64_t i = 0; i < n; ++i) {
    layout.kv_lens.push_back(int32_t(t.kv_lens[size_t(i)]));
    for (int64_t j = 0; j < (t.kv_lens[size_t(i)] + page - 1) / page; ++j)
      layout.table[size_t(i * layout.max_pages + j)] = order[next++];
  }
  const int64_t tq = cu_q.back();
  std::vector<CudaSequence> seqs;
  if (std::string why = check_paged_layout(cu_q, layout, tq, seqs); !why.empty())
    throw std::invalid_argument(why);

  std::ostringstream json;
  json << "{\"trace\": " << json_string(trace_path.filename().string()) << ", \"requests\": " << n
       << ", \"decoding\": " << decoding << ", \"tokens\": " << tq << ", \"kv_rows\": " << kv_rows
       << ", \"pairs\": " << pairs << ", \"page_size\": " << page << ", \"heads\": " << hq
       << ", \"kv_heads\": " << hkv << ", \"head_dim\": " << d << ", \"kernels\": [";
  bool first = true;
  for (const fs::path& f : kernels) {
    const Kit k = load_kit(f);
    if (k.info.head_dim != d || k.info.value_dim != d)
      throw std::invalid_argument(f.string() + " is not for head_dim " + std::to_string(d));
    // The packed call: q and out [Tq, Hq, D], the caches [pages, page, Hkv, D].
    attn_cuda_params p{};
    p.q_stride[1] = d, p.q_stride[2] = hq * d;
    p.out_stride[1] = d, p.out_stride[2] = hq * d;
    p.k_stride[1] = p.v_stride[1] = d, p.k_stride[2] = p.v_stride[2] = hkv * d;
    p.k_page_stride = p.v_page_stride = page * hkv * d;
    p.page_size = static_cast<int>(page);
    p.batch = 1, p.q_heads = static_cast<int>(hq), p.kv_heads = static_cast<int>(hkv);
    p.q_len = static_cast<int>(tq);
    p.scale = static_cast<float>(k.info.scale);
    p.scale_log2 = static_cast<float>(k.info.scale * 1.4426950408889634);
    CudaLaunchInfo grid_info = k.info;
    grid_info.one_grid = true;
    NvrtcOptions plain_options, grid_options;
    plain_options.arch = grid_options.arch = arch;
    grid_options.extra = {kCudaOneGridFlag};
    const auto t0 = std::chrono::steady_clock::now();
    const NvrtcResult plain_build = nvrtc_compile(k.source, f.filename().string(), plain_options);
    const auto t1 = std::chrono::steady_clock::now();
    const NvrtcResult grid_build = nvrtc_compile(k.source, f.filename().string(), grid_options);
    const double plain_s = std::chrono::duration<double>(t1 - t0).count(),
                 grid_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    const int sms = device ? device->sm_count() : 132;
    const auto p0 = std::chrono::steady_clock::now();
    CudaLaunchPlan plain_plan =
        plan_cuda_launches(k.info, sms, p, seqs, layout.table, layout.max_pages, {}, {});
    const double plan_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - p0).count();
    CudaLaunchPlan grid_plan =
        plan_cuda_launches(grid_info, sms, p, seqs, layout.table, layout.max_pages, {}, {});
    json << (first ? "" : ", ")
         << "{\"kernel\": " << json_string(f.parent_path().filename().string() + "/" + f.filename().string())
         << ", \"nvrtc_s\": " << plain_s << ", \"one_grid_nvrtc_s\": " << grid_s
         << ", \"plan_ms\": " << plan_ms << ", \"launches\": " << plain_plan.launches.size()
         << ", \"one_grid_ctas\": " << grid_plan.work.size() / 4;
    first = false;
    std::cout << "serving " << f.filename().string() << ": " << plain_plan.launches.size() << " launches, "
              << grid_plan.work.size() / 4 << " CTAs as one grid, plan " << plan_ms << " ms" << std::endl;
    if (!device) {
      json << "}";
      continue;
    }
    // Device memory: q, the caches and two outputs, filled with copies of 16 MB of random bf16.
    const size_t es = scalar_type_size(k.info.dtype);
    const size_t q_bytes = size_t(tq * hq * d) * es, cache_bytes = size_t(layout.pages * page * hkv * d) * es;
    std::vector<uint8_t> chunk(size_t(16) << 20);
    const HostTensor noise = random_tensor(k.info.dtype, {int64_t(chunk.size() / es)}, rng);
    std::copy(noise.bytes.begin(), noise.bytes.end(), chunk.begin());
    CudaBuffer q = device->alloc(q_bytes), kc = device->alloc(cache_bytes), vc = device->alloc(cache_bytes),
               out_grid = device->alloc(q_bytes), out_plain = device->alloc(q_bytes),
               error = device->alloc(sizeof(attn_cuda_error));
    fill(*device, q.ptr(), q_bytes, chunk);
    fill(*device, kc.ptr(), cache_bytes, chunk);
    fill(*device, vc.ptr(), cache_bytes, chunk);
    device->zero(error);
    p.q = reinterpret_cast<const void*>(q.ptr());
    p.k = reinterpret_cast<const void*>(kc.ptr());
    p.v = reinterpret_cast<const void*>(vc.ptr());
    p.error = reinterpret_cast<attn_cuda_error*>(error.ptr());
    const std::shared_ptr<CudaModule> plain_module = device->load(plain_build.cubin),
                                      grid_module = device->load(grid_build.cubin);
    const CudaPlacedPlan plain(*device, std::move(plain_plan)), grid(*device, std::move(grid_plan));
    attn_cuda_params pp = p, gp = p;
    pp.out = reinterpret_cast<void*>(out_plain.ptr());
    gp.out = reinterpret_cast<void*>(out_grid.ptr());
    auto run_plain = [&](void* stream) {
      launch_cuda_plan(*device, *plain_module, k.info, pp, plain.plan(), plain.memory(), stream);
    };
    auto run_grid = [&](void* stream) {
      launch_cuda_plan(*device, *grid_module, grid_info, gp, grid.plan(), grid.memory(), stream);
    };
    run_plain(nullptr);
    run_grid(nullptr);
    device->synchronize();
    // The two builds agree (the same launches, one grid or one at a time).
    HostTensor a(k.info.dtype, {tq * hq * d}), b(k.info.dtype, {tq * hq * d});
    device->download(a.bytes.data(), out_plain, q_bytes);
    device->download(b.bytes.data(), out_grid, q_bytes);
    double diff = 0;
    bool finite = true;
    for (int64_t i = 0; i < tq * hq * d; ++i) {
      const double x = a.get(i), y = b.get(i);
      finite = finite && std::isfinite(x) && std::isfinite(y);
      diff = std::max(diff, std::abs(x - y));
    }
    constexpr int kRepeats = 20;
    const float plain_ms = device->time_ms([&] {
      for (int i = 0; i < kRepeats; ++i) run_plain(nullptr);
    }) / kRepeats;
    const float grid_ms = device->time_ms([&] {
      for (int i = 0; i < kRepeats; ++i) run_grid(nullptr);
    }) / kRepeats;
    CudaGraph plain_graph(*device, run_plain), grid_graph(*device, run_grid);
    plain_graph.replay();
    grid_graph.replay();
    const float plain_graph_ms = plain_graph.replay_ms(kRepeats),
                grid_graph_ms = grid_graph.replay_ms(kRepeats);
    const double kv_bytes = double(kv_rows) * double(hkv) * double(2 * d) * double(es);
    json << ", \"one_grid_graph_ms\": " << grid_graph_ms << ", \"one_grid_ms\": " << grid_ms
         << ", \"per_sequence_graph_ms\": " << plain_graph_ms << ", \"per_sequence_ms\": " << plain_ms
         << ", \"max_diff\": " << diff << ", \"finite\": " << (finite ? "true" : "false")
         << ", \"kv_bytes\": " << kv_bytes << "}";
    std::cout << "serving " << f.filename().string() << ": one grid " << grid_graph_ms << " ms (graph), "
              << grid_ms << " ms; per sequence " << plain_graph_ms << " ms (graph), " << plain_ms
              << " ms; builds differ by " << diff << (finite ? "" : ", NOT FINITE") << std::endl;
    if (diff > 1e-2 || !finite)
      throw std::runtime_error("serving: the one-grid and per-sequence builds disagree (max |diff| " +
                               std::to_string(diff) + (finite ? ")" : ", not finite)"));
  }
  json << "]}";
  return json.str();
}

}  // namespace attn::kit
