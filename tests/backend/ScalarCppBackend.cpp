// scalar-cpp: a test-only backend that shows what a new target takes. It lives in one file,
// registers itself at start-up, and emits plain C++ loops (no Halide, no vectors): the mask and
// score printed by the shared C-family printer, a two-pass softmax per query row, f32 only. `run`
// compiles the source with the host compiler and calls it through the kernel ABI. Nothing outside
// this file names it: the binaries that link it list it in `attnc --help` and take `-t scalar-cpp`.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "attn/kernel_abi.h"
#include "backends/Backend.h"
#include "backends/clike/CExprPrinter.h"
#include "backends/io/KernelIO.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

/// C++ spellings of the printer's hooks: loads and scalars read the kernel ABI's arguments.
class ScalarCppPrinter : public CExprPrinter {
 public:
  using CExprPrinter::CExprPrinter;

 protected:
  std::string special_float(double v) override {
    if (v != v) return "std::numeric_limits<float>::quiet_NaN()";
    return v > 0 ? "std::numeric_limits<float>::infinity()" : "(-std::numeric_limits<float>::infinity())";
  }
  std::string math_function(const std::string& name) override {
    if (name == "round") return "std::nearbyint";  // the IR rounds half to even
    return "std::" + name;
  }
  std::string int_div(const std::string& a, const std::string& b) override {
    return "floor_div(" + a + ", " + b + ")";
  }
  std::string int_mod(const std::string& a, const std::string& b) override {
    return "floor_mod(" + a + ", " + b + ")";
  }
  std::string float_mod(const std::string& a, const std::string& b) override {
    return "float_mod(" + a + ", " + b + ")";
  }
  std::string int_min(const std::string& a, const std::string& b) override {
    return "std::min(" + a + ", " + b + ")";
  }
  std::string int_max(const std::string& a, const std::string& b) override {
    return "std::max(" + a + ", " + b + ")";
  }
  std::string load(const KernelArg& arg, int buffer, const std::vector<std::string>& index) override {
    const char* t = arg.elem == ElemType::I32 ? "int32_t" : arg.elem == ElemType::F32 ? "float" : "bool";
    std::string s = std::string("load<") + t + ">(a, " + std::to_string(buffer) + ", {";
    for (size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::string("(int64_t)") + index[i];
    return s + "})";
  }
  std::string scalar(const KernelArg& arg, int position) override {
    return typed_scalar(arg, "a->scalars[" + std::to_string(position) + "]");
  }
  std::string extent(const KernelArg&, int buffer, int dim) override {
    return "((int)a->buffers[" + std::to_string(buffer) + "]->shape[" + std::to_string(dim) + "])";
  }
};

/// The fixed part of every emitted source: integer division as the IR means it, checked loads.
const char* kPrelude =
    R"cpp(#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>

#include "attn/kernel_abi.h"

          namespace {
          int floor_div(int a, int b) { return b == 0 ? 0 : (a / b) - ((a % b != 0) && ((a < 0) != (b < 0))); }
          int floor_mod(int a, int b) { return b == 0 ? 0 : ((a % b) + b) % b; }
          float float_mod(float a, float b) { return a - b * std::floor(a / b); }
          bool out_of_range = false;
          // Element `index` of tensor argument `buffer`; an index out of range reads element 0 and is
          // reported.
          template <class T>
          T load(const attn_kernel_args* a, int buffer, std::initializer_list<int64_t> index) {
            const DLTensor* t = a->buffers[buffer];
            int64_t offset = 0, stride = 1, d = t->ndim;
            for (auto i = index.end(); i != index.begin();) {
              --i, --d;
              if (*i < 0 || *i >= t->shape[d]) {
                out_of_range = true;
                return T(0);
              }
              offset += *i * stride;
              stride *= t->shape[d];
            }
            return static_cast<const T*>(t->data)[offset];
          }
          float at(const DLTensor* t, int64_t b, int64_t h, int64_t i, int64_t c) {
            const int64_t* s = t->strides;
            const int64_t* n = t->shape;
            const int64_t off = s ? b * s[0] + h * s[1] + i * s[2] + c * s[3] : ((b * n[1] + h) * n[2] + i) * n[3] + c;
            return static_cast<const float*>(t->data)[off];
          }
          }  // namespace
)cpp";

/// The kernel's whole source: `attn_<name>`, f32 Q/K/V/Out, Out = softmax(mask, score) V.
std::string scalar_cpp_source(const KernelIR& ir) {
  if (kernel_options(ir).dtype != DType::F32)
    throw std::invalid_argument("scalar-cpp runs f32 kernels only (this one is " +
                                std::string(dtype_name(kernel_options(ir).dtype)) + ")");
  ScalarCppPrinter pr(ir);
  const double scale = kernel_options(ir).scale ? *kernel_options(ir).scale : 0;
  std::string s = kPrelude;
  s += "\nextern \"C\" int attn_" + kernel_name(ir) + "(const attn_kernel_args* a) {\n";
  s += R"cpp(const int64_t B = a->q->shape[0], Hq = a->q->shape[1], Lq = a->q->shape[2], D = a->q->shape[3];
             const int64_t Hkv = a->k->shape[1], Lkv = a->k->shape[2], Dv = a->v->shape[3];
             out_of_range = false;
  )cpp";
  s +=
      "  const float scale = " + (scale ? std::to_string(scale) : std::string("1.0f / std::sqrt((float)D)")) +
      ";\n";
  s += R"cpp(float* out = static_cast<float*>(a->out->data);
             float* lse = a->lse ? static_cast<float*>(a->lse->data) : nullptr;
             for (int b = 0; b < B; ++b)
               for (int h = 0; h < Hq; ++h)
                 for (int q = 0; q < Lq; ++q) {
                   float m = -std::numeric_limits<float>::infinity(), sum = 0;
                   float* o = out + ((b * Hq + h) * Lq + q) * Dv;
                   for (int c = 0; c < Dv; ++c) o[c] = 0;
                   for (int pass = 0; pass < 2; ++pass)
                     for (int kv = 0; kv < Lkv; ++kv) {
  )cpp";
  s += "            if (!(" + pr.print(ir.mask) + ")) continue;\n";
  s += R"cpp(float dot = 0;
             for (int c = 0; c < D; ++c) dot += at(a->q, b, h, q, c) * at(a->k, b, h / (Hq / Hkv), kv, c);
             const float score = dot * scale;
  )cpp";
  s += "            const float s = " + pr.print(ir.score) + ";\n";
  s += R"cpp(if (pass == 0) {
               m = std::max(m, s);
               continue;
             }
             if (m == -std::numeric_limits<float>::infinity()) break;
             const float p = std::exp(s - m);
             sum += p;
             for (int c = 0; c < Dv; ++c) o[c] += p * at(a->v, b, h / (Hq / Hkv), kv, c);
             }
             for (int c = 0; c < Dv; ++c) o[c] = sum > 0 ? o[c] / sum : 0;
             if (lse) lse[(b * Hq + h) * Lq + q] = sum > 0 ? m + std::log(sum) : -std::numeric_limits<float>::infinity();
             }
             if (out_of_range) {
               if (a->error && a->error_size) std::snprintf(a->error, a->error_size, "a buffer index is out of range");
               return 1;
             }
             return 0;
             }
  )cpp";
  return s;
}

/// `source` compiled with the host compiler into a shared object and opened (once per source).
void* compiled(const std::string& source) {
  static std::mutex mutex;
  static std::map<std::string, void*> libraries;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = libraries.find(source); it != libraries.end()) return it->second;
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("attnc-scalar-cpp-" + std::to_string(::getpid()) + "-" + std::to_string(libraries.size()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "k.cpp") << source;
  const std::string so = (dir / "k.so").string();
  const std::string cmd = "c++ -std=c++17 -O1 -shared -fPIC -I" ATTNC_RUNTIME_INCLUDE " -o " + so + " " +
                          (dir / "k.cpp").string() + " 2>" + (dir / "log").string();
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("scalar-cpp: the host compiler failed: " + cmd);
  void* library = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::runtime_error(std::string("scalar-cpp: ") + dlerror());
  std::filesystem::remove_all(dir);
  return libraries[source] = library;
}

class ScalarCppBackend : public Backend {
 public:
  const char* name() const override { return "scalar-cpp"; }
  bool can(Capability c) const override {
    return c == Capability::Compile || c == Capability::Dump || c == Capability::Run || c == Capability::Load;
  }
  EmittedKernel emit(const KernelIR& ir, const EmitOptions&) const override {
    return {{{kernel_name(ir) + "_scalar.cpp", scalar_cpp_source(ir)}}, {}};
  }
  std::string dump(const KernelIR& ir) const override { return scalar_cpp_source(ir); }
  KernelOutputs run(const KernelIR& ir, const KernelInputs& in, int) const override {
    validate_inputs(ir, in);
    using Entry = int (*)(const attn_kernel_args*);
    auto entry =
        reinterpret_cast<Entry>(dlsym(compiled(scalar_cpp_source(ir)), ("attn_" + kernel_name(ir)).c_str()));
    if (!entry) throw std::runtime_error("scalar-cpp: no entry point");
    KernelOutputs out = make_outputs(ir, in);
    KernelCallArgs call(call_tensors(ir, in, out));
    if (entry(&call.args()) != 0) throw EvalError(call.error());
    return out;
  }
};

const ScalarCppBackend backend;
// The registration: at start-up, before main, as a plug-in would.
const bool registered = (register_backend(backend), true);

}  // namespace

}  // namespace attn
