// Built by tests/consumer/RunConsumer.cmake with `pkg-config --cflags --libs attnc-compiler` only:
// compiles a causal kernel from .attn text for the reference target and checks that the first
// query, which sees only the first key, gets the first value row.
#include <attn/compile.hpp>
#include <cstdio>

int main() {
  attn::CompileOptions options;
  options.target = "reference";
  attn::CompiledKernel kernel =
      attn::compile_kernel("causal.attn", "import std.masks;\nkernel causal { mask = causal; }\n", options);
  float q[6] = {1, 2, 3, 4, 5, 6}, k[6] = {6, 5, 4, 3, 2, 1}, v[6] = {7, 8, 9, 10, 11, 12}, out[6] = {};
  int64_t shape[4] = {1, 1, 3, 2};
  auto view = [&](float* data) {
    DLTensor t{};
    t.data = data, t.device = {kDLCPU, 0}, t.ndim = 4, t.dtype = {kDLFloat, 32, 1}, t.shape = shape;
    return t;
  };
  DLTensor tq = view(q), tk = view(k), tv = view(v), tout = view(out);
  char error[256] = "";
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = &tq, args.k = &tk, args.v = &tv, args.out = &tout;
  args.error = error, args.error_size = sizeof error;
  if (kernel(args) != 0) {
    std::fprintf(stderr, "%s\n", error);
    return 1;
  }
  std::printf("%s: out[0] = %g %g\n", kernel.name().c_str(), out[0], out[1]);
  return out[0] == 7 && out[1] == 8 ? 0 : 1;
}
