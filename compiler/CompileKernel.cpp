// compile_kernel: .attn text -> lowered kernel -> generated source (cpu, cuda) or module (vulkan) ->
// attn::Loader, or the reference backend itself; a call does what the command line's runners do
// around the kernel (a cpu call plans buffer masks' key ranges, a vulkan call falls back to a
// module without subgroups, a reference call copies the tensors in and out).
#include <algorithm>
#include <cstdio>

#include "attn/compile.hpp"
#include "attn/vulkan.hpp"
#include "backends/cpu/CpuBackend.h"
#include "backends/cuda/CudaRun.h"
#include "backends/spirv/RunVulkan.h"
#include "codegen/Lower.h"
#include "compiler/LowerProgram.h"
#include "compiler/ReferenceCall.h"
#include "frontend/Program.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

struct CompiledKernel::State {
  std::shared_ptr<const KernelIR> ir;  // cpu: the tile planner's; vulkan: the fallback module's; reference
  std::string target, name, dtype;
  bool lse = false;
  std::vector<KernelParam> params;
  Kernel kernel;                    // empty for reference
  Loader* loader = nullptr;         // vulkan: where the fallback module loads
  int head_dim = 0, value_dim = 0;  // vulkan, cuda: what the module is specialized for
};

CompiledKernel::CompiledKernel(std::shared_ptr<const State> state) : state_(std::move(state)) {}
const std::string& CompiledKernel::name() const { return state_->name; }
const std::string& CompiledKernel::dtype() const { return state_->dtype; }
bool CompiledKernel::writes_lse() const { return state_->lse; }
const std::vector<KernelParam>& CompiledKernel::params() const { return state_->params; }
const Kernel& CompiledKernel::kernel() const { return state_->kernel; }

namespace {

// A buffer as the planner reads it: dense, row-major, in host memory.
TileBuffer planner_view(const DLTensor& t) {
  if (t.device.device_type != kDLCPU) throw std::invalid_argument("a buffer is not in host memory");
  int64_t expect = 1;
  for (int d = t.ndim; t.strides && d-- > 0; expect *= t.shape[d])
    if (t.shape[d] != 1 && t.strides[d] != expect) throw std::invalid_argument("a buffer is not dense");
  return tile_buffer_view(dl_scalar_type(t.dtype), static_cast<const char*>(t.data) + t.byte_offset,
                          std::vector<int64_t>(t.shape, t.shape + t.ndim));
}

// The planner's view of a call; throws std::logic_error for arguments it cannot read (the kernel
// then reports them itself).
TilePlanInputs plan_inputs(const std::vector<KernelParam>& params, const attn_kernel_args& args) {
  if (!args.q || !args.k || args.q->ndim != 4 || args.k->ndim != 4)
    throw std::invalid_argument("q or k is not a 4-D tensor");
  TilePlanInputs in;
  in.q_len = args.q->shape[2], in.kv_len = args.k->shape[2];
  int buffer = 0, scalar = 0;
  for (const KernelParam& p : params) {
    if (p.is_buffer ? buffer >= args.num_buffers || !args.buffers || !args.buffers[buffer]
                    : scalar >= args.num_scalars || !args.scalars)
      throw std::invalid_argument("missing arguments");
    if (p.is_buffer)
      in.buffers[p.name] = planner_view(*args.buffers[buffer++]);
    else
      in.scalars[p.name] = args.scalars[scalar++];
  }
  return in;
}

// The vulkan and cuda modules are specialized for the head dims: the options', else the kernel's.
void device_head_dims(CompiledKernel::State& s, const CompileOptions& options) {
  const KernelOptions& o = kernel_options(*s.ir);
  s.head_dim = options.head_dim ? options.head_dim : o.head_dim;
  s.value_dim = options.value_dim ? options.value_dim : o.value_dim ? o.value_dim : s.head_dim;
  if (!s.head_dim)
    throw std::invalid_argument("the " + s.target +
                                " target builds for one head dim: set head_dim in kernel '" + s.name +
                                "' or CompileOptions::head_dim");
}

CompiledKernel compile_program(const Program& p, const std::string& file, const CompileOptions& options) {
  if (options.target != "cpu" && options.target != "vulkan" && options.target != "cuda" &&
      options.target != "reference")
    throw std::invalid_argument("unknown target '" + options.target +
                                "' (the compiler library loads: cpu, cuda, vulkan, reference)");
  auto state = std::make_shared<CompiledKernel::State>();
  state->ir = lower_program_kernel(p, file, options.kernel);
  const KernelIR& ir = *state->ir;
  state->target = options.target;
  state->name = kernel_name(ir);
  state->dtype = dtype_name(kernel_options(ir).dtype);
  state->lse = kernel_options(ir).lse;
  for (const KernelArgInfo& a : kernel_args(ir))
    state->params.push_back({a.name, a.is_buffer, elem_type_name(a.elem), a.dims});
  state->loader = options.loader ? options.loader : &process_loader();
  try {
    if (options.target == "cpu") {
      state->kernel = state->loader->get(cpu_kernel_request(generate_cpu_kernel(ir, host_cpu_target())));
    } else if (options.target == "vulkan") {
      device_head_dims(*state, options);
      state->kernel = state->loader->get(vulkan_device_request(ir, state->head_dim, state->value_dim));
    } else if (options.target == "cuda") {
      device_head_dims(*state, options);
      state->kernel = state->loader->get(cuda_device_request(ir, state->head_dim, state->value_dim));
    }
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), p.sources));
  }
  return CompiledKernel(std::move(state));
}

// A cpu call: for a mask that reads buffers and no plan given, the run-time planner's key ranges.
int call_cpu(const CompiledKernel::State& s, const attn_kernel_args& args) {
  const bool reads_buffers =
      std::any_of(s.params.begin(), s.params.end(), [](auto& p) { return p.is_buffer; });
  if (args.kv_ranges || !reads_buffers) return s.kernel(args);
  CpuKeyRanges ranges;
  try {
    ranges = cpu_key_ranges(*s.ir, plan_inputs(s.params, args));
  } catch (const std::logic_error&) {  // arguments the planner cannot read: the kernel says why
    return s.kernel(args);
  }
  attn_kernel_args planned = args;
  planned.abi_version = ATTN_KERNEL_ABI_VERSION;  // the plan's fields are version 3's
  set_key_ranges(planned, ranges);
  return s.kernel(planned);
}

// A vulkan call, once more on the module without subgroup shuffles if the driver ran smaller
// subgroups than it reported (as run_vulkan does).
int call_vulkan(const CompiledKernel::State& s, const attn_kernel_args& args) {
  const int status = s.kernel(args);
  if (status != kVulkanSubgroupTooSmall) return status;
  VulkanRunOptions one_per_row;
  one_per_row.subgroups = false;
  try {
    return s.loader->get(vulkan_device_request(*s.ir, s.head_dim, s.value_dim, one_per_row))(args);
  } catch (const std::exception& e) {  // a call reports through args.error, as the module does
    if (args.error && args.error_size) std::snprintf(args.error, args.error_size, "%s", e.what());
    return kVulkanFailed;
  }
}

}  // namespace

int CompiledKernel::operator()(const attn_kernel_args& args) const {
  const State& s = *state_;
  if (s.target == "cpu") return call_cpu(s, args);
  if (s.target == "vulkan") return call_vulkan(s, args);
  if (s.target == "reference") return call_reference(*s.ir, s.name, s.lse, s.params, args);
  return s.kernel(args);  // cuda: the module plans buffer masks' tiles itself
}

CompiledKernel compile_kernel(const std::string& file, const std::string& text,
                              const CompileOptions& options) {
  return compile_program(*load_program_text(file, text), file, options);
}

CompiledKernel compile_kernel_file(const std::string& path, const CompileOptions& options) {
  return compile_program(*load_program(path), path, options);
}

}  // namespace attn
