// attn::compile_kernel's cuda target on a GPU (label gpu): a buffer-mask kernel compiled from .attn
// text and called on device tensors, as an application calls it, against the reference target
// called on the same inputs in host memory. Skips cleanly without a GPU.
#define BOOST_TEST_MODULE compile_kernel_gpu
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>

#include "attn/compile.hpp"
#include "backends/io/KernelIO.h"
#include "compiler/LowerProgram.h"
#include "frontend/Program.h"
#include "runtime/CudaDriver.h"
#include "runtime/KernelCallArgs.h"

using namespace attn;

namespace {

const char* kDocuments = R"(import std.documents;
kernel doc_causal(doc: tensor<i32>[len], global: tensor<bool>[len]) {
  mask = with_global(document_causal(doc), global);
  dtype = f32;
  head_dim = 64;
  lse = true;
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(a_cuda_call_matches_the_reference_target) {
  std::string why;
  if (!cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("skipped: " << why);
    return;
  }
  CompileOptions cuda, reference;
  cuda.target = "cuda";
  reference.target = "reference";
  CompiledKernel kernel = compile_kernel("docs.attn", kDocuments, cuda);
  CompiledKernel oracle = compile_kernel("docs.attn", kDocuments, reference);
  BOOST_TEST(bool(kernel.kernel()));
  auto ir = lower_program_kernel(*load_program_text("docs.attn", kDocuments), "docs.attn", "");

  // Lengths that are not tile multiples; documents of 150, 100 and 53 positions, 2 of them global.
  const int64_t L = 303;
  std::mt19937 rng(9);
  std::normal_distribution<double> normal;
  KernelInputs in;
  for (HostTensor* t : {&in.q, &in.k, &in.v}) {
    *t = HostTensor(ScalarType::F32, {2, 2, L, 64});
    for (int64_t i = 0; i < t->numel(); ++i) t->set(i, normal(rng));
  }
  HostTensor doc(ScalarType::I32, {L}), global(ScalarType::Bool, {L});
  for (int64_t i = 0; i < L; ++i)
    doc.set(i, i < 150 ? 0 : i < 250 ? 1 : 2), global.set(i, i == 7 || i == 260);
  in.buffers["doc"] = doc, in.buffers["global"] = global;

  KernelOutputs want = make_outputs(*ir, in), got = make_outputs(*ir, in);
  KernelCallArgs host_call(call_tensors(*ir, in, want));
  BOOST_REQUIRE_MESSAGE(oracle(host_call.args()) == 0, host_call.error());

  std::shared_ptr<CudaDevice> device = CudaDevice::open();
  std::map<const HostTensor*, CudaBuffer> copies;
  auto place = [&](const HostTensor& t, bool output) {
    CudaBuffer& b = copies[&t] = device->alloc(t.bytes.size());
    if (!output) device->upload(b, t.bytes.data(), t.bytes.size());
    return reinterpret_cast<void*>(b.ptr());
  };
  KernelCallArgs device_call(call_tensors(*ir, in, got), {kDLCUDA, 0}, place);
  BOOST_REQUIRE_MESSAGE(kernel(device_call.args()) == 0, device_call.error());
  for (HostTensor* t : {&got.out, &got.lse}) device->download(t->bytes.data(), copies.at(t), t->bytes.size());
  double out_err = 0, lse_err = 0;
  for (int64_t i = 0; i < got.out.numel(); ++i)
    out_err = std::max(out_err, std::abs(got.out.get(i) - want.out.get(i)));
  for (int64_t i = 0; i < got.lse.numel(); ++i)
    lse_err = std::max(lse_err, std::abs(got.lse.get(i) - want.lse.get(i)));
  BOOST_TEST(out_err <= 2e-3);  // test_cuda_gpu's f32 tolerances
  BOOST_TEST(lse_err <= 1e-2);
}
