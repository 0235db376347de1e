// The cpu target's entry in the backend registry: vectorized C++ sources (`attnc compile -t cpu`,
// with backward = true the backward's too), this machine's kernel for dump, run, the backward and
// the loader, with the run-time tile plan's key ranges for masks that read buffers.
#include <algorithm>
#include <future>

#include "attn/kernel_abi.h"
#include "attn/kernel_backward_abi.h"
#include "attn/loader.hpp"
#include "backends/Backend.h"
#include "backends/cpu/CpuBackend.h"
#include "backends/io/HostCopies.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

/// A JSON string literal of plain text (names, flags: no quotes or backslashes to escape).
std::string json_string(const std::string& s) { return "\"" + s + "\""; }

std::string json_strings(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + json_string(v[i]);
  return s + "]";
}

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
TilePlanInputs plan_inputs(const KernelIR& ir, const DLTensor* q, const DLTensor* k, const DLTensor* const* buffers,
                           int num_buffers, const double* scalars, int num_scalars) {
  if (!q || !k || q->ndim != 4 || k->ndim != 4) throw std::invalid_argument("q or k is not a 4-D tensor");
  TilePlanInputs in;
  in.q_len = q->shape[2], in.kv_len = k->shape[2];
  int buffer = 0, scalar = 0;
  for (const KernelArgInfo& p : kernel_args(ir)) {
    if (p.is_buffer ? buffer >= num_buffers || !buffers || !buffers[buffer] : scalar >= num_scalars || !scalars)
      throw std::invalid_argument("missing arguments");
    if (p.is_buffer)
      in.buffers[p.name] = planner_view(*buffers[buffer++]);
    else
      in.scalars[p.name] = scalars[scalar++];
  }
  return in;
}

bool reads_buffers(const KernelIR& ir) {
  const std::vector<KernelArgInfo> args = kernel_args(ir);
  return std::any_of(args.begin(), args.end(), [](const KernelArgInfo& a) { return a.is_buffer; });
}

/// The run-time planner's key ranges for a call (forward or backward) of a mask that reads
/// buffers; empty when the mask reads none or the planner cannot read the arguments (the kernel
/// then reports them itself).
template <class Args>
CpuKeyRanges planned_key_ranges(const KernelIR& ir, const Args& a) {
  if (!reads_buffers(ir)) return {};
  try {
    return cpu_key_ranges(ir, plan_inputs(ir, a.q, a.k, a.buffers, a.num_buffers, a.scalars, a.num_scalars));
  } catch (const std::logic_error&) {
    return {};
  }
}

/// The host kernel through the loader; for a mask that reads buffers and no plan given, the run-time
/// planner's key ranges first.
class CpuLoadedKernel : public LoadedKernel {
 public:
  CpuLoadedKernel(std::shared_ptr<const KernelIR> ir, Kernel kernel) : ir_(std::move(ir)), kernel_(std::move(kernel)) {}
  int call(const attn_kernel_args& args, void*) const override {
    const bool ragged = (args.abi_version >= 5 && (args.cu_seqlens_q || args.cu_seqlens_k)) ||
                        (args.abi_version >= 6 && (args.page_table || args.kv_lens));
    if (args.kv_ranges || ragged) return kernel_(args);  // a ragged batch's sequences plan themselves
    const CpuKeyRanges ranges = planned_key_ranges(*ir_, args);
    if (ranges.ranges.empty()) return kernel_(args);
    attn_kernel_args planned = args;
    planned.abi_version = ATTN_KERNEL_ABI_VERSION;  // the plan's fields are version 3's
    if (args.abi_version < 7) planned.q_descale = planned.k_descale = planned.v_descale = nullptr;  // not the caller's
    set_key_ranges(planned, ranges);
    return kernel_(planned);
  }

  const Kernel* loaded() const override { return &kernel_; }

 private:
  std::shared_ptr<const KernelIR> ir_;
  Kernel kernel_;
};

class CpuTargetBackend : public Backend {
 public:
  const char* name() const override { return "cpu"; }
  bool can(Capability c) const override { return c != Capability::Tune; }
  std::string check_options(const EmitOptions& o) const override {
    try {
      parse_cpu_paths(o.cpu_isa);
      return "";
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  }

  EmittedKernel emit(const KernelIR& ir, const EmitOptions& o) const override {
    const std::vector<CpuTarget> paths = parse_cpu_paths(o.cpu_isa);
    CpuKernelSource src = generate_cpu_kernel(ir, paths);
    const std::string name = kernel_name(ir);
    EmittedKernel out;
    out.files = {{name + ".cpp", src.source}, {src.header_name, src.header}};
    if (kernel_options(ir).backward) {
      // backward = true: the backward entry point `attn_<name>_backward` too (attn/kernel_backward_abi.h).
      CpuKernelSource back = generate_cpu_backward(ir, paths);
      out.files.push_back({name + "_backward.cpp", back.source});
      out.files.push_back({back.header_name, back.header});
    }
    std::vector<std::string> isas;  // the forward's: the matrix paths only for bf16 and FP8 kernels
    for (const CpuTarget& t : effective_cpu_paths(paths, ir.options.dtype, false)) isas.push_back(cpu_isa_name(t.isa));
    out.manifest = {{"cpu_entry", json_string("attn_" + name)},
                    {"cpu_flags", json_strings(cpu_required_flags())},  // no -m flags: each path carries its ISA
                    {"cpu_paths", json_strings(isas)}};
    return out;
  }
  std::string dump(const KernelIR& ir) const override { return generate_cpu_kernel(ir, host_cpu_target()).source; }
  KernelOutputs run(const KernelIR& ir, const KernelInputs& in, int threads) const override {
    return run_cpu_kernel(ir, in, threads);
  }
  KernelGradients backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& r,
                           int threads) const override {
    return run_cpu_backward(ir, in, r, threads);
  }
  TileSizes tiles(const KernelIR&) const override {
    const CpuTiles t = cpu_kernel_tiles(host_cpu_target());
    return {t.tile_q, t.key_block};
  }
  bool calls_in_place() const override { return true; }
  std::string variant_key(const KernelIR& ir, const KernelInputs& shapes) const override {
    const HeadDims fix = head_dims_to_fix(ir, input_head_dims(shapes));  // {0, 0}: one kernel for every call
    return std::to_string(fix.head_dim) + "," + std::to_string(fix.value_dim);
  }
  std::shared_ptr<const LoadedKernel> load(std::shared_ptr<const KernelIR> ir, const KernelLoadOptions& o) const override {
    Loader& loader = o.loader ? *o.loader : process_loader();
    HeadDims fix;
    if (o.shapes) fix = head_dims_to_fix(*ir, input_head_dims(*o.shapes));
    const KernelIR fixed = with_call_head_dims(*ir, fix.head_dim, fix.value_dim);
    // Autograd's first forward: the backward's source is generated on a second thread while this
    // one generates the forward's (Halide compiles distinct pipelines concurrently; the generated
    // names are canonical, so the sources do not depend on the interleaving), and each compiles as
    // soon as its source is ready: forward + backward in about the time of the longer path rather
    // than of both. prepare_cpu_backward reports nothing: a failure comes back from the backward's
    // first call.
    std::future<void> backward;
    if (o.backward_next && o.shapes)
      backward = std::async(std::launch::async, [&] {
        try {
          prepare_cpu_backward(*o.backward_next, input_head_dims(*o.shapes));
        } catch (const std::exception&) {  // the backward's first call generates it again and reports
        }
      });
    struct Join {  // the thread reads `o`: wait for it on every way out, exceptions included
      std::future<void>& f;
      ~Join() {
        if (f.valid()) f.wait();
      }
    } join{backward};
    return std::make_shared<CpuLoadedKernel>(std::move(ir), loader.get(host_kernel_request(fixed, loader)));
  }
  void call_backward(const KernelIR& ir, const attn_backward_args& args, void*) const override {
    attn_backward_args planned = args;
    // A ragged batch's sequences plan themselves (as the forward's).
    const bool ragged = args.abi_version >= 2 && (args.cu_seqlens_q || args.cu_seqlens_k);
    const CpuKeyRanges ranges = args.kv_ranges || ragged ? CpuKeyRanges{} : planned_key_ranges(ir, args);
    if (!ranges.ranges.empty()) {
      planned.kv_ranges = ranges.ranges.data();
      planned.kv_ranges_block_q = ranges.block_q;
    }
    auto last = [](const DLTensor* t) { return t && t->ndim > 0 ? t->shape[t->ndim - 1] : int64_t(0); };
    if (cpu_backward_entry(ir, {last(args.q), last(args.v)})(&planned) != 0)
      throw InputError(args.error && args.error[0] ? args.error : "the CPU backward kernel failed");
  }
};

}  // namespace

const Backend& cpu_backend() {
  static const CpuTargetBackend backend;
  return backend;
}

}  // namespace attn
