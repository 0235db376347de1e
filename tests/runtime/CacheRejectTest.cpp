// Bad disk entries (corrupt, truncated, foreign key, other format) are rejected, rebuilt, never loaded.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "TestKernels.h"
#include "runtime/CacheEntry.h"

namespace fs = std::filesystem;

namespace attn::test {
namespace {

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Fills the cache with kernel `factor`, lets `damage` edit its entry, then checks that a fresh
// loader rejects it for `reason`, rebuilds it (correct result), and that a third loader gets a
// clean disk hit from the replaced entry.
template <class Damage>
void check_rejected(const CacheFixture& f, int factor, const std::string& reason, Damage damage) {
  KernelRequest r = scale_kernel_request(factor);
  std::string path;
  {
    Loader loader(f.options());
    loader.get(r);
    path = f.cache + "/" + loader.key_of(r) + ".entry";
  }
  damage(path);
  Loader loader(f.options());
  BOOST_TEST(run_scale(loader.get(r), 1.0f) == static_cast<float>(factor));
  LoaderStats s = loader.stats();
  BOOST_TEST(s.rejects == 1u);
  BOOST_TEST(s.disk_hits == 0u);
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.disk_writes == 1u);
  std::string json = loader.trace_json();
  BOOST_TEST(json.find("\"disk_reject\"") != std::string::npos, json);
  BOOST_TEST(json.find("\"" + reason + "\"") != std::string::npos, json);

  Loader again(f.options());
  BOOST_TEST(run_scale(again.get(r), 1.0f) == static_cast<float>(factor));
  BOOST_TEST(again.stats().disk_hits == 1u);
  BOOST_TEST(again.stats().rejects == 0u);
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(cache_rejects, CacheFixture)

BOOST_AUTO_TEST_CASE(corrupted_payload_is_rebuilt) {
  check_rejected(*this, 2, "checksum mismatch", [](const std::string& path) {
    std::string bytes = read_text(path);
    bytes[kCacheEntryHeaderSize + bytes.size() / 2] ^= 0x5a;
    write_bytes(path, bytes);
  });
}

BOOST_AUTO_TEST_CASE(truncated_entry_is_rebuilt) {
  check_rejected(*this, 2, "truncated",
                 [](const std::string& path) { fs::resize_file(path, fs::file_size(path) / 2); });
  check_rejected(*this, 3, "truncated", [](const std::string& path) { fs::resize_file(path, 5); });
}

BOOST_AUTO_TEST_CASE(empty_or_garbage_entry_is_rebuilt) {
  check_rejected(*this, 2, "bad magic", [](const std::string& path) {
    write_bytes(path, "#!/bin/sh\necho not a kernel cache entry\n");
  });
}

BOOST_AUTO_TEST_CASE(entry_of_another_key_is_never_loaded) {
  // Another attnc version, compiler or source gives another key: put kernel 7's valid entry where
  // kernel 2's belongs. Loading it would make run_scale return 7.
  std::string foreign;
  {
    Loader loader(options());
    KernelRequest seven = scale_kernel_request(7);
    loader.get(seven);
    foreign = read_text(cache + "/" + loader.key_of(seven) + ".entry");
  }
  check_rejected(*this, 2, "key mismatch", [&](const std::string& path) { write_bytes(path, foreign); });
}

BOOST_AUTO_TEST_CASE(entry_of_another_format_version_is_rebuilt) {
  check_rejected(*this, 2, "other entry format", [](const std::string& path) {
    std::string bytes = read_text(path);
    uint32_t version = kCacheEntryFormat + 1;
    bytes.replace(8, 4, reinterpret_cast<const char*>(&version), 4);
    write_bytes(path, bytes);
  });
}

BOOST_AUTO_TEST_CASE(entry_with_extra_bytes_is_rebuilt) {
  check_rejected(*this, 2, "size mismatch", [](const std::string& path) {
    std::ofstream(path, std::ios::binary | std::ios::app) << "trailing";
  });
}

BOOST_AUTO_TEST_CASE(entry_format_round_trips) {
  std::string key(64, 'a');
  CacheSecret secret{}, other{};
  secret[0] = 1;
  other[0] = 2;
  std::vector<uint8_t> payload = {1, 2, 3}, out;
  std::vector<uint8_t> entry = encode_cache_entry(key, payload, secret);
  BOOST_TEST(entry.size() == kCacheEntryHeaderSize + 3);
  BOOST_TEST((decode_cache_entry(entry, key, secret, out) == EntryProblem::Ok));
  BOOST_TEST((out == payload));
  BOOST_TEST((decode_cache_entry(entry, std::string(64, 'b'), secret, out) == EntryProblem::KeyMismatch));
  BOOST_TEST((decode_cache_entry(entry, key, other, out) == EntryProblem::Unauthenticated));
  entry.pop_back();
  BOOST_TEST((decode_cache_entry(entry, key, secret, out) == EntryProblem::Truncated));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
