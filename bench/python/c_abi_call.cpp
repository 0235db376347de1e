// The floor of bench/python/call_overhead.py: the per-call time of a compiled CPU kernel called
// through its C ABI (attn_kernel_args built once, then `run` in a loop), with no Python and no
// per-call checks. Prints one JSON line: the median and best of --iters calls, in microseconds.
// Usage: c_abi_call [--len L] [--dim D] [--iters N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/CpuBackend.h"
#include "backends/io/KernelIO.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/KernelCallArgs.h"

int main(int argc, char** argv) {
  int64_t len = 16, dim = 16, iters = 20000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--len"))
      len = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--dim"))
      dim = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--iters"))
      iters = std::atoll(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: c_abi_call [--len L] [--dim D] [--iters N]\n");
      return 1;
    }
  }
  // The kernel call_overhead.py calls from Python: the same text, so the same generated source.
  auto program =
      attn::load_program_text("<bench>", "import std.masks;\nkernel causal_attention { mask = causal; }\n");
  attn::DiagnosticEngine diags;
  auto ir = attn::lower_kernel(*program, *program->kernels().at(0), diags);
  if (!ir) return 1;
  auto kernel = attn::compile_cpu_kernel(attn::generate_cpu_kernel(*ir, attn::host_cpu_target()));

  attn::KernelInputs in;
  for (attn::HostTensor* t : {&in.q, &in.k, &in.v}) {
    *t = attn::HostTensor(attn::ScalarType::F32, {1, 1, len, dim});
    std::fill(t->bytes.begin(), t->bytes.end(), uint8_t{0x3c});
  }
  attn::KernelOutputs out = attn::make_outputs(*ir, in);
  attn::KernelCallArgs args(attn::call_tensors(*ir, in, out));
  args.args().num_threads = 1;  // as the Python calls in call_overhead.py

  std::vector<double> us(size_t(std::max<int64_t>(iters, 1)));
  for (double& t : us) {
    auto t0 = std::chrono::steady_clock::now();
    if (kernel->run(args.args()) != 0) {
      std::fprintf(stderr, "kernel failed: %s\n", args.error());
      return 1;
    }
    t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  std::sort(us.begin(), us.end());
  std::printf("{\"path\": \"c_abi\", \"len\": %lld, \"dim\": %lld, \"median_us\": %.3f, \"best_us\": %.3f}\n",
              (long long)len, (long long)dim, us[us.size() / 2], us[0]);
  return 0;
}
