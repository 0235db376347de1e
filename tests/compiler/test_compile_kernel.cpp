// attn::compile_kernel: located errors, kernel selection, and calls of a buffer mask that match
// `attnc run` (run_cpu_kernel) exactly with the call's own plan, closely without one and on the
// vulkan target (lavapipe); the reference target's calls (strided views, errors) and the cuda
// target's errors without a GPU (test_compile_kernel_gpu runs it on one).
#define BOOST_TEST_MODULE compile_kernel
#include <boost/test/unit_test.hpp>

#include <random>

#include "attn/compile.hpp"
#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "compiler/LowerProgram.h"
#include "frontend/Program.h"
#include "runtime/CudaDriver.h"
#include "runtime/KernelCallArgs.h"

using namespace attn;

namespace {

const char* kTwoKernels = R"(import std.masks;
kernel first { mask = causal; }
kernel second { mask = sliding_window(8); }
)";

const char* kDocuments = R"(import std.documents;
kernel doc_causal(doc: tensor<i32>[len], global: tensor<bool>[len]) {
  mask = with_global(document_causal(doc), global);
  dtype = f32;
}
)";

std::string source_error(const std::string& file, const std::string& text,
                         const CompileOptions& options = {}) {
  try {
    compile_kernel(file, text, options);
  } catch (const SourceError& e) {
    return e.what();
  }
  return "";
}

HostTensor random_tensor(std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor t(ScalarType::F32, std::move(shape));
  std::normal_distribution<float> normal;
  for (int64_t i = 0; i < t.numel(); ++i) t.set(i, normal(rng));
  return t;
}

// Inputs of kDocuments' kernel: lengths that are not multiples of a tile; documents of 150, 100 and
// 50 positions, 2 of them global.
KernelInputs document_inputs(int64_t head_dim) {
  const int64_t L = 300;
  std::mt19937 rng(3);
  KernelInputs in;
  in.q = random_tensor({1, 2, L, head_dim}, rng), in.k = random_tensor({1, 2, L, head_dim}, rng);
  in.v = random_tensor({1, 2, L, head_dim}, rng);
  HostTensor doc(ScalarType::I32, {L}), global(ScalarType::Bool, {L});
  for (int64_t i = 0; i < L; ++i)
    doc.set(i, i < 150 ? 0 : i < 250 ? 1 : 2), global.set(i, i == 7 || i == 260);
  in.buffers["doc"] = doc, in.buffers["global"] = global;
  return in;
}

std::shared_ptr<const KernelIR> document_ir() {
  return lower_program_kernel(*load_program_text("docs.attn", kDocuments), "docs.attn", "");
}

double max_diff(const HostTensor& a, const HostTensor& b) {
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) worst = std::max(worst, std::abs(a.get(i) - b.get(i)));
  return worst;
}

}  // namespace

BOOST_AUTO_TEST_CASE(bad_text_is_a_located_error) {
  std::string e = source_error("bad.attn", "import std.masks;\nkernel k { mask = casual; }\n");
  BOOST_TEST(e.rfind("bad.attn:2:19: error: unknown name 'casual'", 0) == 0, e);
}

BOOST_AUTO_TEST_CASE(kernel_selection_names_the_kernels) {
  BOOST_TEST(source_error("two.attn", kTwoKernels) ==
             "error: two.attn has 2 kernels; name one: first, second\n");
  CompileOptions missing;
  missing.kernel = "c";
  BOOST_TEST(source_error("two.attn", kTwoKernels, missing) ==
             "error: no kernel 'c' in two.attn; kernels: first, second\n");
  CompileOptions gpu;
  gpu.kernel = "first";
  gpu.target = "gpu";
  BOOST_CHECK_THROW(compile_kernel("two.attn", kTwoKernels, gpu), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_buffer_mask_call_plans_as_attnc_run_does) {
  CompiledKernel kernel = compile_kernel("docs.attn", kDocuments);
  BOOST_TEST(kernel.name() == "doc_causal");
  BOOST_TEST(kernel.dtype() == "f32");
  BOOST_TEST(!kernel.writes_lse());
  BOOST_REQUIRE(kernel.params().size() == 2u);
  BOOST_TEST(kernel.params()[0].name == "doc");
  BOOST_TEST(kernel.params()[1].elem == "bool");

  KernelInputs in = document_inputs(64);
  auto ir = document_ir();
  KernelOutputs want = run_cpu_kernel(*ir, in, 2);

  KernelOutputs planned = make_outputs(*ir, in);
  KernelOutputs unplanned = make_outputs(*ir, in);
  KernelCallArgs call(call_tensors(*ir, in, planned));
  call.args().num_threads = 2;
  BOOST_REQUIRE(call.args().kv_ranges == nullptr);
  BOOST_REQUIRE_MESSAGE(kernel(call.args()) == 0, call.error());
  BOOST_TEST(planned.out.bytes == want.out.bytes);

  // The loaded kernel itself, without a plan, reads every key: the same values up to rounding.
  KernelCallArgs raw(call_tensors(*ir, in, unplanned));
  BOOST_REQUIRE_MESSAGE(kernel.kernel()(raw.args()) == 0, raw.error());
  BOOST_TEST(max_diff(unplanned.out, want.out) < 1e-5);
}

BOOST_AUTO_TEST_CASE(a_vulkan_call_matches_the_cpu_kernel) {
  CompileOptions vulkan;
  vulkan.target = "vulkan";
  vulkan.head_dim = 16;  // quick to JIT on lavapipe (without it: the vulkan backend's default, 64)
  CompiledKernel kernel = compile_kernel("docs.attn", kDocuments, vulkan);
  KernelInputs in = document_inputs(16);
  auto ir = document_ir();
  KernelOutputs want = run_cpu_kernel(*ir, in, 2), got = make_outputs(*ir, in);
  KernelCallArgs call(call_tensors(*ir, in, got));
  BOOST_REQUIRE_MESSAGE(kernel(call.args()) == 0, call.error());
  BOOST_TEST(max_diff(got.out, want.out) < 1e-4);
}

BOOST_AUTO_TEST_CASE(a_reference_call_is_run_reference_on_the_call_s_tensors) {
  CompileOptions reference;
  reference.target = "reference";
  CompiledKernel kernel = compile_kernel("docs.attn", kDocuments, reference);
  BOOST_TEST(!bool(kernel.kernel()));  // nothing loaded
  BOOST_TEST(kernel.params().size() == 2u);
  KernelInputs in = document_inputs(24);
  auto ir = document_ir();
  KernelOutputs want = run_reference(*ir, in, 2), got = make_outputs(*ir, in);
  BOOST_TEST(max_diff(want.out, run_cpu_kernel(*ir, in, 2).out) < 1e-4);

  // q as a view of rows padded by 3 elements: the reference reads through the strides.
  const int64_t L = in.q.shape[2], D = in.q.shape[3], row = D + 3;
  std::vector<float> padded(size_t(2 * L * row), -1e30f);
  for (int64_t r = 0; r < 2 * L; ++r)
    for (int64_t d = 0; d < D; ++d) padded[size_t(r * row + d)] = float(in.q.get(r * D + d));
  KernelCallArgs call(call_tensors(*ir, in, got));
  int64_t strides[] = {2 * L * row, L * row, row, 1};
  call.view(in.q).data = padded.data();
  call.view(in.q).strides = strides;
  call.args().num_threads = 2;
  BOOST_REQUIRE_MESSAGE(kernel(call.args()) == 0, call.error());
  BOOST_TEST(got.out.bytes == want.out.bytes);

  // Errors come back through args.error, named after the kernel.
  DLTensor device_q = call.view(in.q);
  device_q.device = {kDLCUDA, 0};
  call.args().q = &device_q;
  BOOST_TEST(kernel(call.args()) != 0);
  BOOST_TEST(std::string(call.error()).rfind("doc_causal: q is not in host memory", 0) == 0, call.error());
  call.args().q = &call.view(in.q);
  call.args().num_buffers = 1;
  BOOST_TEST(kernel(call.args()) != 0);
  BOOST_TEST(std::string(call.error()) == "doc_causal: missing buffer argument 'global'");
}

BOOST_AUTO_TEST_CASE(a_cuda_compile_without_a_gpu_is_a_clear_error) {
  CompileOptions cuda;
  cuda.target = "cuda";
  std::string why;
  if (cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("a CUDA device is present: test_compile_kernel_gpu runs the cuda target");
    return;
  }
  // No head dim given: the cuda backend's default (128); the missing driver is the error.
  BOOST_CHECK_EXCEPTION(compile_kernel("docs.attn", kDocuments, cuda), std::runtime_error,
                        [&](const std::runtime_error& e) { return std::string(e.what()) == why; });
  cuda.head_dim = 64;
  BOOST_CHECK_EXCEPTION(compile_kernel("docs.attn", kDocuments, cuda), std::runtime_error,
                        [&](const std::runtime_error& e) { return std::string(e.what()) == why; });
}
