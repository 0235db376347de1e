// The CUDA error word on every launch path (gpu label; skips without a GPU): the loader's
// synchronous call (C API) reports an out-of-range read at once and the next call is clean; a
// stream launch (launch_on, Python's path) returns 0 and the read is reported once by
// take_error() or take_cuda_errors(), not before, and the word is not re-zeroed by later launches.
#define BOOST_TEST_MODULE cuda_error_word
#include <boost/test/unit_test.hpp>

#include <deque>

#include "attn/loader.h"
#include "attn/loader.hpp"
#include "backends/cuda/CudaPrinter.h"
#include "runtime/CudaCompiler.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "tests/support/CheckedLowering.h"

using namespace attn;

namespace {

/// ALiBi over causal attention: slopes[h] is read at every kept key, so slopes of extent 1 with
/// 4 heads read out of range.
const char* kProgram =
    "import std.masks;\nimport std.scores;\n"
    "kernel alibi(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); head_dim = 64; }\n";

/// Device tensors of one call: q, k, v [1, 4, 40, 64] f32, out, and slopes of `heads` entries.
struct Call {
  std::shared_ptr<CudaDevice> device = CudaDevice::open(0);
  std::vector<CudaBuffer> memory;
  std::deque<std::vector<int64_t>> shapes;
  std::deque<DLTensor> views;
  std::vector<const DLTensor*> buffers;
  char error[512] = "";
  attn_kernel_args args{};

  DLTensor* tensor(std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    memory.push_back(device->alloc(static_cast<size_t>(n) * 4));
    std::vector<float> ones(static_cast<size_t>(n), 1.0f);
    device->upload(memory.back(), ones.data(), ones.size() * 4);
    shapes.push_back(std::move(shape));
    DLTensor& t = views.emplace_back();
    t.data = reinterpret_cast<void*>(memory.back().ptr());
    t.device = {kDLCUDA, 0};
    t.ndim = static_cast<int>(shapes.back().size());
    t.dtype = {kDLFloat, 32, 1};
    t.shape = shapes.back().data();
    return &t;
  }
  explicit Call(int64_t heads) {
    memory.reserve(8);
    args.abi_version = ATTN_KERNEL_ABI_VERSION;
    args.q = tensor({1, 4, 40, 64}), args.k = tensor({1, 4, 40, 64}), args.v = tensor({1, 4, 40, 64});
    args.out = tensor({1, 4, 40, 64});
    buffers.push_back(tensor({heads}));
    args.buffers = buffers.data(), args.num_buffers = 1;
    args.error = error, args.error_size = sizeof error;
  }
};

Kernel load_alibi() {
  const auto ir = test::lower_checked(*test::load_checked_text("alibi.attn", kProgram), "alibi");
  CudaPrintOptions po;
  po.sm = CudaDevice::open(0)->sm();
  const CudaKernelSource src = print_cuda_kernel(*ir, po);
  KernelRequest r;
  r.target = "cuda";
  r.source = src.cu;
  r.entry = src.launch.entry;
  return process_loader().get(r);
}

bool have_gpu() {
  std::string why;
  if (cuda_driver_available(&why)) return true;
  BOOST_TEST_MESSAGE("skipped: " << why);
  return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_synchronous_call_reports_at_once) {
  if (!have_gpu()) return;
  const Kernel kernel = load_alibi();
  Call bad(1), good(4);
  BOOST_TEST(kernel(bad.args) != 0);
  BOOST_TEST(std::string(bad.error).find("buffer 'slopes' index") != std::string::npos, bad.error);
  BOOST_TEST(std::string(bad.error).find("out of range [0, 1) in dimension 0") != std::string::npos,
             bad.error);
  BOOST_TEST(kernel(good.args) == 0, good.error);  // reported once: the word was re-armed
  BOOST_TEST(take_cuda_errors().empty());
}

BOOST_AUTO_TEST_CASE(a_stream_launch_reports_at_the_next_synchronization) {
  if (!have_gpu()) return;
  const Kernel kernel = load_alibi();
  const auto* module = dynamic_cast<const CudaKernelModule*>(kernel.module());
  BOOST_TEST_REQUIRE(module != nullptr);
  Call bad(1), good(4);
  BOOST_TEST(module->launch_on(&bad.args, nullptr) == 0, bad.error);    // no wait, no report yet
  BOOST_TEST(module->launch_on(&good.args, nullptr) == 0, good.error);  // does not clear the word
  const std::string error = module->take_error();
  BOOST_TEST(error.find("buffer 'slopes' index") != std::string::npos, error);
  BOOST_TEST(module->take_error().empty());
  BOOST_TEST(module->launch_on(&bad.args, nullptr) == 0, bad.error);
  const std::vector<std::string> all = take_cuda_errors();
  BOOST_TEST_REQUIRE(all.size() == 1u);
  BOOST_TEST(all[0].find("out of range") != std::string::npos, all[0]);
  BOOST_TEST(take_cuda_errors().empty());
}
