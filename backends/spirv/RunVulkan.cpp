// run_vulkan: packs HostTensors into storage buffers, dispatches the compiled shader, unpacks.
#include "backends/spirv/RunVulkan.h"

#include <cstring>
#include <map>
#include <mutex>

#include "backends/io/KernelIO.h"
#include "backends/spirv/SpirvKernel.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/VulkanLauncher.h"

namespace attn {

namespace {

using spirv::SpirvKernel;

std::vector<uint8_t> words_bytes(const std::vector<int32_t>& w) {
  std::vector<uint8_t> b(w.size() * 4);
  if (!w.empty()) std::memcpy(b.data(), w.data(), b.size());  // no memcpy from a null pointer
  return b;
}

// Q/K/V as the shader reads them: f16 bytes when the device stores f16, f32 otherwise.
std::vector<uint8_t> io_bytes(const HostTensor& t, bool f16_io) {
  if (t.type == ScalarType::F32 || (f16_io && t.type == ScalarType::F16)) return t.bytes;
  std::vector<uint8_t> b(static_cast<size_t>(t.numel()) * 4);
  float* f = reinterpret_cast<float*>(b.data());
  for (int64_t i = 0; i < t.numel(); ++i) f[i] = static_cast<float>(t.get(i));
  return b;
}

std::vector<uint8_t> buffer_bytes(const HostTensor& t) {
  // Bool buffers (NumPy bool or uint8: validated inputs have no other u8 tensors) travel as 0/1 words.
  if (t.type != ScalarType::Bool && t.type != ScalarType::U8) return t.bytes;
  std::vector<int32_t> w(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) w[static_cast<size_t>(i)] = t.get(i) != 0;
  return words_bytes(w);
}

// Compiled kernels by kernel hash and configuration, for the life of the process.
const SpirvKernel& compiled(const KernelIR& ir, const spirv::SpirvConfig& c) {
  static std::mutex mutex;
  static std::map<std::string, SpirvKernel> cache;
  std::string key = kernel_hash(ir) + "/" + std::to_string(c.head_dim) + "/" + std::to_string(c.value_dim) +
                    "/" + std::to_string(c.lanes) + "/" + std::to_string(c.rows) + "/" +
                    std::to_string(c.block_kv) + "/" + std::to_string(c.f16_io) + "/" +
                    std::to_string(c.shared_tiles) + "/" + std::to_string(c.unroll_chunks) + "/" +
                    std::to_string(c.block_sparse) + "/" + std::to_string(c.spirv_version);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, spirv::compile_spirv(ir, c)).first;
  return it->second;
}

}  // namespace

KernelOutputs run_vulkan(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                         VulkanRunStats* stats) {
  validate_inputs(ir, in);
  const int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], D = in.q.shape[3];
  const int64_t Hkv = in.k.shape[1], Lkv = in.k.shape[2], Dv = in.v.shape[3];
  KernelOutputs result;
  result.out = HostTensor(in.q.type, {B, Hq, Lq, Dv});
  if (ir.options.lse) result.lse = HostTensor(ScalarType::F32, {B, Hq, Lq});
  if (B * Hq * Lq == 0) return result;
  const int64_t limit = int64_t(1) << 31;
  for (const HostTensor* t : {&in.q, &in.k, &in.v, static_cast<const HostTensor*>(&result.out)})
    if (t->numel() >= limit)
      throw InputError("tensor " + t->shape_string() +
                       " has 2^31 elements or more: too large for the Vulkan kernel's 32-bit indexing");

  auto device = vk::VulkanDevice::get();
  const vk::DeviceInfo& info = device->info();
  spirv::SpirvTarget target;
  target.vulkan_minor = info.api_minor;
  target.subgroup_size = !options.subgroups             ? 0
                         : options.assume_subgroup_size ? options.assume_subgroup_size
                                                        : info.subgroup_size;
  target.f16_storage = options.f16_storage && info.f16_storage;
  target.shared_bytes = info.shared_bytes;
  target.cpu = info.type == "cpu" && !options.shared_tiles_on_cpu;
  spirv::SpirvConfig config = spirv::choose_config(ir, target, static_cast<int>(D), static_cast<int>(Dv));
  const SpirvKernel& kernel = compiled(ir, config);

  // Bindings: Q, K, V, Out, LSE, argument words, error record, tensor arguments.
  std::vector<std::vector<uint8_t>> data(spirv::kFirstBuffer + kernel.buffers.size());
  data[spirv::kQ] = io_bytes(in.q, config.f16_io);
  data[spirv::kK] = io_bytes(in.k, config.f16_io);
  data[spirv::kV] = io_bytes(in.v, config.f16_io);
  data[spirv::kOut].resize(static_cast<size_t>(result.out.numel()) * (config.f16_io ? 2 : 4));
  data[spirv::kLse].resize(ir.options.lse ? static_cast<size_t>(B * Hq * Lq) * 4 : 4);
  std::vector<int32_t> words(static_cast<size_t>(kernel.arg_words));
  for (size_t i = 0; i < ir.args.size(); ++i) {
    const KernelArg& a = ir.args[i];
    size_t at = static_cast<size_t>(kernel.arg_offsets[i]);
    if (a.kind == KernelArg::Kind::Buffer) {
      const HostTensor& t = in.buffers.at(a.name);
      for (size_t d = 0; d < t.shape.size(); ++d) {
        if (t.shape[d] >= limit)
          throw InputError("argument '" + a.name + "' is too large for 32-bit indexing");
        words[at + d] = static_cast<int32_t>(t.shape[d]);
      }
      continue;
    }
    double v = in.scalars.at(a.name);
    if (a.elem == ElemType::F32) {
      float f = static_cast<float>(v);
      std::memcpy(&words[at], &f, 4);
    } else {
      words[at] = a.elem == ElemType::Bool ? v != 0 : static_cast<int32_t>(v);
    }
  }
  data[spirv::kArgs] = words_bytes(words);
  data[spirv::kError].assign(spirv::kErrorWords * 4, 0);
  for (size_t i = 0; i < kernel.buffers.size(); ++i)
    data[spirv::kFirstBuffer + i] = buffer_bytes(in.buffers.at(kernel.buffers[i]));

  vk::Dispatch d;
  d.spirv = &kernel.words;
  for (size_t i = 0; i < data.size(); ++i)
    d.buffers.push_back({&data[i], i == spirv::kOut || i == spirv::kLse || i == spirv::kError});
  int32_t push[spirv::kPushWords] = {static_cast<int32_t>(B), static_cast<int32_t>(Hq),
                                     static_cast<int32_t>(Hkv), static_cast<int32_t>(Lq),
                                     static_cast<int32_t>(Lkv)};
  d.push_constants.resize(sizeof push);
  std::memcpy(d.push_constants.data(), push, sizeof push);
  d.groups[0] = static_cast<uint32_t>((Lq + config.rows - 1) / config.rows);
  d.groups[1] = static_cast<uint32_t>(Hq);
  d.groups[2] = static_cast<uint32_t>(B);
  d.repeat = options.repeat;
  double ms = device->run(d);
  if (stats) {
    stats->gpu_ms = ms;
    stats->device = info.name;
  }

  const int32_t* err = reinterpret_cast<const int32_t*>(data[spirv::kError].data());
  if (err[0] == spirv::kSubgroupTooSmall) {
    // The driver chose smaller subgroups than it reported: one invocation per row always works.
    VulkanRunOptions fallback = options;
    fallback.subgroups = false;
    return run_vulkan(ir, in, fallback, stats);
  }
  if (err[0]) {
    std::string name =
        err[1] >= 0 && static_cast<size_t>(err[1]) < kernel.buffers.size() ? kernel.buffers[err[1]] : "?";
    throw EvalError("buffer '" + name + "' index " + std::to_string(err[3]) + " is out of range [0, " +
                    std::to_string(err[4]) + ") in dimension " + std::to_string(err[2]) +
                    " (at b=" + std::to_string(err[5]) + " h=" + std::to_string(err[6]) +
                    " q=" + std::to_string(err[7]) + " kv=" + std::to_string(err[8]) + ")");
  }
  const std::vector<uint8_t>& out = data[spirv::kOut];
  if (config.f16_io) {
    std::memcpy(result.out.bytes.data(), out.data(), out.size());
  } else {
    const float* f = reinterpret_cast<const float*>(out.data());
    for (int64_t i = 0; i < result.out.numel(); ++i) result.out.set(i, f[i]);
  }
  if (ir.options.lse) std::memcpy(result.lse.bytes.data(), data[spirv::kLse].data(), result.lse.bytes.size());
  return result;
}

}  // namespace attn
