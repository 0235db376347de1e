// Two local users (root and uid 65534): neither gets code run as the other through the disk cache.
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "TestKernels.h"
#include "runtime/DiskCache.h"

namespace fs = std::filesystem;

namespace attn::test {
namespace {

constexpr uid_t kOtherUid = 65534;  // nobody

boost::test_tools::assertion_result running_as_root(boost::unit_test::test_unit_id) {
  boost::test_tools::assertion_result r(geteuid() == 0);
  r.message() << "needs root to act as a second user";
  return r;
}

// Runs `body` as uid/gid kOtherUid without supplementary groups; returns its exit status.
int as_other_user(const std::function<int()>& body) {
  return run_in_child(60, [&] {
    if (setgroups(0, nullptr) != 0 || setresgid(kOtherUid, kOtherUid, kOtherUid) != 0 ||
        setresuid(kOtherUid, kOtherUid, kOtherUid) != 0)
      return 90;
    return body();
  });
}

struct SavedEnv {
  explicit SavedEnv(std::vector<std::string> names) {
    for (std::string& n : names) {
      const char* v = std::getenv(n.c_str());
      saved.emplace_back(n, v ? std::optional<std::string>(v) : std::nullopt);
    }
  }
  ~SavedEnv() {
    for (auto& [n, v] : saved) v ? (void)setenv(n.c_str(), v->c_str(), 1) : (void)unsetenv(n.c_str());
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(two_user_cache, CacheFixture)

BOOST_AUTO_TEST_CASE(other_users_predictable_cache_dir_runs_none_of_their_code,
                     *boost::unit_test::precondition(running_as_root)) {
  // The victim's kernel 2 and the attacker's replacement: kernel 7's object, as a complete,
  // self-consistent entry for kernel 2's key signed with the attacker's own key.
  KernelRequest two = scale_kernel_request(2), seven = scale_kernel_request(7);
  std::string key_two;
  std::vector<uint8_t> object;
  {
    Loader loader(options());
    loader.get(seven);
    key_two = loader.key_of(two);
    std::string entry = read_text(cache + "/" + loader.key_of(seven) + ".entry");
    std::string secret = read_text(config + "/attnc/" + kCacheSecretFile);
    CacheSecret s;
    BOOST_REQUIRE(secret.size() == s.size());
    std::copy(secret.begin(), secret.end(), s.begin());
    BOOST_REQUIRE((decode_cache_entry(std::vector<uint8_t>(entry.begin(), entry.end()), loader.key_of(seven),
                                      s, object) == EntryProblem::Ok));
  }
  CacheSecret attacker{};
  attacker.fill(0x41);
  std::vector<uint8_t> planted = encode_cache_entry(key_two, object, attacker);

  // With HOME and XDG unset the victim's cache is $TMPDIR/attnc-cache-<uid>, a name the attacker
  // can predict and create first, world-writable, in a shared sticky folder.
  SavedEnv env({"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "ATTNC_CACHE_DIR", "TMPDIR"});
  std::string shared = root->path() + "/shared-tmp";
  fs::create_directory(shared);
  BOOST_REQUIRE(::chmod(root->path().c_str(), 0755) == 0);
  BOOST_REQUIRE(::chmod(shared.c_str(), 01777) == 0);
  std::string victim_dir = shared + "/attnc-cache-" + std::to_string(getuid());
  int planted_ok = as_other_user([&] {
    if (::mkdir(victim_dir.c_str(), 0777) != 0 || ::chmod(victim_dir.c_str(), 0777) != 0) return 1;
    std::ofstream out(victim_dir + "/" + key_two + ".entry", std::ios::binary);
    out.write(reinterpret_cast<const char*>(planted.data()), static_cast<std::streamsize>(planted.size()));
    return out ? 0 : 2;
  });
  BOOST_REQUIRE(planted_ok == 0);

  for (const char* n : {"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "ATTNC_CACHE_DIR"}) unsetenv(n);
  setenv("TMPDIR", shared.c_str(), 1);
  BOOST_REQUIRE(default_cache_dir() == victim_dir);
  std::string err = capture_stderr(root->path() + "/stderr.txt", [&] {
    Loader loader(options());
    BOOST_TEST(loader.cache_dir().empty());
    BOOST_TEST(run_scale(loader.get(two), 1.0f) == 2.0f);  // 7: the attacker's code ran
    BOOST_TEST(loader.stats().disk_hits == 0u);
    BOOST_TEST(loader.stats().compiles == 1u);
  });
  BOOST_TEST(err.find("belongs to uid " + std::to_string(kOtherUid)) != std::string::npos, err);
  BOOST_TEST(count_lines_with(err, "attnc: warning:") == 1u, err);

  // Even in a folder the victim uses (their own, but written to by the attacker through some other
  // means, or a shared NFS cache without their key) the planted entry is refused.
  std::string own = root->path() + "/own-cache";
  setenv("ATTNC_CACHE_DIR", own.c_str(), 1);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  { Loader(options()).get(seven); }
  std::ofstream(own + "/" + key_two + ".entry", std::ios::binary)
      .write(reinterpret_cast<const char*>(planted.data()), static_cast<std::streamsize>(planted.size()));
  Loader loader(options());
  BOOST_TEST(run_scale(loader.get(two), 1.0f) == 2.0f);
  BOOST_TEST(loader.stats().rejects == 1u);
}

BOOST_AUTO_TEST_CASE(other_user_cannot_use_or_clear_the_victims_cache,
                     *boost::unit_test::precondition(running_as_root)) {
  KernelRequest r = scale_kernel_request(2);
  { Loader(options()).get(r); }
  BOOST_REQUIRE(::chmod(root->path().c_str(), 0755) == 0);
  // The victim's cache is 0700: the other user can neither list nor plant nor delete.
  int status = as_other_user([&] {
    std::string planted = cache + "/x.entry";
    FILE* f = std::fopen(planted.c_str(), "w");
    if (f) {
      std::fclose(f);
      return 1;
    }
    return cache_clear(cache) == 0 ? 0 : 2;
  });
  BOOST_TEST(status == 0);
  BOOST_TEST(cache_stats().entries == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
