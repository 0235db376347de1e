// run_cuda: the device first (so a machine without a GPU fails fast and clearly), then the source
// for its architecture through the loader (NVRTC once per kernel, disk cache), then a launch on
// device copies of the inputs through the kernel's DLPack entry, as applications call it.
#include "backends/cuda/CudaRun.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "attn/loader.hpp"
#include "backends/cuda/CudaPrinter.h"
#include "backends/io/RaggedBatch.h"
#include "codegen/KernelIR.h"
#include "runtime/CudaCompiler.h"
#include "runtime/CudaDriver.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/Nvrtc.h"
#include "runtime/Sha256.h"

namespace attn {

namespace {

/// The name of the tuned tile shape's blob in the loader's cache: the device, the table's source
/// (kernel, dtype, head dims, architecture) and the size class of the problem.
std::string tune_key(const CudaDevice& device, const std::string& table_source, const KernelInputs& in) {
  std::string s = "attnc cuda tiles 1\n" + device.name() + "\nsm " + std::to_string(device.sm()) + "\n";
  s += to_hex(sha256(table_source.data(), table_source.size()));
  return s + "\nsize " + cuda_size_classes(in);
}

/// Tuned tile shapes by key, kept in the loader's disk cache beside its kernels; each key is read
/// from disk once per process (a launch should not open a file).
class TunedShapes {
 public:
  std::optional<CudaTileConfig> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = known_.find(key);
    if (it != known_.end()) return it->second;
    std::optional<CudaTileConfig> found;
    if (std::optional<std::vector<uint8_t>> text = process_loader().load_blob(key))
      found = parse_cuda_tiles(std::string(text->begin(), text->end()));
    return known_[key] = found;
  }
  void store(const std::string& key, const CudaTileConfig& tiles) {
    std::lock_guard<std::mutex> lock(mutex_);
    known_[key] = tiles;
    const std::string text = describe(tiles);
    process_loader().store_blob(key, std::vector<uint8_t>(text.begin(), text.end()));
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::optional<CudaTileConfig>> known_;
};

TunedShapes& tuned_shapes() {
  static TunedShapes* shapes = new TunedShapes();
  return *shapes;
}

/// The problem the tuner checks candidates on: the caller's inputs cut to at most 4 heads and 1024
/// queries and keys (odd lengths kept), so a check costs little next to the timed launches.
struct TuneInputs {
  HostTensor q, k, v;
  std::vector<HostTensor> buffers;
};

HostTensor take_prefix(const HostTensor& t, int64_t heads, int64_t len) {
  HostTensor out(t.type, {1, heads, len, t.shape[3]});
  const size_t es = t.bytes.size() / size_t(t.numel()), row = size_t(t.shape[3]) * es;
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t r = 0; r < len; ++r)
      std::memcpy(out.bytes.data() + size_t(h * len + r) * row,
                  t.bytes.data() + size_t(h * t.shape[2] + r) * row, row);
  return out;
}

/// Runs the search for `ir` on `in`: candidates printed from the tile table's neighbourhood,
/// checked on a cut of the inputs against the table's output, timed on the inputs themselves.
CudaTuneResult tune(CudaDevice& device, const KernelIR& ir, const CudaPrintOptions& po,
                    const KernelInputs& in, std::vector<CudaTileConfig>& configs) {
  configs = cuda_tile_candidates(po.sm, ir.options.dtype, po.head_dim, po.value_dim);
  std::vector<CudaTuneSource> sources;
  for (const CudaTileConfig& c : configs) {
    CudaPrintOptions o = po;
    o.tiles = c;
    const CudaKernelSource src = print_cuda_kernel(ir, o);
    sources.push_back({describe(c), src.cu, write_cuda_launch_info(src.launch), {}, {}});
  }
  // Buffers index positions and heads of the full problem: the check keeps B = 1 and cuts only
  // when the kernel reads no buffer.
  const bool cut = ir.args.empty() || std::none_of(ir.args.begin(), ir.args.end(), [](const KernelArg& a) {
                     return a.kind == KernelArg::Kind::Buffer;
                   });
  const int64_t heads = cut ? std::min<int64_t>(in.k.shape[1], 4) : in.k.shape[1];
  const int64_t groups = in.q.shape[1] / in.k.shape[1];
  const int64_t lq = cut ? std::min<int64_t>(in.q.shape[2], 1023) : in.q.shape[2];
  const int64_t lk = cut ? std::min<int64_t>(in.k.shape[2], 1023) : in.k.shape[2];
  HostTensor cq = take_prefix(in.q, heads * groups, lq), ck = take_prefix(in.k, heads, lk),
             cv = take_prefix(in.v, heads, lk);
  CudaLaunchRequest check, timing;
  std::vector<double> scalars;
  std::vector<CudaTensorArg> buffers;
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Buffer)
      buffers.push_back({a.name, &in.buffers.at(a.name)});
    else
      scalars.push_back(in.scalars.at(a.name));
  check.q = &cq, check.k = &ck, check.v = &cv, check.buffers = buffers, check.scalars = scalars;
  check.lse = ir.options.lse;
  timing.q = &in.q, timing.k = &in.k, timing.v = &in.v, timing.buffers = buffers, timing.scalars = scalars;
  timing.timed_repeats = 5;
  CudaDeviceTuner tuner(device, std::move(sources), check, timing);
  return cuda_autotune(tuner, cuda_tune_tolerance(in.q.type));
}

/// The source run_cuda compiles for `ir` on `in` on `device`: specialized to the inputs' head dims,
/// with the cached tuned tile shape of their size class, or one searched for now (options.autotune).
struct CudaSourceChoice {
  CudaKernelSource src;
  bool tuned = false;
  std::vector<CudaTuneTrial> trials;
};

CudaSourceChoice choose_source(CudaDevice& device, const KernelIR& ir, const KernelInputs& in,
                               const CudaRunOptions& options) {
  CudaPrintOptions po;
  po.sm = device.sm();
  po.head_dim = static_cast<int>(in.q.shape.back());  // [B, H, L, D], or [T, H, D] ragged
  po.value_dim = static_cast<int>(in.v.shape.back());
  po.prefer_wgmma = options.prefer_wgmma;
  KernelIR specialized = ir;
  specialized.options.head_dim = po.head_dim;
  specialized.options.value_dim = po.value_dim;
  CudaSourceChoice c;
  c.src = print_cuda_kernel(specialized, po);

  // A tuned tile shape: cached for this device, kernel and size class, or searched for now.
  const std::string key = tune_key(device, c.src.cu, in);
  std::optional<CudaTileConfig> tuned = options.prefer_wgmma ? std::nullopt : tuned_shapes().find(key);
  // The search cuts dense inputs (take_prefix): a ragged batch takes the cached or the table's shape.
  if (!tuned && options.autotune && !options.prefer_wgmma && !in.ragged()) {
    std::vector<CudaTileConfig> configs;
    CudaTuneResult t = tune(device, specialized, po, in, configs);
    c.trials = t.trials;
    tuned = configs[t.best];
    tuned_shapes().store(key, *tuned);
  }
  if (tuned && !(*tuned == c.src.tiles)) {
    po.tiles = tuned;
    c.src = print_cuda_kernel(specialized, po);
  }
  c.tuned = tuned.has_value();
  return c;
}

/// The kernel of `src` through the process's loader; `one_grid`: built to run a planned call's
/// launches as one grid (kCudaOneGridFlag), for ragged batches and paged caches.
Kernel load_source(const CudaKernelSource& src, bool one_grid) {
  try {
    std::vector<std::string> flags;
    if (one_grid) flags.push_back(kCudaOneGridFlag);
    return process_loader().get(
        {"cuda", src.cu, src.launch.entry, flags, write_cuda_launch_info(src.launch)});
  } catch (const LoadError& e) {
    if (e.kind() == LoadErrorKind::CompileFailed) throw CudaCompileError(e.what());
    throw CudaError(e.what());
  }
}

}  // namespace

std::string cuda_size_classes(const KernelInputs& in) {
  auto size_class = [](int64_t n) {
    int64_t c = 1;
    while (c < n) c *= 2;
    return std::to_string(c);
  };
  if (in.q.shape.size() == 3)  // a ragged batch [T, H, D]: its heads and packed rows
    return size_class(in.q.shape[1]) + " " + size_class(in.q.shape[0]) + " " + size_class(in.k.shape[0]);
  return size_class(in.q.shape[0] * in.q.shape[1]) + " " + size_class(in.q.shape[2]) + " " +
         size_class(in.k.shape[2]);
}

KernelRequest cuda_device_request(const KernelIR& ir, int head_dim, int value_dim, int device) {
  CudaPrintOptions po;
  po.sm = CudaDevice::open(device)->sm();
  po.head_dim = head_dim;
  po.value_dim = value_dim;
  KernelIR specialized = ir;
  specialized.options.head_dim = head_dim;
  specialized.options.value_dim = value_dim;
  CudaKernelSource src = print_cuda_kernel(specialized, po);
  return {"cuda", src.cu, src.launch.entry, {}, write_cuda_launch_info(src.launch)};
}

Kernel load_cuda_kernel(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options) {
  std::shared_ptr<CudaDevice> device = CudaDevice::open(options.device);
  CudaRunOptions no_search = options;
  no_search.autotune = false;
  return load_source(choose_source(*device, ir, in, no_search).src, in.ragged());
}

CudaRunResult run_cuda(const KernelIR& ir, const KernelInputs& in, const CudaRunOptions& options) {
  validate_inputs(ir, in);
  std::shared_ptr<CudaDevice> device = CudaDevice::open(options.device);
  CudaSourceChoice choice = choose_source(*device, ir, in, options);
  CudaRunResult result;
  result.tiles = choice.src.tiles;
  result.tiles_tuned = choice.tuned;
  result.tune_trials = std::move(choice.trials);
  const auto t0 = std::chrono::steady_clock::now();
  Kernel kernel = load_source(choice.src, in.ragged());
  result.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Device copies of every tensor; the outputs are downloaded after the launches.
  KernelOutputs outputs = make_outputs(ir, in);
  std::map<const HostTensor*, CudaBuffer> copies;
  auto place = [&](const HostTensor& t, bool output) {
    CudaBuffer& b = copies[&t] = device->alloc(t.bytes.size());
    if (!output) device->upload(b, t.bytes.data(), t.bytes.size());
    return reinterpret_cast<void*>(b.ptr());
  };
  KernelCallArgs call(call_tensors(ir, in, outputs), {kDLCUDA, 0}, place);
  std::shared_ptr<const CudaCallPlan> plan;
  std::unique_ptr<CudaGraph> graph;
  const auto* module = dynamic_cast<const CudaKernelModule*>(kernel.module());
  if (options.graph) {
    if (!module) throw std::logic_error("the cuda loader gave a module that is not a CudaKernelModule");
    if (!(plan = module->plan(&call.args()))) throw CudaError(call.error());
    graph = std::make_unique<CudaGraph>(*device, [&](void* stream) {
      if (module->launch_planned(*plan, &call.args(), stream) != 0) throw CudaError(call.error());
    });
  }
  for (int i = 0; i <= options.timed_repeats; ++i) {
    const auto t = std::chrono::steady_clock::now();
    if (graph) {
      graph->replay();
      if (std::string error = module->take_error(); !error.empty()) throw CudaError(error);
    } else if (kernel(call.args()) != 0) {
      throw CudaError(call.error());
    }
    if (i > 0)
      result.times_ms.push_back(static_cast<float>(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count()));
  }
  for (HostTensor* t : {&outputs.out, &outputs.lse, &outputs.max})
    if (!t->bytes.empty()) device->download(t->bytes.data(), copies.at(t), t->bytes.size());
  result.outputs = std::move(outputs);
  return result;
}

}  // namespace attn
