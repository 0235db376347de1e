// attnc._runtime: the runtime-only extension (docs/python.md, "A runtime-only build"): kernels
// generated ahead by `attnc compile -t cuda [--cuda-backward]`, loaded from their folder's
// manifest and launched on CUDA tensors, with no compiler linked. Its Kernel objects answer the
// same calls as attnc._core's, so attnc.library, attnc.ops and torch.compile take them unchanged.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "python/src/GeneratedKernel.h"
#include "python/src/TensorViews.h"
#include "runtime/CudaErrorWord.h"

namespace nb = nanobind;
using namespace attn;
using namespace attn::python;

namespace {

/// The caller's error (attnc.Error): inputs that do not fit, a kernel generated without what the
/// call needs, a buffer index out of range.
struct CallError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void require_cuda(const GeneratedKernel& k, const std::string& target) {
  if (!target.empty() && target != "cuda")  // "": the target of the tensors' device
    throw CallError(
        "target '" + target + "': kernel '" + k.name() +
        "' was loaded from generated CUDA sources (attnc.load_generated) and runs on CUDA tensors only");
}

void run(GeneratedKernel& kernel, nb::handle q, nb::handle k, nb::handle v, nb::handle out, nb::handle lse,
         const nb::dict& buffers, const std::map<std::string, double>& scalars, const std::string& target,
         int, uintptr_t stream, bool /*backward_next: the backward compiles at its first call*/) {
  require_cuda(kernel, target);
  Views views;
  const TensorView tq = views(q), tk = views(k), tv = views(v), tout = views(out);
  TensorView tlse;
  if (!lse.is_none()) tlse = views(lse);
  const std::map<std::string, TensorView> tb = views(buffers);
  nb::gil_scoped_release unlocked;
  try {
    kernel.run(tq, tk, tv, tout, lse.is_none() ? nullptr : &tlse, tb, scalars,
               reinterpret_cast<void*>(stream));
  } catch (const std::invalid_argument& e) {
    throw CallError(e.what());
  }
}

void run_backward(GeneratedKernel& kernel, nb::handle q, nb::handle k, nb::handle v, const nb::dict& buffers,
                  const std::map<std::string, double>& scalars, nb::handle out, nb::handle lse,
                  nb::handle dout, nb::handle dlse, nb::handle dq, nb::handle dk, nb::handle dv,
                  const nb::dict& dbuffers, const std::string& target, int, uintptr_t stream) {
  require_cuda(kernel, target);
  if (out.is_none() || lse.is_none())
    throw CallError("the backward reads the forward's out and lse; give both");
  Views views;
  const TensorView tq = views(q), tk = views(k), tv = views(v), tout = views(out), tlse = views(lse);
  const TensorView tdout = views(dout), tdq = views(dq), tdk = views(dk), tdv = views(dv);
  TensorView tdlse;
  if (!dlse.is_none()) tdlse = views(dlse);
  const std::map<std::string, TensorView> tb = views(buffers), tdb = views(dbuffers);
  nb::gil_scoped_release unlocked;
  try {
    kernel.backward(tq, tk, tv, tb, scalars, tout, tlse, tdout, dlse.is_none() ? nullptr : &tdlse, tdq, tdk,
                    tdv, tdb, reinterpret_cast<void*>(stream));
  } catch (const std::invalid_argument& e) {
    throw CallError(e.what());
  }
}

nb::list arg_list(const GeneratedKernel& k) {
  nb::list args;
  for (const GeneratedArg& a : k.args()) args.append(nb::make_tuple(a.name, a.buffer, a.elem, a.dims));
  return args;
}

std::string dtype_text(ScalarType t) {
  return t == ScalarType::BF16 ? "bf16" : t == ScalarType::F16 ? "f16" : "f32";
}

void check_errors() {
  std::vector<std::string> errors;
  {
    nb::gil_scoped_release unlocked;
    errors = take_cuda_errors();
  }
  if (errors.empty()) return;
  std::string message = "a CUDA kernel read out of range: ";
  for (size_t i = 0; i < errors.size(); ++i) message += (i ? "; " : "") + errors[i];
  throw CallError(message);
}

}  // namespace

NB_MODULE(_runtime, m) {
  m.doc() = "attnc's runtime-only extension: generated CUDA kernels without the compiler (docs/python.md)";
  nb::set_leak_warnings(false);
  // One attnc.Error: the compiler's extension's when it is there, else this module's own.
  nb::object error_type;
  try {
    error_type = nb::module_::import_("attnc._core").attr("Error");
  } catch (const nb::python_error&) {
    error_type = nb::steal(PyErr_NewException("attnc._runtime.Error", PyExc_ValueError, nullptr));
  }
  m.attr("Error") = error_type;
  static PyObject* error_ptr = error_type.inc_ref().ptr();
  nb::register_exception_translator(
      [](const std::exception_ptr& p, void*) {
        try {
          std::rethrow_exception(p);
        } catch (const CallError& e) {
          PyErr_SetString(error_ptr, e.what());
        }
      },
      nullptr);

  nb::class_<GeneratedKernel>(m, "Kernel")
      .def_prop_ro("name", &GeneratedKernel::name)
      .def_prop_ro("dtype", [](const GeneratedKernel& k) { return dtype_text(k.dtype()); })
      .def_prop_ro("head_dim", &GeneratedKernel::head_dim)
      .def_prop_ro("value_dim", &GeneratedKernel::value_dim)
      .def_prop_ro("lse", &GeneratedKernel::lse)
      .def_prop_ro("hash", &GeneratedKernel::hash)
      .def_prop_ro("has_backward", &GeneratedKernel::has_backward)
      .def_prop_ro("args", &arg_list, "(name, is_buffer, element type, dims) per run-time argument")
      .def("run", &run, nb::arg("q"), nb::arg("k"), nb::arg("v"), nb::arg("out"), nb::arg("lse").none(),
           nb::arg("buffers"), nb::arg("scalars"), nb::arg("target"), nb::arg("threads"),
           nb::arg("stream") = 0, nb::arg("backward_next") = false,
           "Runs the generated kernel into out (and lse) on `stream` (a CUstream) without waiting "
           "(backward_next, autograd's hint, is taken and unused: the backward compiles at its first call)")
      .def("backward", &run_backward, nb::arg("q"), nb::arg("k"), nb::arg("v"), nb::arg("buffers"),
           nb::arg("scalars"), nb::arg("out").none(), nb::arg("lse").none(), nb::arg("dout"),
           nb::arg("dlse").none(), nb::arg("dq"), nb::arg("dk"), nb::arg("dv"), nb::arg("dbuffers"),
           nb::arg("target"), nb::arg("threads"), nb::arg("stream") = 0,
           "The generated backward into dq, dk, dv and dbuffers, on `stream`");

  m.def(
      "load_folder",
      [](const std::string& folder) {
        try {
          return load_generated_folder(folder);
        } catch (const std::exception& e) {
          throw CallError(e.what());
        }
      },
      nb::arg("folder"), "The CUDA kernels of a folder written by attnc compile -t cuda, in manifest order");
  m.def("check_errors", &check_errors,
        "Waits for the GPU; raises Error when a CUDA launch since the last check read a buffer out of range");
}
