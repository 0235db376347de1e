// The vulkan target's entry in the backend registry: offline SPIR-V modules and their C headers
// (`attnc compile -t vulkan`, with backward = true the backward's two modules too), their
// disassembly, run and the backward on the process's Vulkan device, and modules loaded through
// attn::Loader, retried on a module without subgroup shuffles when the driver runs smaller ones.
#include <cstdio>

#include "attn/kernel_abi.h"
#include "attn/loader.hpp"
#include "attn/vulkan.hpp"
#include "backends/Backend.h"
#include "backends/io/HostCopies.h"
#include "backends/io/KernelIO.h"
#include "backends/spirv/RunVulkan.h"
#include "backends/spirv/SpirvHeaders.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"

namespace attn {

namespace {

std::string bytes(const std::vector<uint32_t>& words) {
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4);
}

/// A module through the loader; once more on the module without subgroup shuffles if the driver
/// ran smaller subgroups than it reported (as run_vulkan does).
class VulkanLoadedKernel : public LoadedKernel {
 public:
  VulkanLoadedKernel(std::shared_ptr<const KernelIR> ir, Kernel kernel, Loader& loader, int head_dim,
                     int value_dim)
      : ir_(std::move(ir)),
        kernel_(std::move(kernel)),
        loader_(loader),
        head_dim_(head_dim),
        value_dim_(value_dim) {}
  int call(const attn_kernel_args& args, void*) const override {
    if ((args.abi_version >= 5 && (args.cu_seqlens_q || args.cu_seqlens_k)) ||
        (args.abi_version >= 6 && (args.page_table || args.kv_lens)) || is_fp8(ir_->options.dtype))
      return call_on_host_copies(args);
    const int status = kernel_(args);
    if (status != kVulkanSubgroupTooSmall) return status;
    VulkanRunOptions one_per_row;
    one_per_row.subgroups = false;
    try {
      return loader_.get(vulkan_device_request(*ir_, head_dim_, value_dim_, one_per_row))(args);
    } catch (const std::exception& e) {  // a call reports through args.error, as the module does
      if (args.error && args.error_size) std::snprintf(args.error, args.error_size, "%s", e.what());
      return kVulkanFailed;
    }
  }

  const Kernel* loaded() const override { return &kernel_; }

 private:
  /// A ragged batch or paged cache, or an FP8 kernel: host copies of the call, run_vulkan (one
  /// dispatch per sequence; FP8 converted on load), the outputs written back; errors reported
  /// through args.error as the module does.
  int call_on_host_copies(const attn_kernel_args& args) const {
    auto report = [&](int status, const char* what) {
      if (args.error && args.error_size) std::snprintf(args.error, args.error_size, "%s", what);
      return status;
    };
    try {
      const KernelOutputs out = run_vulkan(*ir_, read_call_inputs(*ir_, args));
      write_host_tensor(out.out, args.out, "out");
      if (args.lse && !out.lse.shape.empty()) write_host_tensor(out.lse, args.lse, "lse");
      return 0;
    } catch (const InputError& e) {
      return report(kVulkanBadArguments, e.what());
    } catch (const EvalError& e) {
      return report(kVulkanIndexOutOfRange, e.what());
    } catch (const std::exception& e) {
      return report(kVulkanFailed, e.what());
    }
  }

  std::shared_ptr<const KernelIR> ir_;
  Kernel kernel_;
  Loader& loader_;
  int head_dim_, value_dim_;
};

class VulkanTargetBackend : public Backend {
 public:
  const char* name() const override { return "vulkan"; }
  std::vector<std::string> old_names() const override { return {"spirv"}; }
  int default_head_dim() const override { return spirv::kSpirvDefaultHeadDim; }
  bool can(Capability c) const override { return c != Capability::Tune; }

  EmittedKernel emit(const KernelIR& ir, const EmitOptions& o) const override {
    if (is_fp8(ir.options.dtype))
      throw KernelLimitError(
          ir, std::string("the vulkan target's offline modules read f32, f16 or bf16 buffers: an "
                          "fp8 kernel (dtype ") +
                  dtype_name(ir.options.dtype) +
                  ") runs on vulkan through attnc (attnc run, attnc.load), converted on load");
    spirv::SpirvKernel k = spirv::compile_spirv(ir, spirv::offline_config(ir, o.head_dim));
    const std::string name = kernel_name(ir);
    EmittedKernel out;
    out.files = {{name + ".spv", bytes(k.words)},
                 {name + ".spv.h", spirv::embed_header(ir, o.source_name, o.kernel_hash, k)}};
    if (!kernel_options(ir).backward) return out;
    spirv::SpirvConfig c = spirv::choose_backward_config(ir, spirv::kOfflineTarget, o.head_dim, 0);
    spirv::SpirvBackward b = spirv::compile_spirv_backward(ir, c, spirv::offline_grad_buffers(ir));
    out.files.push_back({name + "_backward_q.spv", bytes(b.query_major.words)});
    out.files.push_back({name + "_backward_k.spv", bytes(b.key_major.words)});
    out.files.push_back(
        {name + "_backward.spv.h", spirv::embed_backward_header(ir, o.source_name, o.kernel_hash, b)});
    return out;
  }
  std::string dump(const KernelIR& ir) const override {
    spirv::SpirvConfig c = spirv::offline_config(ir, 0);
    return "; kernel " + kernel_name(ir) + "\n" +
           spirv::disassemble_spirv(spirv::compile_spirv(ir, c).words, c.spirv_version);
  }
  TileSizes tiles(const KernelIR& ir) const override {
    spirv::SpirvConfig c = spirv::offline_config(ir, 0);
    return {c.rows, c.block_kv};
  }
  KernelOutputs run(const KernelIR& ir, const KernelInputs& in, int) const override {
    return run_vulkan(ir, in);
  }
  KernelGradients backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                           int) const override {
    return run_vulkan_backward(ir, in, r);
  }
  std::shared_ptr<const LoadedKernel> load(std::shared_ptr<const KernelIR> ir,
                                           const KernelLoadOptions& o) const override {
    const int d = backend_head_dim(*this, *ir, o.head_dim);
    const int dv = o.value_dim                     ? o.value_dim
                   : kernel_options(*ir).value_dim ? kernel_options(*ir).value_dim
                                                   : d;
    Loader& loader = o.loader ? *o.loader : process_loader();
    // An FP8 kernel runs as its f32 copy on dequantized inputs (run_vulkan).
    Kernel k = loader.get(
        vulkan_device_request(is_fp8(ir->options.dtype) ? *with_dtype(*ir, DType::F32) : *ir, d, dv));
    return std::make_shared<VulkanLoadedKernel>(std::move(ir), std::move(k), loader, d, dv);
  }
};

}  // namespace

const Backend& vulkan_backend() {
  static const VulkanTargetBackend backend;
  return backend;
}

}  // namespace attn
