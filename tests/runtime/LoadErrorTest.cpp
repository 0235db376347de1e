// Failures are clear errors: the compiler's own message, a missing entry symbol, an unknown target.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <thread>

#include "TestKernels.h"

namespace attn::test {

BOOST_FIXTURE_TEST_SUITE(load_errors, CacheFixture)

BOOST_AUTO_TEST_CASE(compile_error_carries_the_compiler_message) {
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  r.source += "\nstatic int broken = undeclared_identifier_xyz;\n";
  try {
    loader.get(r);
    BOOST_FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    std::string m = e.what();
    BOOST_TEST((e.kind() == LoadErrorKind::CompileFailed));
    BOOST_TEST(m.find("compiling kernel 'scale_kernel' for cpu failed") != std::string::npos, m);
    BOOST_TEST(m.find("undeclared_identifier_xyz") != std::string::npos, m);
    BOOST_TEST(m.find("error") != std::string::npos, m);
    BOOST_TEST(m.find("flight recorder written to " + root->path() + "/trace.json") != std::string::npos, m);
  }
  LoaderStats s = loader.stats();
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.errors == 1u);
  BOOST_TEST(s.disk_writes == 0u);
  BOOST_TEST(cache_stats().entries == 0u);
  // The failure dumped the recorder (ATTNC_TRACE points into the fixture's folder).
  std::string dump = read_text(root->path() + "/trace.json");
  BOOST_TEST(dump.find("\"error\"") != std::string::npos, dump);
  BOOST_TEST(dump.find("undeclared_identifier_xyz") != std::string::npos, dump);
  // A failed key is not remembered as failed: the next request tries again.
  BOOST_CHECK_THROW(loader.get(r), LoadError);
  BOOST_TEST(loader.stats().compiles == 2u);
}

BOOST_AUTO_TEST_CASE(missing_entry_symbol_is_reported_and_not_cached) {
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  r.entry = "no_such_kernel";
  try {
    loader.get(r);
    BOOST_FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    BOOST_TEST((e.kind() == LoadErrorKind::MissingEntry));
    BOOST_TEST(std::string(e.what()).find("'no_such_kernel'") != std::string::npos, e.what());
  }
  BOOST_TEST(cache_stats().entries == 0u);
}

BOOST_AUTO_TEST_CASE(unknown_target_and_missing_compiler) {
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  r.target = "tpu";
  try {
    loader.get(r);
    BOOST_FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    BOOST_TEST((e.kind() == LoadErrorKind::UnknownTarget));
    BOOST_TEST(
        std::string(e.what()).find("no compiler for target 'tpu' (available: cpu)") != std::string::npos,
        e.what());
  }
  setenv("ATTNC_CXX", "/nonexistent/attnc-test-cxx", 1);
  BOOST_CHECK_EXCEPTION(loader.get(scale_kernel_request(2)), LoadError, [](const LoadError& e) {
    return std::string(e.what()).find("/nonexistent/attnc-test-cxx") != std::string::npos;
  });
  unsetenv("ATTNC_CXX");
}

BOOST_AUTO_TEST_CASE(concurrent_waiters_all_get_the_error) {
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  r.source += "\n#error deliberately broken\n";
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      try {
        loader.get(r);
      } catch (const LoadError& e) {
        if (std::string(e.what()).find("deliberately broken") != std::string::npos) ++failures;
      }
    });
  for (std::thread& t : threads) t.join();
  BOOST_TEST(failures.load() == 4);
  BOOST_TEST(loader.stats().errors == 4u);
  BOOST_TEST(loader.stats().compiles >= 1u);  // waiters that arrive after the failure retry
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
