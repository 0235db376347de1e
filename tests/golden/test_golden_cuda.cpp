// Golden CUDA sources: every kernel of tests/golden/cuda/*.attn as the .cu and .cuh the backend
// prints (sm_80), and a bf16/f16 kernel's warpgroup variant (sm_90a), with the device library and
// the parameter block header shown as markers. test_cuda compiles the whole output with NVRTC.
#include <boost/test/unit_test.hpp>

#include "backends/cuda/CudaDeviceText.h"
#include "backends/cuda/CudaPrinter.h"
#include "codegen/Lower.h"
#include "tests/golden/GoldenKernels.h"
#include "tests/support/Golden.h"

using namespace attn;
using namespace attn::test;

namespace {

std::vector<FixedText> device_library() {
  std::vector<FixedText> fixed;
  for (const char* name : {"attn_common.cuh", "attn_expr.cuh", "attn_split_merge.cuh", "attn_tiles.cuh",
                           "attn_mma_layout.cuh", "attn_wgmma_layout.cuh", "attn_tc_common.cuh",
                           "attn_fwd_mma.cuh", "attn_fwd_wgmma.cuh", "attn_fwd_simt.cuh", "cuda_abi.h"})
    fixed.push_back({std::string("cuda device library ") + name,
                     // The forward prints the mma.sync helpers it shares with the backward right
                     // before its kernel: one block, as before they had a file of their own.
                     std::string(name) == "attn_fwd_mma.cuh"
                         ? cuda_device_text("attn_mma_ops.cuh") + cuda_device_text(name)
                         : cuda_device_text(name)});
  return fixed;
}

}  // namespace

BOOST_AUTO_TEST_CASE(cuda_sources) {
  const std::vector<FixedText> fixed = device_library();
  for (const auto& ir : golden_kernels("cuda")) {
    const std::string name = kernel_name(*ir);
    CudaPrintOptions po;
    po.source_name = "kernels.attn";
    CudaKernelSource src = print_cuda_kernel(*ir, po);
    check_golden(golden_dir("cuda") / (name + ".cu"), lean_golden_text(src.cu, fixed));
    check_golden(golden_dir("cuda") / (name + ".cuh"), lean_golden_text(src.header, fixed));
    if (ir->options.dtype == DType::F32) continue;  // Hopper's warpgroup kernel is bf16/f16 only
    po.sm = 90;
    po.prefer_wgmma = true;
    check_golden(golden_dir("cuda") / (name + "_wgmma.cu"),
                 lean_golden_text(print_cuda_kernel(*ir, po).cu, fixed));
  }
}
