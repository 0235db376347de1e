// run_vulkan: the kernel's module for the device through attn::Loader (one pipeline per kernel
// in memory, its pipeline-cache blob on disk), called on DLPack views of the inputs.
#include "backends/spirv/RunVulkan.h"

#include <map>
#include <mutex>

#include "attn/loader.hpp"
#include "backends/io/KernelIO.h"
#include "backends/io/PerSequence.h"
#include "backends/spirv/SpirvKernel.h"
#include "backends/spirv/VulkanRequest.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/VulkanCompiler.h"
#include "runtime/VulkanLauncher.h"

namespace attn {

namespace {

// Requests by kernel hash and configuration, for the life of the process: the SPIR-V optimizer
// runs once per module.
const KernelRequest& compiled(const KernelIR& ir, const spirv::SpirvConfig& c) {
  static std::mutex mutex;
  static std::map<std::string, KernelRequest> cache;
  std::string key = kernel_hash(ir) + "/" + std::to_string(c.head_dim) + "/" + std::to_string(c.value_dim) +
                    "/" + std::to_string(c.lanes) + "/" + std::to_string(c.rows) + "/" +
                    std::to_string(c.block_kv) + "/" + std::to_string(c.f16_io) + "/" +
                    std::to_string(c.shared_tiles) + "/" + std::to_string(c.unroll_chunks) + "/" +
                    std::to_string(c.block_sparse) + "/" + std::to_string(c.spirv_version);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, spirv::vulkan_request(ir, spirv::compile_spirv(ir, c))).first;
  return it->second;
}

}  // namespace

const KernelRequest& vulkan_device_request(const KernelIR& ir, int head_dim, int value_dim,
                                           const VulkanRunOptions& options) {
  const vk::DeviceInfo& info = vk::VulkanDevice::get()->info();
  spirv::SpirvTarget target;
  target.vulkan_minor = info.api_minor;
  target.subgroup_size = !options.subgroups             ? 0
                         : options.assume_subgroup_size ? options.assume_subgroup_size
                                                        : info.subgroup_size;
  target.f16_storage = options.f16_storage && info.f16_storage;
  target.shared_bytes = info.shared_bytes;
  target.cpu = info.type == "cpu" && !options.shared_tiles_on_cpu;
  return compiled(ir, spirv::choose_config(ir, target, head_dim, value_dim));
}

namespace {

// `t` [B, H, L, C] of an FP8 kernel as f32, each (batch entry b, head h) times its factor in
// `descale` ([1], or [entries, Hkv] from entry b0 on, head h / group; none: 1).
HostTensor dequantized(const HostTensor& t, const HostTensor& descale, int64_t b0, int64_t Hkv,
                       int64_t group) {
  HostTensor f(ScalarType::F32, t.shape);
  const int64_t B = t.shape[0], H = t.shape[1], plane = t.shape[2] * t.shape[3];
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      const double factor = descale_factor(descale, b0 + b, h / group, Hkv);
      for (int64_t i = (b * H + h) * plane; i < (b * H + h + 1) * plane; ++i) f.set(i, t.get(i) * factor);
    }
  return f;
}

KernelOutputs run_dense(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                        VulkanRunStats* stats, const SequencePlace& place);

// An FP8 kernel, converted on load (docs/spirv.md): Q, K and V dequantized on the host, the kernel
// run as f32, Out rounded to bf16.
KernelOutputs run_fp8(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                      VulkanRunStats* stats, const SequencePlace& place) {
  const int64_t Hq = in.q.shape[1], Hkv = in.k.shape[1];
  KernelInputs f32;
  f32.q = dequantized(in.q, in.q_descale, place.b, Hkv, Hq / Hkv);
  f32.k = dequantized(in.k, in.k_descale, place.b, Hkv, 1);
  f32.v = dequantized(in.v, in.v_descale, place.b, Hkv, 1);
  f32.buffers = in.buffers, f32.scalars = in.scalars;
  KernelOutputs out = run_dense(*with_dtype(ir, DType::F32), f32, options, stats, place);
  HostTensor rounded(out_scalar_type(ir.options.dtype), out.out.shape);
  for (int64_t i = 0; i < rounded.numel(); ++i) rounded.set(i, out.out.get(i));
  out.out = std::move(rounded);
  return out;
}

// A dense batch at `place` (the whole call's, or one sequence's as a batch of one).
KernelOutputs run_dense(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                        VulkanRunStats* stats, const SequencePlace& place) {
  if (is_fp8(ir.options.dtype)) return run_fp8(ir, in, options, stats, place);
  const int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], D = in.q.shape[3];
  const int64_t Dv = in.v.shape[3];
  KernelOutputs result = make_outputs(ir, in);
  if (B * Hq * Lq == 0) return result;

  Kernel kernel;
  try {
    kernel =
        process_loader().get(vulkan_device_request(ir, static_cast<int>(D), static_cast<int>(Dv), options));
  } catch (const LoadError& e) {
    throw vk::VulkanError(e.what());
  }

  KernelCallArgs call(call_tensors(ir, in, result));
  const auto& module = *static_cast<const VulkanKernelModule*>(kernel.module());
  const VulkanKernelModule::Place at{place.b, place.q0, place.q_len};
  const bool placed = place.b != 0 || place.q0 != 0 || place.q_len != Lq;
  double ms = -1;
  // The timed or placed dispatch only when needed: kernel() records the launch in the flight recorder.
  const int status = options.repeat > 1 || stats || placed
                         ? module.dispatch_at(&call.args(), at, options.repeat, &ms)
                         : kernel(call.args());
  switch (status) {
    case 0: break;
    case kVulkanSubgroupTooSmall: {
      // The driver chose smaller subgroups than it reported: one invocation per row always works.
      VulkanRunOptions fallback = options;
      fallback.subgroups = false;
      return run_dense(ir, in, fallback, stats, place);
    }
    case kVulkanIndexOutOfRange: throw EvalError(call.error());
    case kVulkanBadArguments: throw InputError(call.error());
    default: throw vk::VulkanError(call.error());
  }
  if (stats) {
    stats->gpu_ms = ms;
    stats->device = vk::VulkanDevice::get()->info().name;
  }
  return result;
}

}  // namespace

KernelOutputs run_vulkan_at(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                            const SequencePlace& place) {
  validate_inputs(ir, in);
  return run_dense(ir, in, options, nullptr, place);
}

KernelOutputs run_vulkan(const KernelIR& ir, const KernelInputs& in, const VulkanRunOptions& options,
                         VulkanRunStats* stats) {
  validate_inputs(ir, in);
  // A ragged batch or paged cache: each sequence as a batch of one at its place (its rows copied).
  if (in.ragged())
    return run_by_sequence(ir, in, [&](const KernelInputs& one, const SequencePlace& at) {
      return run_dense(ir, one, options, stats, at);
    });
  return run_dense(ir, in, options, stats, {0, 0, in.q.shape[2]});
}

}  // namespace attn
