// `attnc run FILE [KERNEL] --q --k --v [--arg NAME=...] -o OUT [--lse LSE] [--max MAX] -t TARGET`, and with
// `--dout DOUT [--dlse DLSE] [--dq DQ] [--dk DK] [--dv DV] [--grad NAME=FILE ...]` the backward pass.
#include <iostream>

#include "backends/Backend.h"
#include "cli/Commands.h"
#include "cli/KernelSession.h"
#include "codegen/Lower.h"
#include "runtime/Npy.h"

namespace attn::cli {

namespace {

// Reads Q/K/V and converts them to the kernel's dtype. bf16, e4m3 and e5m2 have no NumPy type:
// f32 files are rounded to them (to nearest even; past an FP8 type's range, e4m3 saturates at +-448
// and e5m2 gives +-inf, as PyTorch's casts do), and f16 files may be given as f32 too.
HostTensor read_input(const std::string& path, ScalarType want) {
  HostTensor t = read_npy(path);
  if (t.type == want) return t;
  const bool no_numpy_type =
      want == ScalarType::BF16 || want == ScalarType::F8E4M3 || want == ScalarType::F8E5M2;
  bool convertible = t.type == ScalarType::F32 && (no_numpy_type || want == ScalarType::F16);
  if (!convertible)
    throw InputError(path + ": expected a " + scalar_type_name(no_numpy_type ? ScalarType::F32 : want) +
                     " array, got " + scalar_type_name(t.type));
  HostTensor c(want, t.shape);
  for (int64_t i = 0; i < t.numel(); ++i) c.set(i, t.get(i));
  return c;
}

// Writes a result; bf16 is written as f32.
void write_output(const std::string& path, const HostTensor& t) {
  if (t.type != ScalarType::BF16) return write_npy(path, t);
  HostTensor f(ScalarType::F32, t.shape);
  for (int64_t i = 0; i < t.numel(); ++i) f.set(i, t.get(i));
  write_npy(path, f);
}

// The buffer gradients `--grad NAME=FILE.npy` asks for, by name, in the order given.
std::vector<std::pair<std::string, std::string>> grad_files(const std::vector<std::string>& grads) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const std::string& g : grads) {
    size_t eq = g.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == g.size())
      throw InputError("--grad '" + g + "' must be NAME=FILE.npy");
    files.emplace_back(g.substr(0, eq), g.substr(eq + 1));
  }
  return files;
}

}  // namespace

int run_run(const RunOptions& o) {
  auto [program, ir] = load_kernel(o.file, o.kernel);
  if (!ir) return 1;
  try {
    const Backend& target = find_backend(o.target, Capability::Run);
    // Checked before any work: a target without the backward, a backward with nothing to write.
    const Backend* backward = o.dout.empty() ? nullptr : &find_backend(o.target, Capability::Backward);
    if (backward) require_backward_dtype(*ir);
    if (backward && o.dq.empty() && o.dk.empty() && o.dv.empty() && o.grads.empty())
      throw InputError(
          "--dout needs somewhere to write the gradients: --dq, --dk, --dv or --grad NAME=FILE.npy");
    const auto grads = grad_files(o.grads);
    ScalarType dtype = io_scalar_type(kernel_options(*ir).dtype);
    KernelInputs in;
    in.q = read_input(o.q, dtype);
    in.k = read_input(o.k, dtype);
    in.v = read_input(o.v, dtype);
    if (!o.cu_seqlens_q.empty() && o.cu_seqlens_k.empty() && o.page_table.empty())
      throw InputError(
          "--cu-seqlens-q needs --cu-seqlens-k (a ragged batch) or --page-table and --kv-lens (a "
          "paged KV cache)");
    if (!o.cu_seqlens_q.empty()) in.cu_seqlens_q = read_npy(o.cu_seqlens_q);
    if (!o.cu_seqlens_k.empty()) in.cu_seqlens_k = read_npy(o.cu_seqlens_k);
    if (!o.page_table.empty()) in.page_table = read_npy(o.page_table);
    if (!o.kv_lens.empty()) in.kv_lens = read_npy(o.kv_lens);
    if (!o.q_descale.empty()) in.q_descale = read_npy(o.q_descale);
    if (!o.k_descale.empty()) in.k_descale = read_npy(o.k_descale);
    if (!o.v_descale.empty()) in.v_descale = read_npy(o.v_descale);
    bind_kernel_args(*ir, o.args, in);
    KernelOutputs out = target.run(*ir, in, o.threads);
    write_output(o.out, out.out);
    if (!o.lse.empty()) {
      if (out.lse.shape.empty())
        throw InputError("kernel '" + kernel_name(*ir) + "' does not compute the LSE (set lse = true)");
      write_npy(o.lse, out.lse);
    }
    if (!o.max.empty()) {
      if (out.max.shape.empty())
        throw InputError("kernel '" + kernel_name(*ir) +
                         "' does not write row maxima (set return_max = true)");
      write_npy(o.max, out.max);
    }
    if (backward) {
      GradientRequest request;
      request.dout = read_input(o.dout, dtype);
      if (!o.dlse.empty()) request.dlse = read_npy(o.dlse);
      for (const auto& [name, _] : grads) request.buffers.push_back(name);
      KernelGradients g = backward->backward(*ir, in, request, o.threads);
      const std::pair<const std::string*, const HostTensor*> qkv[] = {
          {&o.dq, &g.dq}, {&o.dk, &g.dk}, {&o.dv, &g.dv}};
      for (auto [path, t] : qkv)
        if (!path->empty()) write_output(*path, *t);
      for (const auto& [name, path] : grads) write_npy(path, g.buffers.at(name));
    }
  } catch (const std::exception& e) {
    report_kernel_error(e, *program);
    return 1;
  }
  return 0;
}

}  // namespace attn::cli
