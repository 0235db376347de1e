// run_vulkan_backward: the forward through run_vulkan, then the backward's two modules on
// VulkanDevice directly (their bindings are not the forward's layout), f32 buffers in and out.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "backends/io/KernelIO.h"
#include "backends/io/PerSequence.h"
#include "backends/reference/Reference.h"
#include "backends/spirv/RunVulkan.h"
#include "backends/spirv/SpirvBackward.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/VulkanLauncher.h"

namespace attn {

namespace {

// The backward's modules and their pipelines for one kernel, configuration and request.
struct BackwardPipelines {
  spirv::SpirvBackward modules;
  std::shared_ptr<const vk::Pipeline> query_major, key_major;
};

const BackwardPipelines& pipelines(const KernelIR& ir, const spirv::SpirvConfig& c,
                                   const std::vector<std::string>& grads, vk::VulkanDevice& device) {
  static std::mutex mutex;
  static std::map<std::string, BackwardPipelines> cache;
  std::string key = kernel_hash(ir) + "/" + std::to_string(c.head_dim) + "/" + std::to_string(c.value_dim) +
                    "/" + std::to_string(c.unroll_chunks) + "/" + std::to_string(c.spirv_version);
  for (const std::string& g : grads) key += "/" + g;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  BackwardPipelines p;
  p.modules = spirv::compile_spirv_backward(ir, c, grads);
  const uint32_t bindings = spirv::kFirstBuffer + static_cast<uint32_t>(p.modules.query_major.buffers.size());
  const uint32_t push = spirv::kPushWords * 4;
  p.query_major =
      device.build_pipeline(p.modules.query_major.words, bindings + spirv::kDq + 1, push, {}, nullptr);
  p.key_major = device.build_pipeline(p.modules.key_major.words,
                                      bindings + (grads.empty() ? spirv::kDv : spirv::kPartials) + 1, push,
                                      {}, nullptr);
  return cache.emplace(key, std::move(p)).first->second;
}

// `t`'s elements as f32 words (Q, K, V, dOut of any float dtype; f32 tensor arguments).
std::vector<uint8_t> f32_bytes(const HostTensor& t) {
  std::vector<uint8_t> b(static_cast<size_t>(t.numel()) * 4);
  float* f = reinterpret_cast<float*>(b.data());
  for (int64_t i = 0; i < t.numel(); ++i) f[i] = static_cast<float>(t.get(i));
  return b;
}

// A tensor argument's words: f32 as floats, i32 as they are, bool as 0/1.
std::vector<uint8_t> argument_bytes(const HostTensor& t) {
  if (t.type == ScalarType::F32) return f32_bytes(t);
  std::vector<uint8_t> b(static_cast<size_t>(t.numel()) * 4);
  int32_t* w = reinterpret_cast<int32_t*>(b.data());
  for (int64_t i = 0; i < t.numel(); ++i) w[i] = static_cast<int32_t>(t.get(i));
  return b;
}

// f32 words into `t` (its dtype).
void unpack(const std::vector<uint8_t>& from, HostTensor& t) {
  const float* f = reinterpret_cast<const float*>(from.data());
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, f[i]);
}

// The backward of a dense batch at `place` (the whole call's, or one sequence's as a batch of one).
KernelGradients backward_dense(const KernelIR& ir, const KernelInputs& in, const GradientRequest& request,
                               const VulkanRunOptions& options, const SequencePlace& place) {
  const int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], D = in.q.shape[3];
  const int64_t Hkv = in.k.shape[1], Lkv = in.k.shape[2], Dv = in.v.shape[3];
  KernelGradients grads = make_gradients(ir, in, request);
  if (B * Hq * Lq == 0) return grads;

  // The forward with its LSE, whether or not the kernel returns it.
  KernelIR with_lse = ir;
  with_lse.options.lse = true;
  if (Lkv == 0) {  // only a sink takes part (Out 0, LSE the sink's logit)
    const KernelOutputs none = run_reference(with_lse, in, 1, &place);
    add_sink_gradients(ir, in, none.out, none.lse, request, grads, place.b);
    return grads;
  }
  const KernelOutputs fwd = run_vulkan_at(with_lse, in, options, place);

  // D - dLSE per row, summed in order.
  const int64_t rows = B * Hq * Lq;
  std::vector<uint8_t> delta(static_cast<size_t>(rows) * 4);
  for (int64_t r = 0; r < rows; ++r) {
    double d = 0;
    for (int64_t c = 0; c < Dv; ++c) d += request.dout.get(r * Dv + c) * fwd.out.get(r * Dv + c);
    if (!request.dlse.shape.empty()) d -= request.dlse.get(r);
    const float f = static_cast<float>(d);
    std::memcpy(delta.data() + r * 4, &f, 4);
  }

  std::shared_ptr<vk::VulkanDevice> device = vk::VulkanDevice::get();
  const vk::DeviceInfo& info = device->info();
  spirv::SpirvTarget target;
  target.vulkan_minor = info.api_minor;
  target.shared_bytes = info.shared_bytes;
  target.cpu = info.type == "cpu";
  const spirv::SpirvConfig config =
      spirv::choose_backward_config(ir, target, static_cast<int>(D), static_cast<int>(Dv));
  // The requested buffers in declaration order: the partials' layout.
  std::vector<std::string> wanted;
  int64_t stride = 0;
  for (const KernelArg& a : ir.args)
    if (grads.buffers.count(a.name)) {
      wanted.push_back(a.name);
      stride += in.buffers.at(a.name).numel();
    }
  const int64_t partial_words = B * Hkv * Lkv * stride;
  if (partial_words >= (int64_t(1) << 31))
    throw InputError("the Vulkan backward's buffer-gradient partials (" + std::to_string(B * Hkv * Lkv) +
                     " keys x " + std::to_string(stride) +
                     " elements) pass 32-bit indexing: ask for fewer or smaller buffer gradients");
  const BackwardPipelines& p = pipelines(ir, config, wanted, *device);
  const spirv::SpirvKernel& layout = p.modules.query_major;

  // Bindings: Q, K, V, dOut, LSE, argument words, error record, tensor arguments, Delta, then
  // the query-major module's Ties and dQ, or the key-major one's Ties, dK, dV, partials.
  std::vector<std::vector<uint8_t>> data(spirv::kFirstBuffer + layout.buffers.size() + 1);
  data[spirv::kQ] = f32_bytes(in.q);
  data[spirv::kK] = f32_bytes(in.k);
  data[spirv::kV] = f32_bytes(in.v);
  data[spirv::kOut] = f32_bytes(request.dout);
  data[spirv::kLse] = fwd.lse.bytes;
  std::vector<int32_t> words(static_cast<size_t>(std::max(layout.arg_words, 1)));
  size_t buffer = 0;
  for (size_t i = 0; i < ir.args.size(); ++i) {
    const KernelArg& a = ir.args[i];
    const size_t at = static_cast<size_t>(layout.arg_offsets[i]);
    if (a.kind == KernelArg::Kind::Buffer) {
      const HostTensor& t = in.buffers.at(a.name);
      for (size_t d = 0; d < t.shape.size(); ++d) words[at + d] = static_cast<int32_t>(t.shape[d]);
      data[spirv::kFirstBuffer + buffer++] = argument_bytes(t);
      continue;
    }
    const double v = in.scalars.at(a.name);
    if (a.elem == ElemType::F32) {
      const float f = static_cast<float>(v);
      std::memcpy(&words[at], &f, 4);
    } else {
      words[at] = a.elem == ElemType::Bool ? v != 0 : static_cast<int32_t>(v);
    }
  }
  data[spirv::kArgs].resize(words.size() * 4);
  std::memcpy(data[spirv::kArgs].data(), words.data(), words.size() * 4);
  data.back() = std::move(delta);
  const int32_t push[spirv::kPushWords] = {static_cast<int32_t>(B),
                                           static_cast<int32_t>(Hq),
                                           static_cast<int32_t>(Hkv),
                                           static_cast<int32_t>(Lq),
                                           static_cast<int32_t>(Lkv),
                                           static_cast<int32_t>(place.b),
                                           0 /* the queries start at position 0 */,
                                           static_cast<int32_t>(place.q_len)};

  // Runs one module with `outputs` (zeroed, of these sizes in bytes) after the common bindings;
  // returns them. An index out of range is an EvalError naming the buffer, like the reference's.
  auto dispatch = [&](const vk::Pipeline& pipeline, int64_t length, int64_t heads,
                      const std::vector<int64_t>& outputs) {
    std::vector<std::vector<uint8_t>> bufs = data;
    bufs[spirv::kError].assign(spirv::kErrorWords * 4, 0);
    for (int64_t bytes : outputs) bufs.emplace_back(static_cast<size_t>(std::max<int64_t>(bytes, 4)), 0);
    vk::Dispatch d;
    for (size_t i = 0; i < bufs.size(); ++i)
      d.buffers.push_back({&bufs[i], i == spirv::kError || i >= data.size()});
    d.push_constants.resize(sizeof push);
    std::memcpy(d.push_constants.data(), push, sizeof push);
    d.groups[0] = static_cast<uint32_t>((length + config.rows - 1) / config.rows);
    d.groups[1] = static_cast<uint32_t>(heads);
    d.groups[2] = static_cast<uint32_t>(B);
    device->run(pipeline, d);
    int32_t err[spirv::kErrorWords];
    std::memcpy(err, bufs[spirv::kError].data(), sizeof err);
    if (err[0]) {
      const std::string& name = layout.buffers.at(static_cast<size_t>(err[1]));
      throw EvalError("buffer '" + name + "' index " + std::to_string(err[3]) + " is out of range [0, " +
                      std::to_string(err[4]) + ") in dimension " + std::to_string(err[2]) +
                      " (at b=" + std::to_string(err[5]) + " h=" + std::to_string(err[6]) +
                      " q=" + std::to_string(err[7]) + " kv=" + std::to_string(err[8]) + ")");
    }
    return std::vector<std::vector<uint8_t>>(bufs.begin() + static_cast<int64_t>(data.size()), bufs.end());
  };

  auto dq = dispatch(*p.query_major, Lq, Hq, {rows * 4, rows * D * 4});
  unpack(dq[1], grads.dq);
  data.push_back(std::move(dq[0]));  // the key-major module reads the query-major one's Ties
  std::vector<int64_t> key_outputs = {B * Hkv * Lkv * D * 4, B * Hkv * Lkv * Dv * 4};
  if (!wanted.empty()) key_outputs.push_back(partial_words * 4);
  auto dkdv = dispatch(*p.key_major, Lkv, Hkv, key_outputs);
  unpack(dkdv[0], grads.dk);
  unpack(dkdv[1], grads.dv);
  if (wanted.empty()) return grads;
  // Each buffer element sums its keys' terms in key order.
  const float* part = reinterpret_cast<const float*>(dkdv[2].data());
  int64_t offset = 0;
  for (const std::string& name : wanted) {
    HostTensor& g = grads.buffers.at(name);
    for (int64_t e = 0; e < g.numel(); ++e) {
      double sum = 0;
      for (int64_t key = 0; key < B * Hkv * Lkv; ++key) sum += part[key * stride + offset + e];
      g.set(e, sum);
    }
    offset += g.numel();
  }
  add_sink_gradients(ir, in, fwd.out, fwd.lse, request, grads,
                     place.b);  // on the host: a few operations a row
  return grads;
}

}  // namespace

KernelGradients run_vulkan_backward(const KernelIR& ir, const KernelInputs& in,
                                    const GradientRequest& request, const VulkanRunOptions& options) {
  validate_inputs(ir, in);
  validate_gradient_request(ir, in, request);
  // A ragged batch: each sequence as a batch of one at its place (its rows copied).
  if (in.ragged())
    return backward_by_sequence(
        ir, in, request, [&](const KernelInputs& one, const GradientRequest& r, const SequencePlace& at) {
          return backward_dense(ir, one, r, options, at);
        });
  return backward_dense(ir, in, request, options, {0, 0, in.q.shape[2]});
}

}  // namespace attn
