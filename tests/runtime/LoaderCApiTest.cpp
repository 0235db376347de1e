// The loader's C API over DLPack: load, call, stats, trace, errors as messages.
#include "attn/loader.h"

#include <boost/test/unit_test.hpp>

#include "TestKernels.h"

namespace attn::test {

BOOST_FIXTURE_TEST_SUITE(loader_c_api, CacheFixture)

BOOST_AUTO_TEST_CASE(load_call_and_release) {
  attn_loader* loader = attn_loader_create(nullptr);
  BOOST_REQUIRE(loader);
  std::string source = scale_kernel_source(3);
  attn_kernel_request req{};
  req.source = source.data();
  req.source_size = source.size();
  req.entry = "scale_kernel";
  attn_kernel* k1 = nullptr;
  attn_kernel* k2 = nullptr;
  char error[4096] = {};
  BOOST_REQUIRE_MESSAGE(attn_loader_get(loader, &req, &k1, error, sizeof error) == 0, error);
  BOOST_REQUIRE(attn_loader_get(loader, &req, &k2, error, sizeof error) == 0);
  BOOST_TEST(attn_kernel_entry(k1) == attn_kernel_entry(k2));

  float q[2] = {1.5f, 2.0f}, out[2] = {};
  int64_t shape[1] = {2};
  DLTensor tq{}, to{};
  tq.data = q;
  tq.ndim = 1;
  tq.shape = shape;
  tq.dtype = DLDataType{kDLFloat, 32, 1};
  to = tq;
  to.data = out;
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = args.k = args.v = &tq;
  args.out = &to;
  BOOST_TEST(attn_kernel_call(k1, &args) == 0);
  BOOST_TEST(out[1] == 6.0f);

  attn_loader_stats s{};
  attn_loader_stats_get(loader, &s);
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.memory_hits == 1u);
  size_t n = attn_loader_trace_json(loader, nullptr, 0);
  std::string json(n, '\0');
  attn_loader_trace_json(loader, json.data(), n + 1);
  BOOST_TEST(json.find("\"launch\"") != std::string::npos);

  attn_cache_stats cs{};
  attn_cache_stats_get(nullptr, &cs);  // ATTNC_CACHE_DIR
  BOOST_TEST(cs.entries == 1u);
  BOOST_TEST(cs.bytes > 0u);

  attn_loader_destroy(loader);  // kernels outlive their loader
  BOOST_TEST(attn_cache_clear(cache.c_str()) == 1u);
  BOOST_TEST(attn_kernel_call(k2, &args) == 0);
  attn_kernel_release(k1);
  attn_kernel_release(k2);
}

BOOST_AUTO_TEST_CASE(errors_come_back_as_messages) {
  attn_loader_options o{};
  o.no_disk_cache = 1;
  attn_loader* loader = attn_loader_create(&o);
  const char* source = "this is not C++";
  attn_kernel_request req{};
  req.source = source;
  req.source_size = std::strlen(source);
  req.entry = "k";
  attn_kernel* k = nullptr;
  char error[4096] = {};
  BOOST_TEST(attn_loader_get(loader, &req, &k, error, sizeof error) != 0);
  BOOST_TEST(k == nullptr);
  BOOST_TEST(std::string(error).find("compiling kernel 'k' for cpu failed") != std::string::npos, error);
  attn_loader_destroy(loader);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
