// CUDA backend tests on a GPU (label gpu): every test kernel against the reference on random
// inputs with odd lengths, GQA and every dtype the kernel allows. Skips cleanly without a GPU.
#define BOOST_TEST_MODULE cuda_gpu
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include "backends/cuda/CudaRun.h"
#include "backends/reference/Reference.h"
#include "codegen/KernelIR.h"
#include "runtime/CudaDriver.h"
#include "tests/cuda/CudaTestKernels.h"

using namespace attn;

namespace {

HostTensor random_tensor(ScalarType t, std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor x(t, std::move(shape));
  std::normal_distribution<double> n(0.0, 1.0);
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, n(rng));
  return x;
}

ScalarType dtype_scalar(DType d) {
  return d == DType::BF16 ? ScalarType::BF16 : d == DType::F16 ? ScalarType::F16 : ScalarType::F32;
}

/// Inputs for `ir` with the given lengths; documents of random lengths for i32 buffers, per-head
/// slopes for f32 buffers, random flags for bool buffers.
KernelInputs make_inputs(const KernelIR& ir, int64_t lq, int64_t lkv, std::mt19937& rng) {
  const int64_t B = 2, Hq = 4, Hkv = 2;
  const int64_t D = ir.options.head_dim ? ir.options.head_dim : 128;
  const int64_t Dv = ir.options.value_dim ? ir.options.value_dim : D;
  const ScalarType t = dtype_scalar(ir.options.dtype);
  KernelInputs in;
  in.q = random_tensor(t, {B, Hq, lq, D}, rng);
  in.k = random_tensor(t, {B, Hkv, lkv, D}, rng);
  in.v = random_tensor(t, {B, Hkv, lkv, Dv}, rng);
  const int64_t len = std::max(lq, lkv);
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      in.scalars[a.name] = 16;
      continue;
    }
    std::vector<int64_t> shape;
    for (size_t d = 0; d < a.dims.size(); ++d) shape.push_back(a.dims[d] == "heads" ? Hq : len);
    if (a.elem == ElemType::I32) {
      // Sorted document ids (contiguous documents); `start`-like buffers get document starts.
      HostTensor x(ScalarType::I32, shape);
      int64_t doc = 0;
      for (int64_t i = 0; i < x.numel(); ++i) {
        if (i > 0 && rng() % 97 == 0) ++doc;
        x.set(i, static_cast<double>(a.name == "start" ? 0 : doc));
      }
      in.buffers[a.name] = x;
    } else if (a.elem == ElemType::F32) {
      HostTensor x(ScalarType::F32, shape);
      for (int64_t i = 0; i < x.numel(); ++i) x.set(i, -0.05 * static_cast<double>(i + 1));
      in.buffers[a.name] = x;
    } else {
      HostTensor x(ScalarType::Bool, shape);
      for (int64_t i = 0; i < x.numel(); ++i) x.set(i, rng() % 50 == 0 ? 1 : 0);
      in.buffers[a.name] = x;
    }
  }
  return in;
}

double tolerance(DType d) { return d == DType::F32 ? 2e-3 : d == DType::F16 ? 1e-2 : 3e-2; }

/// Every test kernel against the reference at odd lengths; `options` picks the kernel family.
/// Kernels `only_if` rejects are left out.
void check_every_kernel(const CudaRunOptions& options, bool (*only_if)(const KernelIR&)) {
  std::vector<std::string> errors;
  std::mt19937 rng(1234);
  for (const test::TestKernel& k : test::cuda_test_kernels(errors, {"bf16", "f16", "f32"})) {
    if (!only_if(*k.ir)) continue;
    // The last two have few query tiles over many keys: split-KV (several CTAs per query tile,
    // merged by the last one) on any GPU with more SMs than their 8 or 16 CTAs.
    for (auto [lq, lkv] :
         {std::pair<int64_t, int64_t>{1, 1}, {77, 77}, {200, 333}, {513, 129}, {1, 3001}, {70, 2600}}) {
      KernelInputs in = make_inputs(*k.ir, lq, lkv, rng);
      KernelOutputs ref;
      try {
        ref = run_reference(*k.ir, in);
      } catch (const std::exception& e) {
        // The reference rejects these inputs (e.g. an index out of range): so must the GPU.
        BOOST_CHECK_THROW(run_cuda(*k.ir, in, options), std::exception);
        continue;
      }
      CudaRunResult got;
      try {
        got = run_cuda(*k.ir, in, options);
      } catch (const std::exception& e) {
        BOOST_ERROR(k.label << " Lq=" << lq << " Lkv=" << lkv << ": " << e.what());
        continue;
      }
      double worst = 0;
      for (int64_t i = 0; i < ref.out.numel(); ++i) {
        const double a = got.outputs.out.get(i), b = ref.out.get(i);
        worst = std::max(worst, std::isnan(a) ? INFINITY : std::abs(a - b));
      }
      BOOST_TEST(worst <= tolerance(k.ir->options.dtype), k.label << " (" << describe(got.tiles)
                                                                  << ") Lq=" << lq << " Lkv=" << lkv
                                                                  << ": max |err| " << worst);
      if (k.ir->options.lse) {
        double lse_worst = 0;
        for (int64_t i = 0; i < ref.lse.numel(); ++i) {
          const double a = got.outputs.lse.get(i), b = ref.lse.get(i);
          lse_worst = std::max(lse_worst, (std::isinf(a) && std::isinf(b) && a == b) ? 0.0 : std::abs(a - b));
        }
        BOOST_TEST(lse_worst <= 1e-2, k.label << " LSE max |err| " << lse_worst);
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_kernel_matches_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  check_every_kernel({}, [](const KernelIR&) { return true; });
}

BOOST_AUTO_TEST_CASE(hopper_warpgroup_kernels_match_the_reference) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  if (CudaDevice::open(0)->sm() != 90) {
    BOOST_TEST_MESSAGE("skipped: the warpgroup kernel needs sm_90a");
    return;
  }
  CudaRunOptions o;
  o.prefer_wgmma = true;
  check_every_kernel(o, [](const KernelIR& ir) { return ir.options.dtype != DType::F32; });
}

BOOST_AUTO_TEST_CASE(out_of_range_index_is_reported) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  std::vector<std::string> errors;
  std::mt19937 rng(7);
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    if (kernel_name(*k.ir) != "documents_bf16_128") continue;
    KernelInputs in = make_inputs(*k.ir, 100, 100, rng);
    in.buffers["doc"] = HostTensor(ScalarType::I32, {50});  // shorter than the sequence
    BOOST_CHECK_EXCEPTION(run_cuda(*k.ir, in), CudaError, [](const CudaError& e) {
      return std::string(e.what()).find("buffer 'doc' index") != std::string::npos;
    });
  }
}
