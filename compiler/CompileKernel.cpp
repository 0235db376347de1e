// compile_kernel: .attn text -> lowered kernel -> generated source -> attn::Loader; CompiledKernel
// plans buffer masks' key ranges at call time as the command line's runner does.
#include <algorithm>

#include "attn/compile.hpp"
#include "backends/cpu/CpuBackend.h"
#include "codegen/Lower.h"
#include "compiler/LowerProgram.h"
#include "frontend/Program.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

struct CompiledKernel::State {
  std::shared_ptr<const KernelIR> ir;  // for the tile planner
  std::string name, dtype;
  bool lse = false;
  std::vector<KernelParam> params;
  Kernel kernel;
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
    if (p.is_buffer ? buffer >= args.num_buffers : scalar >= args.num_scalars)
      throw std::invalid_argument("too few arguments");
    if (p.is_buffer)
      in.buffers[p.name] = planner_view(*args.buffers[buffer++]);
    else
      in.scalars[p.name] = args.scalars[scalar++];
  }
  return in;
}

CompiledKernel compile_program(const Program& p, const std::string& file, const CompileOptions& options) {
  if (options.target != "cpu")
    throw std::invalid_argument("unknown target '" + options.target + "' (the compiler library loads: cpu)");
  auto state = std::make_shared<CompiledKernel::State>();
  state->ir = lower_program_kernel(p, file, options.kernel);
  const KernelIR& ir = *state->ir;
  state->name = kernel_name(ir);
  state->dtype = dtype_name(kernel_options(ir).dtype);
  state->lse = kernel_options(ir).lse;
  for (const KernelArgInfo& a : kernel_args(ir))
    state->params.push_back({a.name, a.is_buffer, elem_type_name(a.elem), a.dims});
  CpuKernelSource src;
  try {
    src = generate_cpu_kernel(ir, host_cpu_target());
  } catch (const KernelLimitError& e) {
    throw SourceError(render_diagnostic(e.diagnostic(), p.sources));
  }
  Loader& loader = options.loader ? *options.loader : process_loader();
  state->kernel = loader.get(cpu_kernel_request(src));
  return CompiledKernel(std::move(state));
}

}  // namespace

int CompiledKernel::operator()(const attn_kernel_args& args) const {
  const State& s = *state_;
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

CompiledKernel compile_kernel(const std::string& file, const std::string& text,
                              const CompileOptions& options) {
  return compile_program(*load_program_text(file, text), file, options);
}

CompiledKernel compile_kernel_file(const std::string& path, const CompileOptions& options) {
  return compile_program(*load_program(path), path, options);
}

}  // namespace attn
