// The disk cache: warm starts, two processes filling one entry, an unwritable directory, eviction.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <thread>

#include "TestKernels.h"
#include "runtime/DiskCache.h"

namespace fs = std::filesystem;

namespace attn::test {

BOOST_FIXTURE_TEST_SUITE(disk_cache, CacheFixture)

BOOST_AUTO_TEST_CASE(second_loader_starts_warm) {
  KernelRequest r = scale_kernel_request(2);
  {
    Loader cold(options());
    BOOST_TEST(run_scale(cold.get(r), 2.0f) == 4.0f);
    BOOST_TEST(cold.stats().compiles == 1u);
    BOOST_TEST(cold.cache_dir() == cache);
  }
  Loader warm(options());
  BOOST_TEST(run_scale(warm.get(r), 2.0f) == 4.0f);
  BOOST_TEST(warm.stats().compiles == 0u);
  BOOST_TEST(warm.stats().disk_hits == 1u);
  CacheStats cs = cache_stats();
  BOOST_TEST(cs.dir == cache);
  BOOST_TEST(cs.entries == 1u);
  BOOST_TEST(cs.bytes == static_cast<uint64_t>(file_size(cache + "/" + warm.key_of(r) + ".entry")));
  BOOST_TEST(cache_clear() == 1u);
  BOOST_TEST(cache_stats().entries == 0u);
}

BOOST_AUTO_TEST_CASE(two_processes_fill_one_entry_at_once) {
  KernelRequest r = scale_kernel_request(5);
  int compiles = 0;
  for (int status : run_released_together(2, [&](int) {
         Loader loader(options());
         bool ok = run_scale(loader.get(r), 1.0f) == 5.0f;
         return ok ? 10 + static_cast<int>(loader.stats().compiles) : 2;
       })) {
    BOOST_TEST(status >= 10);
    compiles += status - 10;
  }
  BOOST_TEST(compiles == 1);  // the second waits on the key's lock and takes the first's entry
  Loader after(options());
  BOOST_TEST(run_scale(after.get(r), 1.0f) == 5.0f);
  BOOST_TEST(after.stats().disk_hits == 1u);
  BOOST_TEST(after.stats().compiles == 0u);
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(cache)) {
    if (e.path().filename() == ".traffic") continue;  // the directory's counters
    ++files;
    BOOST_TEST(e.path().extension() == ".entry");  // no temporary files left behind
  }
  BOOST_TEST(files == 1u);
  // The directory's counters: the compiler's miss and write, the waiter's hit (after a miss, or at
  // once), the last process's hit.
  CacheTraffic t = cache_stats().traffic;
  BOOST_TEST(t.writes == 1u);
  BOOST_TEST(t.hits == 2u);
  BOOST_TEST((t.misses == 1u || t.misses == 2u));
  BOOST_TEST(t.bytes_read == 2 * t.bytes_written);
}

BOOST_AUTO_TEST_CASE(unwritable_cache_dir_means_memory_only_and_one_warning) {
  std::vector<std::string> bad = {"/dev/null/attnc-cache"};  // under a regular file
  std::string file = root->path() + "/a-file";
  BOOST_REQUIRE(write_file(file, "x", 1));
  bad.push_back(file);  // a file where the directory should be
  if (geteuid() != 0) {
    // chmod does not stop root, so this case only means something for other users.
    std::string ro = root->path() + "/read-only";
    fs::create_directory(ro);
    ::chmod(ro.c_str(), 0500);
    bad.push_back(ro);
  }
  for (const std::string& dir : bad) {
    BOOST_TEST_CONTEXT("cache dir " << dir) {
      setenv("ATTNC_CACHE_DIR", dir.c_str(), 1);
      std::string err = capture_stderr(root->path() + "/stderr.txt", [&] {
        for (int i = 0; i < 2; ++i) {
          Loader loader(options());
          BOOST_TEST(loader.cache_dir().empty());
          BOOST_TEST(run_scale(loader.get(scale_kernel_request(2)), 1.0f) == 2.0f);
          BOOST_TEST(loader.stats().compiles == 1u);
          BOOST_TEST(loader.stats().disk_writes == 0u);
          BOOST_TEST(loader.trace_json().find("\"warning\"") != std::string::npos);
        }
      });
      BOOST_TEST(count_lines_with(err, "attnc: warning:") == 1u, err);
      BOOST_TEST(err.find(dir) != std::string::npos, err);
    }
  }
}

BOOST_AUTO_TEST_CASE(eviction_drops_the_least_recently_used_entry) {
  KernelRequest a = scale_kernel_request(2), b = scale_kernel_request(3), c = scale_kernel_request(4);
  std::string key_a, key_b, key_c;
  {
    Loader loader(options());
    key_a = loader.key_of(a);
    key_b = loader.key_of(b);
    key_c = loader.key_of(c);
    loader.get(a);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // mtimes are coarse
    loader.get(b);
  }
  long long entry = file_size(cache + "/" + key_a + ".entry");
  BOOST_REQUIRE(entry > 0);
  // Room for two entries and a half.
  LoaderOptions o = options();
  o.cache_max_bytes = static_cast<uint64_t>(2.5 * static_cast<double>(entry));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  Loader loader(o);
  BOOST_TEST(run_scale(loader.get(a), 1.0f) == 2.0f);  // a disk hit refreshes a
  BOOST_TEST(loader.stats().disk_hits == 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  BOOST_TEST(run_scale(loader.get(c), 1.0f) == 4.0f);  // writing c evicts b, the oldest
  BOOST_TEST(file_size(cache + "/" + key_a + ".entry") > 0);
  BOOST_TEST(file_size(cache + "/" + key_b + ".entry") == -1);
  BOOST_TEST(file_size(cache + "/" + key_c + ".entry") > 0);
  BOOST_TEST(cache_stats().entries == 2u);
  std::string json = loader.trace_json();
  BOOST_TEST(json.find("\"evict\"") != std::string::npos);
  BOOST_TEST(json.find(key_b.substr(0, 16)) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(temporaries_of_killed_writers_are_swept) {
  KernelRequest a = scale_kernel_request(2), b = scale_kernel_request(3);
  Loader first(options());
  first.get(a);
  // Half-written entries: they start with the entry magic, as a killed writer's would.
  std::string stale = cache + "/.deadbeef.0123456789ab.tmp", fresh = cache + "/.cafe.0123456789ab.tmp";
  BOOST_REQUIRE(write_file(stale, "ATTNCKE\x01", 8));
  BOOST_REQUIRE(write_file(fresh, "ATTNCKE\x01", 8));
  timespec two_hours_ago[2] = {{time(nullptr) - 7200, 0}, {time(nullptr) - 7200, 0}};
  BOOST_REQUIRE(utimensat(AT_FDCWD, stale.c_str(), two_hours_ago, 0) == 0);
  LoaderOptions o = options();
  o.cache_max_bytes = 1;  // every write evicts, and eviction sweeps old temporaries
  Loader second(o);
  second.get(b);
  BOOST_TEST(file_size(stale) == -1);
  BOOST_TEST(file_size(fresh) == 8);        // may belong to a live writer
  BOOST_TEST(cache_stats().entries == 1u);  // b only
  BOOST_TEST(cache_clear() == 1u);
  BOOST_TEST(file_size(fresh) == -1);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
