// Loader::store_blob / load_blob: small named blobs beside the kernels, signed and verified alike.
#include <boost/test/unit_test.hpp>

#include "TestKernels.h"

namespace attn::test {

BOOST_FIXTURE_TEST_SUITE(blobs, CacheFixture)

BOOST_AUTO_TEST_CASE(a_blob_outlives_its_loader_and_a_bad_one_reads_as_none) {
  const std::vector<uint8_t> blob = {'m', 'm', 'a', ' ', '6', '4', 'x', '6', '4'};
  const std::string name = "attnc cuda tiles 1\nany bytes: / \n\0";
  {
    Loader loader(options());
    BOOST_TEST(!loader.load_blob(name).has_value());
    BOOST_TEST(loader.store_blob(name, blob));
    BOOST_TEST(loader.stats().disk_writes == 1u);
  }
  Loader fresh(options());
  BOOST_TEST((fresh.load_blob(name) == blob));
  BOOST_TEST(!fresh.load_blob(name + "x").has_value());
  BOOST_TEST(cache_clear(cache) == 1u);
  BOOST_TEST(!fresh.load_blob(name).has_value());
}

BOOST_AUTO_TEST_CASE(a_memory_only_loader_keeps_no_blob) {
  LoaderOptions o = options();
  o.disk_cache = false;
  Loader loader(o);
  BOOST_TEST(!loader.store_blob("tiles", {1, 2, 3}));
  BOOST_TEST(!loader.load_blob("tiles").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
