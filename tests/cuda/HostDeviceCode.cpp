// Device-library text compiled for the host (see HostDeviceCode.h).
#include "tests/cuda/HostDeviceCode.h"

#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include "backends/cuda/CudaDeviceText.h"
#include "codegen/KernelIR.h"
#include "tests/support/TestSupport.h"

namespace attn::test {

std::string host_device_prelude() {
  // attn_tiles.cuh's split-KV merge names the block and grid, barriers and atomics: declared here
  // so that its templates parse; the walks the tests call never reach them.
  std::string s =
      "#include <cmath>\n#include <cstdlib>\n#include <cstring>\n"
      "#define __device__\n#define __forceinline__ inline\n#define ATTN_HD inline\n"
      "#define ATTN_LOAD_SHARED_RESULT(ptr) (*(ptr))\n"
      "inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }\n"
      "inline int atomicCAS(int* p, int c, int v) { int o = *p; if (o == c) *p = v; return o; }\n"
      "inline int atomicAdd(int* p, int v) { int o = *p; *p += v; return o; }\n"
      // CUDA's integer min/max overloads: an unsigned operand makes the comparison unsigned.
      "inline int min(int a, int b) { return a < b ? a : b; }\n"
      "inline int max(int a, int b) { return a > b ? a : b; }\n"
      "inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }\n"
      "inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }\n"
      "inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }\n"
      "inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }\n"
      "inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }\n"
      "inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }\n"
      "inline long long min(long long a, long long b) { return a < b ? a : b; }\n"
      "inline long long max(long long a, long long b) { return a > b ? a : b; }\n"
      "inline void __threadfence() {}\ninline void __syncthreads() {}\n"
      "inline bool __syncthreads_or(bool x) { return x; }\n"
      "struct attn_host_dim3 { unsigned x, y, z; };\n"
      "inline attn_host_dim3 blockIdx{}, threadIdx{}, blockDim{1, 1, 1}, gridDim{1, 1, 1};\n"
      "typedef float attn_elem;\ntypedef float attn_in;\ninline void from_f32(float x, float* out) { *out = "
      "x; }\n";
  for (const char* text : {"cuda_abi.h", "cuda_backward_abi.h", "attn_expr.cuh"}) s += cuda_device_text(text);
  return s;
}

HostArguments::HostArguments(const KernelIR& ir, std::mt19937& rng, int64_t extent, int64_t heads,
                             const std::map<std::string, int64_t>& dims) {
  tensors.reserve(ir.args.size());  // `values` and `params` point at them
  params.error = &error;
  int buffer = 0, scalar = 0;
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      values.buffers.push_back(nullptr);
      values.scalars.push_back(16);
      params.scalars[scalar++] = 16;
      continue;
    }
    std::vector<int64_t> shape;
    for (const std::string& d : a.dims)  // a literal dimension keeps its value
      shape.push_back(d == "heads"                                                ? heads
                      : dims.count(d)                                             ? dims.at(d)
                      : !d.empty() && d.find_first_not_of("0123456789") == d.npos ? std::stoll(d)
                                                                                  : extent);
    const ScalarType t = a.elem == ElemType::I32   ? ScalarType::I32
                         : a.elem == ElemType::F32 ? ScalarType::F32
                                                   : ScalarType::Bool;
    tensors.emplace_back(t, shape);
    HostTensor& x = tensors.back();
    for (int64_t j = 0; j < x.numel(); ++j)
      x.set(j, t == ScalarType::I32   ? static_cast<double>(j / 37)
               : t == ScalarType::F32 ? 0.01 * static_cast<double>(rng() % 200) - 1
                                      : rng() % 7 == 0);
    values.buffers.push_back(&x);
    values.scalars.push_back(0);
    attn_cuda_buffer& b = params.buffers[buffer++];
    b.data = x.bytes.data();
    b.rank = static_cast<int>(shape.size());
    long long stride = 1;
    for (int d = b.rank - 1; d >= 0; --d) {
      b.shape[d] = shape[static_cast<size_t>(d)];
      b.stride[d] = stride;
      stride *= b.shape[d];
    }
  }
}

void* load_host_library(const std::filesystem::path& dir, const std::string& source) {
  write_file(dir / "code.cpp", source);
  const std::string so = (dir / "code.so").string();
  auto cc = run_command("c++ -std=c++17 -O1 -w -shared -fPIC -o " + so + " " + (dir / "code.cpp").string());
  BOOST_REQUIRE_MESSAGE(cc.status == 0, cc.output);
  void* library = dlopen(so.c_str(), RTLD_NOW);
  BOOST_REQUIRE_MESSAGE(library, dlerror());
  return library;
}

}  // namespace attn::test
