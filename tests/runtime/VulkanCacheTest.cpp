// The vulkan target through attn::Loader on lavapipe: the pipeline-cache blob is a signed disk
// entry like a cpu kernel's (a fresh loader hits it, a corrupt one is rebuilt), and requests the
// compiler cannot read fail with the loader's errors.
#define BOOST_TEST_MODULE runtime_vulkan_cache
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "TestKernels.h"
#include "backends/spirv/VulkanRequest.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/VulkanCompiler.h"

namespace attn::test {
namespace {

// A causal kernel with LSE for head_dim 16, for any device: no subgroups, K/V read in place
// (quick to JIT on lavapipe).
KernelRequest causal_request() {
  auto p = load_program_text("causal.attn", "kernel causal_lse { mask = q >= kv; lse = true; }");
  BOOST_REQUIRE(!p->diags.has_errors());
  DiagnosticEngine diags;
  auto ir = lower_kernel(*p, *p->kernel("causal_lse"), diags);
  BOOST_REQUIRE(ir);
  spirv::SpirvConfig c = spirv::choose_config(*ir, spirv::SpirvTarget{1, 0, false, 32768, true}, 16, 16);
  return spirv::vulkan_request(*ir, spirv::compile_spirv(*ir, c));
}

std::unique_ptr<Loader> vulkan_loader(const CacheFixture& f) {
  auto loader = std::make_unique<Loader>(f.options());
  loader->add_compiler(make_vulkan_compiler());
  return loader;
}

// V all ones: every row's output is 1, whatever the mask lets through.
void check_runs(const Kernel& kernel) {
  HostTensor q(ScalarType::F32, {1, 2, 5, 16}), kv(ScalarType::F32, {1, 1, 5, 16});
  HostTensor out(ScalarType::F32, {1, 2, 5, 16}), lse(ScalarType::F32, {1, 2, 5});
  for (int64_t i = 0; i < q.numel(); ++i) q.set(i, 0.01 * static_cast<double>(i % 7));
  for (int64_t i = 0; i < kv.numel(); ++i) kv.set(i, 1);
  KernelCallArgs call({&q, &kv, &kv, &out, &lse, nullptr, {}, {}});
  BOOST_REQUIRE_MESSAGE(kernel(call.args()) == 0, call.error());
  for (int64_t i = 0; i < out.numel(); ++i) BOOST_TEST(std::abs(out.get(i) - 1) <= 1e-5);
  BOOST_TEST(std::isfinite(lse.get(0)));
}

// The error `loader` fails `r` with.
LoadError failure(Loader& loader, const KernelRequest& r) {
  try {
    loader.get(r);
  } catch (const LoadError& e) {
    return e;
  }
  throw std::logic_error("kernel '" + r.entry + "' loaded");
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(vulkan_cache, CacheFixture)

BOOST_AUTO_TEST_CASE(second_load_in_a_fresh_loader_is_a_disk_hit) {
  KernelRequest r = causal_request();
  {
    auto loader = vulkan_loader(*this);
    check_runs(loader->get(r));
    check_runs(loader->get(r));
    LoaderStats s = loader->stats();
    BOOST_TEST(s.compiles == 1u);
    BOOST_TEST(s.memory_hits == 1u);
    BOOST_TEST(s.disk_writes == 1u);
    BOOST_TEST_MESSAGE("pipeline-cache blob: " << file_size(cache + "/" + loader->key_of(r) + ".entry")
                                               << " bytes with the entry header");
  }
  auto fresh = vulkan_loader(*this);
  check_runs(fresh->get(r));
  LoaderStats s = fresh->stats();
  BOOST_TEST(s.disk_hits == 1u);
  BOOST_TEST(s.compiles == 0u);
}

BOOST_AUTO_TEST_CASE(a_corrupt_entry_is_rebuilt) {
  KernelRequest r = causal_request();
  std::string path;
  {
    auto loader = vulkan_loader(*this);
    loader->get(r);
    path = cache + "/" + loader->key_of(r) + ".entry";
  }
  std::string bytes = read_text(path);
  bytes.back() ^= 0x5a;  // the blob's last byte, or the signature's when the driver gave no blob
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;

  auto loader = vulkan_loader(*this);
  check_runs(loader->get(r));
  LoaderStats s = loader->stats();
  BOOST_TEST(s.rejects == 1u);
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.disk_writes == 1u);
  auto again = vulkan_loader(*this);
  check_runs(again->get(r));
  BOOST_TEST(again->stats().disk_hits == 1u);
}

BOOST_AUTO_TEST_CASE(requests_the_compiler_cannot_read_fail_with_load_errors) {
  auto loader = vulkan_loader(*this);
  KernelRequest r = causal_request();
  r.entry = "other";
  LoadError wrong_entry = failure(*loader, r);
  BOOST_TEST((wrong_entry.kind() == LoadErrorKind::MissingEntry));
  BOOST_TEST(std::string(wrong_entry.what()).find("the module's kernel is 'causal_lse', not 'other'") !=
             std::string::npos);
  r.source = "#include <not a module>";
  LoadError not_a_kernel = failure(*loader, r);
  BOOST_TEST((not_a_kernel.kind() == LoadErrorKind::CompileFailed));
  BOOST_TEST(std::string(not_a_kernel.what()).find("not a vulkan kernel") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
