// The shared cache on a real redis-server: a second host pays no compile, a wrongly signed entry
// is rebuilt, a dead or silent server costs one warning, N hosts starting together compile once.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>

#include "RedisServer.h"
#include "TestKernels.h"
#include "runtime/CacheEntry.h"
#include "runtime/RemoteCache.h"

namespace attn::test {
namespace {

// A cache fixture with its own redis-server.
struct RemoteFixture : CacheFixture {
  RedisServer redis{root->path()};
  // The options of one "host": its own cache directory, the shared server.
  LoaderOptions host(const std::string& name) const {
    LoaderOptions o = options();
    o.cache_dir = root->path() + "/" + name;
    o.remote_cache = redis.url();
    return o;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(remote_cache_url)

BOOST_AUTO_TEST_CASE(urls_parse_or_say_why) {
  std::string why;
  std::optional<RedisAddress> a = parse_redis_url("redis://cache.example:6390/3", why);
  BOOST_REQUIRE(a);
  BOOST_TEST(a->host == "cache.example");
  BOOST_TEST(a->port == 6390);
  BOOST_TEST(a->db == 3);
  a = parse_redis_url("redis://:s3cret@[::1]", why);
  BOOST_REQUIRE(a);
  BOOST_TEST(a->host == "::1");
  BOOST_TEST(a->port == 6379);
  BOOST_TEST(a->password == "s3cret");
  for (const char* bad : {"http://h:1/0", "redis://", "redis://h:0", "redis://h:99999", "redis://h:x/0",
                          "redis://h:1/zero", "redis://user@h"}) {
    why.clear();
    BOOST_TEST(!parse_redis_url(bad, why), bad);
    BOOST_TEST(why.find(bad) != std::string::npos, why);
  }
}

BOOST_FIXTURE_TEST_CASE(a_malformed_url_is_one_warning_and_no_shared_cache, CacheFixture) {
  LoaderOptions o = options();
  o.remote_cache = "redis://nowhere:port";
  std::string err = capture_stderr(root->path() + "/stderr", [&] {
    Loader loader(o);
    BOOST_TEST(run_scale(loader.get(scale_kernel_request(2)), 1.0f) == 2.0f);
    BOOST_TEST(loader.remote_cache().empty());
  });
  BOOST_TEST(count_lines_with(err, "redis://nowhere:port") == 1u, err);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(remote_cache, RemoteFixture)

BOOST_AUTO_TEST_CASE(a_second_host_pays_no_compile) {
  KernelRequest r = scale_kernel_request(7);
  // Separate processes, separate cache directories: two hosts.
  int first = run_in_child(60, [&] {
    Loader loader(host("a"));
    bool ok = run_scale(loader.get(r), 1.0f) == 7.0f;
    LoaderStats s = loader.stats();
    return ok && s.compiles == 1 && s.remote_misses == 1 && s.remote_writes == 1 ? 0 : 1;
  });
  BOOST_TEST(first == 0);
  int second = run_in_child(60, [&] {
    Loader loader(host("b"));
    bool ok = run_scale(loader.get(r), 2.0f) == 14.0f;
    LoaderStats s = loader.stats();
    bool recorded = loader.trace_json().find("\"remote_hit\"") != std::string::npos;
    return ok && recorded && s.compiles == 0 && s.remote_hits == 1 && s.disk_writes == 1 ? 0 : 1;
  });
  BOOST_TEST(second == 0);
  // Kept locally too: a third process on host b takes it from its disk.
  Loader again(host("b"));
  BOOST_TEST(run_scale(again.get(r), 1.0f) == 7.0f);
  BOOST_TEST(again.stats().disk_hits == 1u);
  BOOST_TEST(again.stats().remote_hits == 0u);

  RemoteCacheStats shared = remote_cache_stats(redis.url());
  BOOST_TEST(shared.problem == "");
  BOOST_TEST(shared.entries == 1u);
  BOOST_TEST(shared.traffic.hits == 1u);
  BOOST_TEST(shared.traffic.misses == 1u);
  BOOST_TEST(shared.traffic.writes == 1u);
  BOOST_TEST(shared.traffic.bytes_written == shared.bytes);
  BOOST_TEST(shared.traffic.bytes_read == shared.bytes);
  CacheStats local = cache_stats(root->path() + "/b");
  BOOST_TEST(local.entries == 1u);
  BOOST_TEST(local.traffic.misses == 1u);  // the second process's first look
  BOOST_TEST(local.traffic.hits == 1u);    // the third's
  BOOST_TEST(local.traffic.writes == 1u);  // the entry fetched from the shared cache
}

BOOST_AUTO_TEST_CASE(an_entry_signed_with_another_key_is_rejected_and_rebuilt) {
  KernelRequest r = scale_kernel_request(5);
  // Someone without the fleet's key plants a kernel of theirs (factor 9) under r's key.
  std::string key;
  std::vector<uint8_t> foreign_object;
  {
    Loader other(host("other"));
    key = other.key_of(r);
    KernelRequest theirs = scale_kernel_request(9);
    auto compiler = make_cpu_compiler();
    foreign_object = compiler->compile(theirs);
  }
  CacheSecret wrong{};
  wrong.fill(0x5a);
  std::string why;
  auto planter = RemoteCache::open(redis.url(), 1000, why);
  BOOST_REQUIRE(planter);
  BOOST_REQUIRE(planter->put(key, encode_cache_entry(key, foreign_object, wrong)));

  Loader loader(host("victim"));
  BOOST_TEST(run_scale(loader.get(r), 1.0f) == 5.0f);  // never the planted 9
  LoaderStats s = loader.stats();
  BOOST_TEST(s.remote_rejects == 1u);
  BOOST_TEST(s.compiles == 1u);
  BOOST_TEST(s.remote_writes == 1u);
  BOOST_TEST(loader.trace_json().find("not signed with this user's key") != std::string::npos);
  // The rebuild replaced it: the next host takes the good entry.
  Loader next(host("next"));
  BOOST_TEST(run_scale(next.get(r), 1.0f) == 5.0f);
  BOOST_TEST(next.stats().remote_hits == 1u);
  BOOST_TEST(next.stats().compiles == 0u);
}

// Kills or stops the server after the first kernel; the run completes with one warning.
static void server_fails_mid_run(RemoteFixture& f, int how) {
  std::string log = f.root->path() + "/stderr";
  int status = run_in_child(120, [&] {
    int ok = 0;
    capture_stderr(log, [&] {
      Loader loader(f.host("a"));
      ok += run_scale(loader.get(scale_kernel_request(2)), 1.0f) == 2.0f;
      f.redis.signal(how);
      for (int factor = 3; factor <= 5; ++factor)
        ok += run_scale(loader.get(scale_kernel_request(factor)), 1.0f) == static_cast<float>(factor);
      LoaderStats s = loader.stats();
      ok += s.compiles == 4 && s.remote_writes == 1;
    });
    return ok == 5 ? 0 : 1;
  });
  BOOST_TEST(status == 0);
  std::string err = read_text(log);
  BOOST_TEST(count_lines_with(err, "attnc: warning") == 1u, err);
  BOOST_TEST(count_lines_with(err, "shared cache unavailable: " + f.redis.url()) == 1u, err);
}

BOOST_AUTO_TEST_CASE(a_killed_server_costs_one_warning) { server_fails_mid_run(*this, SIGKILL); }

BOOST_AUTO_TEST_CASE(a_silent_server_costs_one_warning) {
  server_fails_mid_run(*this, SIGSTOP);
  redis.signal(SIGCONT);
}

BOOST_AUTO_TEST_CASE(eight_hosts_on_an_empty_cache_compile_once) {
  // Released together by closing a pipe; each host (process, own cache directory) reports its
  // compiles in its exit status (10 + n). The key's lock in Redis makes the others wait for the
  // first compile and fetch its published entry.
  constexpr int kHosts = 8;
  KernelRequest r = scale_kernel_request(6);
  int compiles = 0;
  for (int status : run_released_together(kHosts, [&](int i) {
         Loader loader(host("host" + std::to_string(i)));
         bool ok = run_scale(loader.get(r), 1.0f) == 6.0f;
         LoaderStats s = loader.stats();
         ok = ok && s.compiles + s.remote_hits == 1 && s.remote_rejects == 0;
         return ok ? 10 + static_cast<int>(s.compiles) : 2;
       })) {
    BOOST_TEST(status >= 10);
    compiles += status - 10;
  }
  BOOST_TEST(compiles == 1);
  RemoteCacheStats shared = remote_cache_stats(redis.url());
  BOOST_TEST(shared.traffic.writes == 1u);
  BOOST_TEST(shared.traffic.hits == 7u);
}

BOOST_AUTO_TEST_CASE(a_fleet_key_file_signs_and_a_missing_one_is_refused) {
  std::string key_file = root->path() + "/fleet.key";
  setenv("ATTNC_CACHE_KEY_FILE", key_file.c_str(), 1);
  struct Unset {
    ~Unset() { unsetenv("ATTNC_CACHE_KEY_FILE"); }
  } unset;
  // Missing: never created (a key per host would share nothing); memory only, one warning.
  std::string err = capture_stderr(root->path() + "/stderr", [&] {
    Loader loader(host("a"));
    BOOST_TEST(loader.cache_dir().empty());
    BOOST_TEST(loader.remote_cache().empty());
  });
  BOOST_TEST(err.find("no cache key at ATTNC_CACHE_KEY_FILE=" + key_file) != std::string::npos, err);
  BOOST_TEST(file_size(key_file) == -1);
  // Present (32 bytes, 0600): hosts with different homes share entries through it.
  {
    FILE* f = std::fopen(key_file.c_str(), "wb");
    BOOST_REQUIRE(f);
    for (int i = 0; i < 32; ++i) std::fputc(i * 7 + 1, f);
    std::fclose(f);
    BOOST_REQUIRE(chmod(key_file.c_str(), 0600) == 0);
  }
  KernelRequest r = scale_kernel_request(4);
  {
    Loader a(host("a"));
    BOOST_TEST(run_scale(a.get(r), 1.0f) == 4.0f);
  }
  setenv("XDG_CONFIG_HOME", (root->path() + "/elsewhere").c_str(), 1);
  Loader b(host("b"));
  BOOST_TEST(run_scale(b.get(r), 1.0f) == 4.0f);
  BOOST_TEST(b.stats().remote_hits == 1u);
  BOOST_TEST(b.stats().compiles == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
