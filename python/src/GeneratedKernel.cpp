// GeneratedKernel: manifest.json and .cu sources in, launches on the caller's CUDA stream out.
#include "python/src/GeneratedKernel.h"

#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "runtime/CudaCompiler.h"
#include "runtime/CudaLaunch.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/Nvrtc.h"

namespace attn::python {

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ScalarType type_of(const std::string& what, const TensorView& t) {
  try {
    return dl_scalar_type(t.dtype);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(what + " has an element type attnc does not take (DLPack code " +
                                std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) +
                                " bits)");
  }
}

std::string shape_text(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

/// DLTensor views over TensorViews, with stable addresses.
class Views {
 public:
  DLTensor* operator()(const TensorView& t) {
    DLTensor& d = views_.emplace_back();
    d.data = t.data;
    d.device = t.device;
    d.ndim = static_cast<int>(t.shape.size());
    d.dtype = t.dtype;
    d.shape = const_cast<int64_t*>(t.shape.data());
    d.strides = const_cast<int64_t*>(t.strides.data());
    return &d;
  }

 private:
  std::deque<DLTensor> views_;
};

}  // namespace

struct GeneratedKernel::Backward {
  std::shared_ptr<CudaDevice> device;
  std::shared_ptr<CudaModule> module;
  CudaBackwardInfo info;
  std::shared_ptr<CudaErrorWord> word;
};

GeneratedKernel::GeneratedKernel(const std::string& folder, const std::string& entry_json) {
  const nlohmann::json e = nlohmann::json::parse(entry_json);
  name_ = e.at("name").get<std::string>();
  hash_ = e.value("hash", "");
  const std::string dtype = e.value("dtype", "f32");
  if (dtype == "e4m3" || dtype == "e5m2")  // a bf16 out and descale factors: not this loader's yet
    throw std::invalid_argument("kernel '" + name_ + "' is fp8 (dtype " + dtype +
                                "): attnc.load_generated does not take fp8 kernels yet; attnc.load does");
  dtype_ = dtype == "bf16" ? ScalarType::BF16 : dtype == "f16" ? ScalarType::F16 : ScalarType::F32;
  head_dim_ = e.value("head_dim", 0);
  value_dim_ = e.value("value_dim", 0);
  lse_ = e.value("lse", false);
  for (const nlohmann::json& a : e.at("args")) {
    GeneratedArg g;
    g.name = a.at("name").get<std::string>();
    g.buffer = a.at("kind").get<std::string>() == "tensor";
    g.elem = a.value("type", "f32");
    if (g.buffer) g.dims = a.at("dims").get<std::vector<std::string>>();
    args_.push_back(std::move(g));
  }
  for (const nlohmann::json& f : e.at("files").at("cuda")) {
    const std::string file = f.get<std::string>();
    if (file == name_ + ".cu") source_ = read_file(fs::path(folder) / file);
    if (file == name_ + "_backward.cu") backward_source_ = read_file(fs::path(folder) / file);
  }
  if (source_.empty()) throw std::invalid_argument("kernel '" + name_ + "' has no CUDA source in " + folder);
  // Head dims the kernel left open were fixed when it was generated: its launch shape says which
  // (the manifest's, as data; a folder from an older attnc: the source's declarations).
  launch_ = e.contains("cuda_launch")
                ? write_cuda_launch_info(read_cuda_launch_info(e.at("cuda_launch").dump()))
                : "";
  const CudaLaunchInfo info =
      launch_.empty() ? parse_cuda_launch_info(source_) : read_cuda_launch_info(launch_);
  head_dim_ = info.head_dim, value_dim_ = info.value_dim;
  if (e.contains("cuda_backward_launch"))
    backward_launch_ = write_cuda_backward_info(read_cuda_backward_info(e.at("cuda_backward_launch").dump()));
}

std::vector<double> GeneratedKernel::check(const TensorView& q, const TensorView& k, const TensorView& v,
                                           const std::map<std::string, TensorView>& buffers,
                                           const std::map<std::string, double>& scalars) const {
  const DLDevice dev = q.device;
  if (dev.device_type != kDLCUDA)
    throw std::invalid_argument(
        "kernel '" + name_ + "' was loaded from generated CUDA sources and runs on CUDA tensors; q is on " +
        device_text(dev));
  for (auto [what, t] : {std::pair<const char*, const TensorView*>{"q", &q}, {"k", &k}, {"v", &v}}) {
    if (t->device.device_type != dev.device_type || t->device.device_id != dev.device_id)
      throw std::invalid_argument(std::string(what) + " is on " + device_text(t->device) + ", not " +
                                  device_text(dev) + " like q (every tensor of a call on one device)");
    if (t->shape.size() != 4)
      throw std::invalid_argument(std::string(what) + " must be 4-D [B, H, L, D], got " +
                                  shape_text(t->shape));
    if (type_of(what, *t) != dtype_)
      throw std::invalid_argument(std::string(what) + " must be " + scalar_type_name(dtype_) + " (kernel '" +
                                  name_ + "'), got " + scalar_type_name(type_of(what, *t)));
  }
  if (q.shape[3] != head_dim_ || k.shape[3] != head_dim_ || v.shape[3] != value_dim_)
    throw std::invalid_argument("kernel '" + name_ + "' was generated for head_dim " +
                                std::to_string(head_dim_) + " and value_dim " + std::to_string(value_dim_) +
                                "; q is " + shape_text(q.shape) + ", v " + shape_text(v.shape));
  if (k.shape[0] != q.shape[0] || v.shape[0] != q.shape[0] || k.shape[1] != v.shape[1] ||
      k.shape[2] != v.shape[2])
    throw std::invalid_argument("k " + shape_text(k.shape) + " and v " + shape_text(v.shape) +
                                " do not match q " + shape_text(q.shape));
  if (k.shape[1] <= 0 || q.shape[1] % k.shape[1] != 0)
    throw std::invalid_argument("query heads (" + std::to_string(q.shape[1]) +
                                ") must be a multiple of key/value heads (" + std::to_string(k.shape[1]) +
                                ")");
  for (const auto& [name, _] : buffers) {
    bool known = false;
    for (const GeneratedArg& a : args_) known = known || (a.buffer && a.name == name);
    if (!known) throw std::invalid_argument("kernel '" + name_ + "' has no tensor argument '" + name + "'");
  }
  std::vector<double> out;
  for (const GeneratedArg& a : args_) {
    if (!a.buffer) {
      auto s = scalars.find(a.name);
      if (s == scalars.end()) throw std::invalid_argument("missing argument '" + a.name + "'");
      out.push_back(s->second);
      continue;
    }
    auto b = buffers.find(a.name);
    if (b == buffers.end()) throw std::invalid_argument("missing argument '" + a.name + "'");
    const TensorView& t = b->second;
    const std::string what = "argument '" + a.name + "'";
    if (t.device.device_type != dev.device_type || t.device.device_id != dev.device_id)
      throw std::invalid_argument(what + " is on " + device_text(t.device) + ", not " + device_text(dev) +
                                  " like q");
    if (t.shape.size() != a.dims.size())
      throw std::invalid_argument(what + " must have " + std::to_string(a.dims.size()) + " dimensions, got " +
                                  shape_text(t.shape));
    const ScalarType ty = type_of(what, t);
    const bool type_ok = a.elem == "i32"   ? ty == ScalarType::I32
                         : a.elem == "f32" ? ty == ScalarType::F32
                                           : ty == ScalarType::Bool || ty == ScalarType::U8;
    if (!type_ok) throw std::invalid_argument(what + " must be " + a.elem + ", got " + scalar_type_name(ty));
    int64_t expect = 1;
    for (size_t d = a.dims.size(); d-- > 0;) {
      const std::string& dim = a.dims[d];
      if (!dim.empty() && std::isdigit(static_cast<unsigned char>(dim[0])) && t.shape[d] != std::stoll(dim))
        throw std::invalid_argument(what + " must have extent " + dim + " in dimension " + std::to_string(d) +
                                    ", got " + shape_text(t.shape));
      if (t.shape[d] != 1 && t.strides[d] != expect)
        throw std::invalid_argument(what + " must be contiguous (row-major)");
      expect *= t.shape[d];
    }
  }
  return out;
}

void GeneratedKernel::run(const TensorView& q, const TensorView& k, const TensorView& v,
                          const TensorView& out, const TensorView* lse,
                          const std::map<std::string, TensorView>& buffers,
                          const std::map<std::string, double>& scalars, void* stream) {
  std::vector<double> scalar_values = check(q, k, v, buffers, scalars);
  if (lse && !lse_)
    throw std::invalid_argument(
        "kernel '" + name_ +
        "' was generated without lse = true: its LSE (and so its backward) is not available");
  // What the kernel writes: out [B, Hq, Lq, Dv] in its dtype, lse [B, Hq, Lq] f32, on q's device.
  auto written = [&](const char* what, const TensorView& t, std::vector<int64_t> shape, ScalarType type) {
    if (t.device.device_type != q.device.device_type || t.device.device_id != q.device.device_id ||
        t.shape != shape || type_of(what, t) != type)
      throw std::invalid_argument(std::string(what) + " must be " + scalar_type_name(type) + " " +
                                  shape_text(shape) + " on " + device_text(q.device) + ", got " +
                                  shape_text(t.shape));
  };
  written("out", out, {q.shape[0], q.shape[1], q.shape[2], v.shape[3]}, dtype_);
  if (lse) written("lse", *lse, {q.shape[0], q.shape[1], q.shape[2]}, ScalarType::F32);
  Kernel kernel;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!forward_) {
      KernelRequest r;
      r.target = "cuda";
      r.source = source_;
      r.info = launch_;
      r.entry = (launch_.empty() ? parse_cuda_launch_info(source_) : read_cuda_launch_info(launch_)).entry;
      forward_ = process_loader().get(r);
    }
    kernel = forward_;
  }
  const auto* module = dynamic_cast<const CudaKernelModule*>(kernel.module());
  if (!module)
    throw std::logic_error("the cuda target's loader gave a module that is not a CudaKernelModule");
  Views views;
  std::vector<const DLTensor*> buffer_views;
  for (const GeneratedArg& a : args_)
    if (a.buffer) buffer_views.push_back(views(buffers.at(a.name)));
  char error[1024] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = views(q), args.k = views(k), args.v = views(v), args.out = views(out);
  args.lse = lse ? views(*lse) : nullptr;
  args.buffers = buffer_views.data(), args.num_buffers = static_cast<int>(buffer_views.size());
  args.scalars = scalar_values.data(), args.num_scalars = static_cast<int>(scalar_values.size());
  args.error = error, args.error_size = sizeof error;
  if (module->launch_on(&args, stream) != 0)
    throw std::invalid_argument(error[0] ? error : "the CUDA kernel failed");
}

void GeneratedKernel::backward(const TensorView& q, const TensorView& k, const TensorView& v,
                               const std::map<std::string, TensorView>& buffers,
                               const std::map<std::string, double>& scalars, const TensorView& out,
                               const TensorView& lse, const TensorView& dout, const TensorView* dlse,
                               const TensorView& dq, const TensorView& dk, const TensorView& dv,
                               const std::map<std::string, TensorView>& dbuffers, void* stream) {
  std::vector<double> scalar_values = check(q, k, v, buffers, scalars);
  if (backward_source_.empty())
    throw std::invalid_argument(
        "kernel '" + name_ +
        "' was generated without its backward (attnc compile --cuda-backward, or backward = true)");
  std::shared_ptr<Backward> b;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!backward_) {
      auto fresh = std::make_shared<Backward>();
      fresh->device = CudaDevice::open(q.device.device_id);
      fresh->info = backward_launch_.empty() ? parse_cuda_backward_info(backward_source_)
                                             : read_cuda_backward_info(backward_launch_);
      NvrtcOptions o;
      const int sm = fresh->device->sm();
      o.arch = "sm_" + std::to_string(sm) + (sm == 90 ? "a" : "");
      fresh->module = fresh->device->load(nvrtc_compile(backward_source_, name_ + "_backward.cu", o).cubin);
      std::vector<std::string> names;
      for (const GeneratedArg& a : args_)
        if (a.buffer) names.push_back(a.name);
      fresh->word = CudaErrorWord::make(fresh->device, names);
      backward_ = std::move(fresh);
    }
    b = backward_;
  }
  Views views;
  std::vector<const DLTensor*> buffer_views;
  std::vector<DLTensor*> grad_views;
  std::vector<std::string> names;
  for (const GeneratedArg& a : args_) {
    if (!a.buffer) continue;
    names.push_back(a.name);
    buffer_views.push_back(views(buffers.at(a.name)));
    auto g = dbuffers.find(a.name);
    if (g != dbuffers.end() && a.elem != "f32")
      throw std::invalid_argument("argument '" + a.name + "' is " + a.elem +
                                  ": only f32 buffers have gradients");
    grad_views.push_back(g == dbuffers.end() ? nullptr : views(g->second));
  }
  char error[1024] = "";
  attn_backward_args a{};
  a.abi_version = ATTN_BACKWARD_ABI_VERSION;
  a.q = views(q), a.k = views(k), a.v = views(v), a.out = views(out), a.lse = views(lse);
  a.dout = views(dout), a.dlse = dlse ? views(*dlse) : nullptr;
  a.dq = views(dq), a.dk = views(dk), a.dv = views(dv);
  a.buffers = buffer_views.data(), a.buffer_grads = grad_views.data();
  a.num_buffers = static_cast<int>(buffer_views.size());
  a.scalars = scalar_values.data(), a.num_scalars = static_cast<int>(scalar_values.size());
  a.error = error, a.error_size = sizeof error;
  launch_cuda_backward_module(*b->device, q.device.device_id, *b->module, b->info, names, a, stream,
                              *b->word);
}

std::vector<std::shared_ptr<GeneratedKernel>> load_generated_folder(const std::string& folder) {
  const fs::path manifest = fs::path(folder) / "manifest.json";
  if (!fs::exists(manifest))
    throw std::invalid_argument(folder + " has no manifest.json (write it with attnc compile -t cuda -o " +
                                folder + ")");
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(read_file(manifest));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(manifest.string() + " does not parse: " + e.what());
  }
  std::vector<std::shared_ptr<GeneratedKernel>> out;
  for (const nlohmann::json& k : m.at("kernels")) {
    if (!k.contains("files") || !k["files"].contains("cuda")) continue;
    out.push_back(std::make_shared<GeneratedKernel>(folder, k.dump()));
  }
  if (out.empty()) throw std::invalid_argument(manifest.string() + " lists no CUDA kernel");
  return out;
}

}  // namespace attn::python
