// attnc._core: the nanobind face of KernelLibrary and KernelCall. Tensors cross as nb::ndarray
// (DLPack: torch, NumPy, anything with __dlpack__) without a copy; every user error is attnc.Error.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "backends/io/KernelIO.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "python/src/KernelCall.h"
#include "python/src/KernelLibrary.h"
#include "python/src/KernelPlan.h"
#include "python/src/TensorViews.h"
#include "runtime/CudaErrorWord.h"

namespace nb = nanobind;
using namespace attn;
using namespace attn::python;

namespace {

/// The call of run() and plan_call(), over `views`.
KernelCall make_call(Views& views, nb::handle q, nb::handle k, nb::handle v, nb::handle out, nb::handle lse,
                     const nb::dict& buffers, const std::map<std::string, double>& scalars,
                     const std::string& target, int threads, uintptr_t stream, nb::handle max,
                     nb::handle cu_seqlens_q, nb::handle cu_seqlens_k, nb::handle page_table,
                     nb::handle kv_lens, bool backward_next, nb::handle q_descale, nb::handle k_descale,
                     nb::handle v_descale) {
  KernelCall call;
  call.q = views(q), call.k = views(k), call.v = views(v), call.out = views(out);
  if (!lse.is_none()) call.lse = views(lse);
  if (!max.is_none()) call.max = views(max);
  if (!cu_seqlens_q.is_none()) call.cu_seqlens_q = views(cu_seqlens_q);
  if (!cu_seqlens_k.is_none()) call.cu_seqlens_k = views(cu_seqlens_k);
  if (!page_table.is_none()) call.page_table = views(page_table);
  if (!kv_lens.is_none()) call.kv_lens = views(kv_lens);
  if (!q_descale.is_none()) call.q_descale = views(q_descale);
  if (!k_descale.is_none()) call.k_descale = views(k_descale);
  if (!v_descale.is_none()) call.v_descale = views(v_descale);
  call.buffers = views(buffers);
  call.scalars = scalars;
  call.target = target;
  call.threads = threads;
  call.stream = reinterpret_cast<void*>(stream);
  call.backward_next = backward_next;
  return call;
}

void run(LibraryKernel& kernel, nb::handle q, nb::handle k, nb::handle v, nb::handle out, nb::handle lse,
         const nb::dict& buffers, const std::map<std::string, double>& scalars, const std::string& target,
         int threads, uintptr_t stream, nb::handle max, nb::handle cu_seqlens_q, nb::handle cu_seqlens_k,
         nb::handle page_table, nb::handle kv_lens, bool backward_next, nb::handle q_descale,
         nb::handle k_descale, nb::handle v_descale, std::shared_ptr<const CallPlan> call_plan) {
  Views views;
  KernelCall call =
      make_call(views, q, k, v, out, lse, buffers, scalars, target, threads, stream, max, cu_seqlens_q,
                cu_seqlens_k, page_table, kv_lens, backward_next, q_descale, k_descale, v_descale);
  call.plan = std::move(call_plan);
  nb::gil_scoped_release unlocked;  // the kernel runs on its own threads; other Python threads go on
  call_kernel(kernel, call);
}

std::shared_ptr<const CallPlan> plan_kernel_call(LibraryKernel& kernel, nb::handle q, nb::handle k,
                                                 nb::handle v, nb::handle out, nb::handle lse,
                                                 const nb::dict& buffers,
                                                 const std::map<std::string, double>& scalars,
                                                 const std::string& target, nb::handle max,
                                                 nb::handle cu_seqlens_q, nb::handle cu_seqlens_k,
                                                 nb::handle page_table, nb::handle kv_lens) {
  Views views;
  const KernelCall call =
      make_call(views, q, k, v, out, lse, buffers, scalars, target, 0, 0, max, cu_seqlens_q, cu_seqlens_k,
                page_table, kv_lens, false, nb::none(), nb::none(), nb::none());
  nb::gil_scoped_release unlocked;
  return plan_call(kernel, call);
}

void run_backward(LibraryKernel& kernel, nb::handle q, nb::handle k, nb::handle v, const nb::dict& buffers,
                  const std::map<std::string, double>& scalars, nb::handle out, nb::handle lse,
                  nb::handle dout, nb::handle dlse, nb::handle dq, nb::handle dk, nb::handle dv,
                  const nb::dict& dbuffers, const std::string& target, int threads, uintptr_t stream,
                  nb::handle cu_seqlens_q, nb::handle cu_seqlens_k) {
  Views views;
  KernelCall call;
  call.q = views(q), call.k = views(k), call.v = views(v);
  if (!cu_seqlens_q.is_none()) call.cu_seqlens_q = views(cu_seqlens_q);
  if (!cu_seqlens_k.is_none()) call.cu_seqlens_k = views(cu_seqlens_k);
  call.buffers = views(buffers);
  call.scalars = scalars;
  call.target = target;
  call.threads = threads;
  call.stream = reinterpret_cast<void*>(stream);
  GradientCall grads;
  if (!out.is_none()) grads.out = views(out);
  if (!lse.is_none()) grads.lse = views(lse);
  grads.dout = views(dout), grads.dq = views(dq), grads.dk = views(dk), grads.dv = views(dv);
  if (!dlse.is_none()) grads.dlse = views(dlse);
  grads.dbuffers = views(dbuffers);
  nb::gil_scoped_release unlocked;
  call_kernel_backward(kernel, call, grads);
}

/// attnc.check_errors(): waits for the GPU, then raises Error with what the CUDA launches since the
/// last check reported (buffer indices out of range), one line per kernel.
void check_errors() {
  std::vector<std::string> errors;
  {
    nb::gil_scoped_release unlocked;
    errors = take_cuda_errors();
  }
  if (errors.empty()) return;
  std::string message = "a CUDA kernel read out of range: ";
  for (size_t i = 0; i < errors.size(); ++i) message += (i ? "; " : "") + errors[i];
  throw InputError(message);
}

/// The counts of kernel.plan(): (tiles, full, partial) of one call's tile plan.
nb::tuple plan(const LibraryKernel& kernel, int64_t q_len, int64_t kv_len, const nb::dict& buffers,
               const std::map<std::string, double>& scalars) {
  Views views;
  std::map<std::string, TensorView> named = views(buffers);
  PlanCounts counts;
  {
    nb::gil_scoped_release unlocked;
    counts = plan_counts(kernel, q_len, kv_len, scalars, named);
  }
  return nb::make_tuple(counts.tiles, counts.full, counts.partial);
}

nb::list arg_list(const KernelIR& ir) {
  nb::list args;
  for (const KernelArgInfo& a : kernel_args(ir))
    args.append(nb::make_tuple(a.name, a.is_buffer, elem_type_name(a.elem), a.dims));
  return args;
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "attnc's compiler and runtime (see the attnc package for the Python API)";
  // Kernels live in a process-wide registry (attnc.library.KERNELS, for the torch operator) until
  // the interpreter exits, which nanobind would report as leaks.
  nb::set_leak_warnings(false);
  static nb::exception<SourceError> error(m, "Error", PyExc_ValueError);
  // Inputs that do not fit and buffer indexes out of range are the caller's errors too.
  nb::register_exception_translator(
      [](const std::exception_ptr& p, void* payload) {
        try {
          std::rethrow_exception(p);
        } catch (const InputError& e) {
          PyErr_SetString(static_cast<PyObject*>(payload), e.what());
        } catch (const EvalError& e) {
          PyErr_SetString(static_cast<PyObject*>(payload), e.what());
        }
      },
      error.ptr());

  nb::class_<CallPlan>(m, "CallPlan")
      .def_prop_ro(
          "planned", [](const CallPlan& p) { return p.plan != nullptr; },
          "True where the target keeps the plan (cuda); False where it plans each call itself");

  nb::class_<LibraryKernel>(m, "Kernel")
      .def_prop_ro("name", [](const LibraryKernel& k) { return kernel_name(k.ir()); })
      .def_prop_ro("dtype",
                   [](const LibraryKernel& k) { return std::string(dtype_name(k.ir().options.dtype)); })
      .def_prop_ro(
          "head_dim", [](const LibraryKernel& k) { return k.ir().options.head_dim; }, "0: any")
      .def_prop_ro(
          "value_dim", [](const LibraryKernel& k) { return k.ir().options.value_dim; }, "0: head_dim")
      .def_prop_ro("lse", [](const LibraryKernel& k) { return k.ir().options.lse; })
      .def_prop_ro("return_max", [](const LibraryKernel& k) { return k.ir().options.return_max; })
      .def_prop_ro("hash", [](const LibraryKernel& k) { return kernel_hash(k.ir()); })
      .def_prop_ro(
          "args", [](const LibraryKernel& k) { return arg_list(k.ir()); },
          "(name, is_buffer, element type, dims) per run-time argument, in declaration order")
      .def(
          "run", &run, nb::arg("q"), nb::arg("k"), nb::arg("v"), nb::arg("out"), nb::arg("lse").none(),
          nb::arg("buffers"), nb::arg("scalars"), nb::arg("target"), nb::arg("threads"),
          nb::arg("stream") = 0, nb::arg("max").none() = nb::none(),
          nb::arg("cu_seqlens_q").none() = nb::none(), nb::arg("cu_seqlens_k").none() = nb::none(),
          nb::arg("page_table").none() = nb::none(), nb::arg("kv_lens").none() = nb::none(),
          nb::arg("backward_next") = false, nb::arg("q_descale").none() = nb::none(),
          nb::arg("k_descale").none() = nb::none(), nb::arg("v_descale").none() = nb::none(),
          nb::arg("call_plan").none() = nb::none(),
          "Runs the kernel into out (and lse when given: the kernel with lse; max for a kernel that sets "
          "return_max); on cuda, launched on `stream` (a CUstream) without waiting. With cu_seqlens_q and "
          "_k (int32 [N + 1]), a ragged batch: q [Tq, Hq, D], k and v [Tk, Hkv, D], out [Tq, Hq, Dv], lse "
          "and max [Tq, Hq]. With cu_seqlens_q, page_table (int32 [N, max_pages]) and kv_lens (int32 [N]), a "
          "paged KV cache: k and v [pages, page_size, Hkv, D]. backward_next: autograd recorded the call, "
          "so a first call starts compiling the backward beside the forward. q_descale, k_descale, v_descale "
          "(f32 [1] or [B, Hkv]): an fp8 kernel's descale factors (default 1); out is then bf16. call_plan: "
          "plan_call's plan of calls laid out like this one (cuda: no allocation, copy or wait; a CUDA "
          "graph can capture the call). Raises Error for bad inputs")
      .def("plan_call", &plan_kernel_call, nb::arg("q"), nb::arg("k"), nb::arg("v"), nb::arg("out"),
           nb::arg("lse").none(), nb::arg("buffers"), nb::arg("scalars"), nb::arg("target"),
           nb::arg("max").none() = nb::none(), nb::arg("cu_seqlens_q").none() = nb::none(),
           nb::arg("cu_seqlens_k").none() = nb::none(), nb::arg("page_table").none() = nb::none(),
           nb::arg("kv_lens").none() = nb::none(),
           "A CallPlan of calls laid out like this one (the layout, the tensors' shapes), for run(..., "
           "call_plan=): on cuda each sequence's launch planned, the page table uploaded and the split-KV "
           "workspace allocated, once; the call is checked and the kernel loaded, nothing runs. Other "
           "targets plan each call themselves (CallPlan.planned is False there)")
      .def("backward", &run_backward, nb::arg("q"), nb::arg("k"), nb::arg("v"), nb::arg("buffers"),
           nb::arg("scalars"), nb::arg("out").none(), nb::arg("lse").none(), nb::arg("dout"),
           nb::arg("dlse").none(), nb::arg("dq"), nb::arg("dk"), nb::arg("dv"), nb::arg("dbuffers"),
           nb::arg("target"), nb::arg("threads"), nb::arg("stream") = 0,
           nb::arg("cu_seqlens_q").none() = nb::none(), nb::arg("cu_seqlens_k").none() = nb::none(),
           "The gradients of sum(dout * out) (+ sum(dlse * lse)) into dq, dk, dv and dbuffers (by name); "
           "out and lse are the forward's (required on cpu and cuda); on cuda, launched on `stream`. With "
           "cu_seqlens_q and _k, a ragged batch's (cpu and reference targets): every tensor packed as the "
           "forward's")
      .def(
          "plan", &plan, nb::arg("q_len"), nb::arg("kv_len"), nb::arg("buffers"), nb::arg("scalars"),
          "(tiles, full, partial): the (query tile, key tile) pairs of a call's tile plan for these lengths, "
          "scalars and host buffers (those the mask reads), and how many the kernel visits (full and "
          "partial; the rest are proven empty). Raises Error for a missing or device buffer");

  m.def("compile_text", &compile_text, nb::arg("path"), nb::arg("text"),
        nb::call_guard<nb::gil_scoped_release>(), "The kernels of .attn text; raises Error with diagnostics");
  m.def("compile_file", &compile_file, nb::arg("path"), nb::call_guard<nb::gil_scoped_release>(),
        "The kernels of a .attn file; raises Error with diagnostics");
  m.def("check_errors", &check_errors,
        "Waits for the GPU; raises Error when a CUDA launch since the last check read a buffer out of range");
  m.def("stdlib_modules", &stdlib_modules, "The standard library's modules ('std.masks', ...) and sources");
}
