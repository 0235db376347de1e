// VulkanCompiler: keys include the device and driver build; the artifact is the pipeline-cache
// blob; a module packs DLPack host tensors into the layout's storage buffers and dispatches.
#include "runtime/VulkanCompiler.h"

#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "runtime/HostTensor.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/Sha256.h"
#include "runtime/VulkanKernel.h"
#include "runtime/VulkanLauncher.h"

namespace attn {

namespace {

using vk::KernelArgSlot;
using vk::KernelLayout;

int fail(const attn_kernel_args* args, int status, const std::string& message) {
  if (args && args->error && args->error_size) {
    std::strncpy(args->error, message.c_str(), args->error_size - 1);
    args->error[args->error_size - 1] = '\0';
  }
  return status;
}

const uint8_t* data_of(const DLTensor* t) { return static_cast<const uint8_t*>(t->data) + t->byte_offset; }

int64_t numel(const DLTensor* t) {
  int64_t n = 1;
  for (int d = 0; d < t->ndim; ++d) n *= t->shape[d];
  return n;
}

std::string shape_of(const DLTensor* t) {
  std::string s = "[";
  for (int d = 0; d < t->ndim; ++d) s += (d ? ", " : "") + std::to_string(t->shape[d]);
  return s + "]";
}

// A host tensor whose elements lie row-major without gaps (where the kernel's buffers copy from).
bool compact_on_host(const DLTensor* t) {
  if (!t || t->device.device_type != kDLCPU || t->dtype.lanes != 1) return false;
  if (!t->strides) return true;
  int64_t expect = 1;
  for (int d = t->ndim - 1; d >= 0; --d) {
    if (t->shape[d] != 1 && t->strides[d] != expect) return false;
    expect *= t->shape[d];
  }
  return true;
}

// The element type of `t`; nullopt for one attnc does not use.
std::optional<ScalarType> element_type(const DLTensor* t) {
  try {
    return dl_scalar_type(t->dtype);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// Q, K, V as the shader reads them: f16 bytes when the module stores f16, f32 otherwise.
std::vector<uint8_t> io_bytes(const DLTensor* t, ScalarType type, bool f16_io) {
  const int64_t n = numel(t);
  const uint8_t* p = data_of(t);
  if (type == ScalarType::F32 || f16_io) return std::vector<uint8_t>(p, p + n * (f16_io ? 2 : 4));
  std::vector<uint8_t> b(static_cast<size_t>(n) * 4);
  const uint16_t* h = reinterpret_cast<const uint16_t*>(p);
  float* f = reinterpret_cast<float*>(b.data());
  for (int64_t i = 0; i < n; ++i) f[i] = type == ScalarType::BF16 ? bf16_to_f32(h[i]) : f16_to_f32(h[i]);
  return b;
}

// A tensor argument's words: i32 and f32 as they are, bool and uint8 as 0/1 words.
std::vector<uint8_t> buffer_bytes(const DLTensor* t) {
  const int64_t n = numel(t);
  const uint8_t* p = data_of(t);
  if (t->dtype.bits == 32) return std::vector<uint8_t>(p, p + n * 4);
  std::vector<uint8_t> b(static_cast<size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t w = p[i] != 0;
    std::memcpy(b.data() + i * 4, &w, 4);
  }
  return b;
}

class VulkanModule final : public VulkanKernelModule {
 public:
  VulkanModule(std::shared_ptr<vk::VulkanDevice> device, std::shared_ptr<const vk::Pipeline> pipeline,
               KernelLayout layout)
      : device_(std::move(device)), pipeline_(std::move(pipeline)), layout_(std::move(layout)) {
    for (const KernelArgSlot& a : layout_.args) (a.kind == KernelArgSlot::Buffer ? buffers_ : scalars_)++;
  }

  int invoke(const attn_kernel_args* args) const override { return dispatch(args, 1, nullptr); }

  int dispatch_at(const attn_kernel_args* a, const Place& place, int repeat, double* gpu_ms) const override {
    if (gpu_ms) *gpu_ms = -1;
    if (!a || a->abi_version < 1 || a->abi_version > ATTN_KERNEL_ABI_VERSION)
      return fail(a, kVulkanBadArguments, "attn_kernel_args version mismatch");
    if ((a->abi_version >= 5 && (a->cu_seqlens_q || a->cu_seqlens_k)) ||
        (a->abi_version >= 6 && (a->page_table || a->kv_lens)))
      return fail(a, kVulkanBadArguments,
                  "a vulkan module takes dense batches: run a ragged batch or paged cache one sequence at a "
                  "time (attnc's vulkan target does)");
    if (a->abi_version >= 7 && (a->q_descale || a->k_descale || a->v_descale))
      return fail(a, kVulkanBadArguments,
                  "the vulkan target runs no fp8 kernel, and descale factors are for fp8 kernels (the cpu "
                  "target's)");
    const std::string why = check(*a);
    if (!why.empty()) return fail(a, kVulkanBadArguments, why);
    const int64_t B = a->q->shape[0], Hq = a->q->shape[1], Lq = a->q->shape[2];
    const int64_t Hkv = a->k->shape[1], Lkv = a->k->shape[2];
    if (B * Hq * Lq == 0) return 0;

    // Bindings: Q, K, V, Out, LSE, argument words, error record, tensor arguments, and the row
    // maxima of a return_max kernel.
    const size_t max_binding = vk::kFirstBuffer + static_cast<size_t>(buffers_);
    std::vector<std::vector<uint8_t>> data(max_binding + (layout_.max ? 1 : 0));
    if (layout_.max) data[max_binding].resize(static_cast<size_t>(B * Hq * Lq) * 4);
    const ScalarType io = *element_type(a->q);
    data[vk::kQ] = io_bytes(a->q, io, layout_.f16_io);
    data[vk::kK] = io_bytes(a->k, io, layout_.f16_io);
    data[vk::kV] = io_bytes(a->v, io, layout_.f16_io);
    data[vk::kOut].resize(static_cast<size_t>(numel(a->out)) * (layout_.f16_io ? 2 : 4));
    data[vk::kLse].resize(layout_.lse ? static_cast<size_t>(B * Hq * Lq) * 4 : 4);
    std::vector<int32_t> words(static_cast<size_t>(layout_.arg_words));
    int buffer = 0, scalar = 0;
    for (const KernelArgSlot& s : layout_.args) {
      if (s.kind == KernelArgSlot::Buffer) {
        const DLTensor* t = a->buffers[buffer];
        for (int d = 0; d < s.rank; ++d)
          words[static_cast<size_t>(s.offset + d)] = static_cast<int32_t>(t->shape[d]);
        data[vk::kFirstBuffer + static_cast<size_t>(buffer++)] = buffer_bytes(t);
        continue;
      }
      const double v = a->scalars[scalar++];
      if (s.kind == KernelArgSlot::F32) {
        const float f = static_cast<float>(v);
        std::memcpy(&words[static_cast<size_t>(s.offset)], &f, 4);
      } else {
        words[static_cast<size_t>(s.offset)] =
            s.kind == KernelArgSlot::Bool ? v != 0 : static_cast<int32_t>(v);
      }
    }
    data[vk::kArgs].resize(words.size() * 4);
    if (!words.empty()) std::memcpy(data[vk::kArgs].data(), words.data(), words.size() * 4);
    data[vk::kError].assign(vk::kErrorWords * 4, 0);

    vk::Dispatch d;
    for (size_t i = 0; i < data.size(); ++i)
      d.buffers.push_back({&data[i], i == vk::kOut || i == vk::kLse || i == vk::kError || i == max_binding});
    const int32_t push[vk::kPushWords] = {
        static_cast<int32_t>(B),        static_cast<int32_t>(Hq),
        static_cast<int32_t>(Hkv),      static_cast<int32_t>(Lq),
        static_cast<int32_t>(Lkv),      static_cast<int32_t>(place.b0),
        static_cast<int32_t>(place.q0), static_cast<int32_t>(place.q_len < 0 ? Lq : place.q_len)};
    d.push_constants.resize(sizeof push);
    std::memcpy(d.push_constants.data(), push, sizeof push);
    d.groups[0] = static_cast<uint32_t>((Lq + layout_.rows - 1) / layout_.rows);
    d.groups[1] = static_cast<uint32_t>(Hq);
    d.groups[2] = static_cast<uint32_t>(B);
    d.repeat = repeat;
    double ms = -1;
    try {
      ms = device_->run(*pipeline_, d);
    } catch (const vk::VulkanError& e) {
      return fail(a, kVulkanFailed, e.what());
    }
    if (gpu_ms) *gpu_ms = ms;

    int32_t err[vk::kErrorWords];
    std::memcpy(err, data[vk::kError].data(), sizeof err);
    if (err[0] == vk::kSubgroupTooSmall)
      return fail(a, kVulkanSubgroupTooSmall,
                  "the device ran kernel '" + layout_.entry + "' with subgroups smaller than it reported");
    if (err[0]) return fail(a, kVulkanIndexOutOfRange, out_of_range(err));
    unpack(data[vk::kOut], io, a->out);
    if (layout_.lse && a->lse)
      std::memcpy(const_cast<uint8_t*>(data_of(a->lse)), data[vk::kLse].data(), data[vk::kLse].size());
    if (layout_.max && row_maxima(*a))
      std::memcpy(const_cast<uint8_t*>(data_of(row_maxima(*a))), data[max_binding].data(),
                  data[max_binding].size());
    return 0;
  }

 private:
  // The call's row maxima (ABI version 4), or null.
  static const DLTensor* row_maxima(const attn_kernel_args& a) {
    return a.abi_version >= 4 ? a.max : nullptr;
  }

  // Why the tensors do not fit this kernel, or "".
  std::string check(const attn_kernel_args& a) const {
    const DLTensor* qkvo[] = {a.q, a.k, a.v, a.out};
    for (const DLTensor* t : qkvo) {
      if (!t || t->ndim != 4) return "q, k, v and out must be 4-D tensors [B, H, L, D]";
      if (!compact_on_host(t))
        return "the vulkan target takes compact row-major tensors in host memory (kDLCPU)";
      if (element_type(t) != element_type(a.q)) return "q, k, v and out must have one element type";
    }
    const std::optional<ScalarType> io = element_type(a.q);
    if (layout_.f16_io && io != ScalarType::F16) return "the kernel was built for f16 q, k, v and out";
    if (io != ScalarType::F32 && io != ScalarType::F16 && io != ScalarType::BF16)
      return "q, k, v and out must be f32, f16 or bf16";
    const int64_t* q = a.q->shape;
    const int64_t *k = a.k->shape, *v = a.v->shape, *o = a.out->shape;
    if (q[3] != layout_.head_dim || k[3] != layout_.head_dim || v[3] != layout_.value_dim)
      return "the kernel was built for head_dim " + std::to_string(layout_.head_dim) + " and value_dim " +
             std::to_string(layout_.value_dim);
    if (k[0] != q[0] || v[0] != q[0] || v[1] != k[1] || v[2] != k[2] || o[0] != q[0] || o[1] != q[1] ||
        o[2] != q[2] || o[3] != v[3])
      return "the shapes of q, k, v and out do not agree";
    if (k[1] <= 0 || q[1] % k[1] != 0) return "query heads must be a multiple of key/value heads";
    for (const DLTensor* rows : {static_cast<const DLTensor*>(a.lse), row_maxima(a)})
      if (rows && (rows->ndim != 3 || !compact_on_host(rows) || element_type(rows) != ScalarType::F32 ||
                   rows->shape[0] != q[0] || rows->shape[1] != q[1] || rows->shape[2] != q[2]))
        return std::string(rows == a.lse ? "lse" : "max") + " must be a compact f32 host tensor [B, Hq, Lq]";
    const int64_t limit = int64_t(1) << 31;
    for (const DLTensor* t : qkvo)
      if (numel(t) >= limit)
        return "tensor " + shape_of(t) +
               " has 2^31 elements or more: too large for the Vulkan kernel's 32-bit indexing";
    if (a.num_buffers != buffers_ || a.num_scalars != scalars_ || (buffers_ && !a.buffers) ||
        (scalars_ && !a.scalars))
      return "kernel '" + layout_.entry + "' takes " + std::to_string(buffers_) + " tensor and " +
             std::to_string(scalars_) + " scalar arguments";
    int i = 0;
    for (const KernelArgSlot& s : layout_.args) {
      if (s.kind != KernelArgSlot::Buffer) continue;
      const DLTensor* t = a.buffers[i++];
      if (!t || t->ndim != s.rank || !compact_on_host(t))
        return "argument '" + s.name + "' must be a compact " + std::to_string(s.rank) + "-D host tensor";
      const std::optional<ScalarType> type = element_type(t);
      if (type != ScalarType::I32 && type != ScalarType::F32 && type != ScalarType::Bool &&
          type != ScalarType::U8)
        return "argument '" + s.name + "' must be i32, f32 or bool";
      for (int d = 0; d < t->ndim; ++d)
        if (t->shape[d] >= limit) return "argument '" + s.name + "' is too large for 32-bit indexing";
    }
    return "";
  }

  // The error record's message, naming the buffer like the reference does.
  std::string out_of_range(const int32_t* err) const {
    std::string name = "?";
    int ordinal = 0;
    for (const KernelArgSlot& s : layout_.args)
      if (s.kind == KernelArgSlot::Buffer && ordinal++ == err[1]) name = s.name;
    return "buffer '" + name + "' index " + std::to_string(err[3]) + " is out of range [0, " +
           std::to_string(err[4]) + ") in dimension " + std::to_string(err[2]) +
           " (at b=" + std::to_string(err[5]) + " h=" + std::to_string(err[6]) +
           " q=" + std::to_string(err[7]) + " kv=" + std::to_string(err[8]) + ")";
  }

  // Out as the shader wrote it (f16, or f32) into the caller's tensor of its element type.
  void unpack(const std::vector<uint8_t>& from, ScalarType type, DLTensor* out) const {
    uint8_t* to = const_cast<uint8_t*>(data_of(out));
    if (layout_.f16_io || type == ScalarType::F32) {
      std::memcpy(to, from.data(), from.size());
      return;
    }
    const float* f = reinterpret_cast<const float*>(from.data());
    uint16_t* h = reinterpret_cast<uint16_t*>(to);
    for (int64_t i = 0; i < numel(out); ++i)
      h[i] = type == ScalarType::BF16 ? f32_to_bf16(f[i]) : f32_to_f16(f[i]);
  }

  std::shared_ptr<vk::VulkanDevice> device_;
  std::shared_ptr<const vk::Pipeline> pipeline_;
  KernelLayout layout_;
  int buffers_ = 0, scalars_ = 0;
};

class VulkanCompiler final : public Compiler {
 public:
  std::string target() const override { return "vulkan"; }

  std::string fingerprint(const KernelRequest&) const override {
    return "vulkan device " + device()->identity();
  }

  std::vector<uint8_t> compile(const KernelRequest& request) const override {
    KernelLayout layout = parse(request, LoadErrorKind::CompileFailed);
    std::vector<uint8_t> blob;
    std::shared_ptr<const vk::Pipeline> pipeline = build(layout, {}, &blob, LoadErrorKind::CompileFailed);
    // load() follows at once: hand it this pipeline rather than build it a second time.
    std::lock_guard<std::mutex> lock(mutex_);
    built_[source_digest(request)] = std::move(pipeline);
    return blob;
  }

  std::shared_ptr<const KernelModule> load(const std::vector<uint8_t>& artifact,
                                           const KernelRequest& request) const override {
    std::shared_ptr<const vk::Pipeline> pipeline;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = built_.find(source_digest(request));
      if (it != built_.end()) {
        pipeline = std::move(it->second);
        built_.erase(it);
      }
    }
    KernelLayout layout = parse(request, LoadErrorKind::LoadFailed);
    if (layout.entry != request.entry)
      throw LoadError(LoadErrorKind::MissingEntry,
                      "the module's kernel is '" + layout.entry + "', not '" + request.entry + "'");
    if (!pipeline) pipeline = build(layout, artifact, nullptr, LoadErrorKind::LoadFailed);
    return std::make_shared<VulkanModule>(device(), std::move(pipeline), std::move(layout));
  }

 private:
  std::shared_ptr<vk::VulkanDevice> device() const {
    try {
      return vk::VulkanDevice::get();
    } catch (const vk::VulkanError& e) {
      throw LoadError(LoadErrorKind::LoadFailed, e.what());
    }
  }

  static KernelLayout parse(const KernelRequest& request, LoadErrorKind kind) {
    try {
      return vk::parse_vulkan_kernel(request.source);
    } catch (const std::invalid_argument& e) {
      throw LoadError(kind, "kernel '" + request.entry + "': " + e.what());
    }
  }

  std::shared_ptr<const vk::Pipeline> build(const KernelLayout& layout, const std::vector<uint8_t>& blob,
                                            std::vector<uint8_t>* blob_out, LoadErrorKind kind) const {
    int buffers = 0;
    for (const KernelArgSlot& a : layout.args) buffers += a.kind == KernelArgSlot::Buffer;
    try {
      return device()->build_pipeline(
          layout.spirv, vk::kFirstBuffer + static_cast<uint32_t>(buffers) + (layout.max ? 1 : 0),
          vk::kPushWords * 4, blob, blob_out);
    } catch (const vk::VulkanError& e) {
      throw LoadError(kind, "building the pipeline of kernel '" + layout.entry + "' failed: " + e.what());
    }
  }

  static std::string source_digest(const KernelRequest& request) {
    return to_hex(sha256(request.source.data(), request.source.size())) + request.entry;
  }

  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const vk::Pipeline>> built_;
};

}  // namespace

std::unique_ptr<Compiler> make_vulkan_compiler() { return std::make_unique<VulkanCompiler>(); }

}  // namespace attn
