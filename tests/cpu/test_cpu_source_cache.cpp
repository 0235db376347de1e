// The generated CPU source kept in the loader's disk cache (backends/cpu/CachedSource.cpp): a later
// loader with the same cache takes the stored source instead of running Halide, a corrupt entry is
// generated again, and kernels that differ only in names keep sources of their own.
#define BOOST_TEST_MODULE cpu_source_cache
#include <boost/test/unit_test.hpp>
#include <future>

#include "attn/loader.hpp"
#include "backends/cpu/CpuBackend.h"
#include "codegen/KernelIR.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kProgram = R"attn(
import std.masks;
kernel biased(bias: tensor<f32>[len]) { mask = causal; score = score + bias[kv]; }
kernel renamed(offsets: tensor<f32>[len]) { mask = causal; score = score + offsets[kv]; }
)attn";

std::vector<uint8_t> blob_of(const std::string& entry, const std::string& source) {
  std::vector<uint8_t> b(entry.begin(), entry.end());
  b.push_back(0);
  b.insert(b.end(), source.begin(), source.end());
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_later_loader_takes_the_stored_source_and_a_bad_one_is_regenerated) {
  TempDir dir;
  LoaderOptions o;
  o.cache_dir = dir.path().string();
  auto ir = lower_text(kProgram, "biased");
  const std::string name = host_source_blob_name(*ir);
  BOOST_REQUIRE_MESSAGE(!name.empty(), "this build of attnc has no GNU build ID");
  KernelRequest first;
  {
    Loader loader(o);
    first = host_kernel_request(*ir, loader);
    const CpuKernelSource generated = generate_cpu_kernel(*ir, host_cpu_target());
    BOOST_TEST(first.source == single_file_source(generated));
    BOOST_TEST(first.entry == generated.entry);
    BOOST_TEST((loader.load_blob(name) == blob_of(first.entry, first.source)));
    // A different kernel with the same structure but other names keeps its own source.
    auto other = lower_text(kProgram, "renamed");
    BOOST_TEST(host_source_blob_name(*other) != name);
    BOOST_TEST(host_kernel_request(*other, loader).entry != first.entry);
    // The backward's source is kept apart from the forward's.
    const std::string backward = host_source_blob_name(*ir, CpuEntry::Backward);
    BOOST_TEST(backward != name);
    const KernelRequest b = host_kernel_request(*ir, loader, CpuEntry::Backward);
    BOOST_TEST(b.source == single_file_source(generate_cpu_backward(*ir, host_cpu_target())));
    BOOST_TEST((loader.load_blob(backward) == blob_of(b.entry, b.source)));
    // What a later process reads, marked so that taking it is visible.
    BOOST_TEST(loader.store_blob(name, blob_of(first.entry, first.source + "// kept\n")));
  }
  {
    Loader later(o);
    const KernelRequest r = host_kernel_request(*ir, later);
    BOOST_TEST(r.entry == first.entry);
    BOOST_TEST(r.source == first.source + "// kept\n");
    // A stored source without its entry is generated again, and stored again.
    BOOST_TEST(later.store_blob(name, std::vector<uint8_t>{'x', 'y'}));
    BOOST_TEST(host_kernel_request(*ir, later).source == first.source);
    BOOST_TEST((later.load_blob(name) == blob_of(first.entry, first.source)));
  }
  // Without a disk cache nothing is kept, and the source is generated.
  o.disk_cache = false;
  Loader memory(o);
  BOOST_TEST(host_kernel_request(*ir, memory).source == first.source);
  BOOST_TEST(!memory.load_blob(name).has_value());
}

// The cpu backend generates a forward's and its backward's sources on two threads at once
// (KernelLoadOptions::backward_next): each must be the source that generating it alone gives, so
// that `attnc compile`, the disk cache's keys and the checked-in sources never depend on timing.
BOOST_AUTO_TEST_CASE(sources_generated_side_by_side_are_the_ones_generated_alone) {
  auto ir = lower_text(kProgram, "biased");
  const std::string forward = generate_cpu_kernel(*ir, host_cpu_target()).source;
  const std::string backward = generate_cpu_backward(*ir, host_cpu_target()).source;
  for (int round = 0; round < 2; ++round) {
    std::future<std::string> b =
        std::async(std::launch::async, [&] { return generate_cpu_backward(*ir, host_cpu_target()).source; });
    const std::string f = generate_cpu_kernel(*ir, host_cpu_target()).source;
    BOOST_TEST((f == forward));
    BOOST_TEST((b.get() == backward));
  }
}
