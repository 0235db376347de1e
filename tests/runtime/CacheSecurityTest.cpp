// The disk cache against other local users: private folders, signed entries, no links or FIFOs.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "TestKernels.h"
#include "runtime/DiskCache.h"
#include "runtime/Hmac.h"

namespace fs = std::filesystem;

namespace attn::test {
namespace {

std::string hmac_hex(const std::string& key, const std::string& data) {
  return to_hex(hmac_sha256(key.data(), key.size(), data.data(), data.size()));
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

unsigned mode_of(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 ? static_cast<unsigned>(st.st_mode & 07777) : 0u;
}

bool is_regular(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The user's key as the fixture's loaders created it.
CacheSecret user_secret(const CacheFixture& f) {
  std::string bytes = read_text(f.config + "/attnc/" + kCacheSecretFile);
  BOOST_REQUIRE(bytes.size() == 32u);
  CacheSecret s;
  std::memcpy(s.data(), bytes.data(), s.size());
  return s;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(cache_security, CacheFixture)

BOOST_AUTO_TEST_CASE(hmac_sha256_matches_rfc4231) {
  // RFC 4231 test cases 1, 2 and 6 (a key longer than the block is hashed first).
  BOOST_TEST(hmac_hex(std::string(20, '\x0b'), "Hi There") ==
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  BOOST_TEST(hmac_hex("Jefe", "what do ya want for nothing?") ==
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  BOOST_TEST(hmac_hex(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First") ==
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

BOOST_AUTO_TEST_CASE(planted_self_consistent_entry_is_rejected) {
  // An attacker writes kernel 7's object as kernel 2's entry, with a correct magic, key, size and
  // checksum: everything but the user's signature. Loading it would make run_scale return 7.
  KernelRequest two = scale_kernel_request(2), seven = scale_kernel_request(7);
  std::string key_two;
  std::vector<uint8_t> object;
  {
    Loader loader(options());
    loader.get(seven);
    key_two = loader.key_of(two);
    std::string entry = read_text(cache + "/" + loader.key_of(seven) + ".entry");
    std::vector<uint8_t> bytes(entry.begin(), entry.end());
    BOOST_REQUIRE(
        (decode_cache_entry(bytes, loader.key_of(seven), user_secret(*this), object) == EntryProblem::Ok));
  }
  CacheSecret attacker{};
  attacker.fill(0x41);
  write_bytes(cache + "/" + key_two + ".entry", encode_cache_entry(key_two, object, attacker));
  Loader loader(options());
  BOOST_TEST(run_scale(loader.get(two), 1.0f) == 2.0f);
  BOOST_TEST(loader.stats().rejects == 1u);
  BOOST_TEST(loader.stats().compiles == 1u);
  BOOST_TEST(loader.trace_json().find("not signed with this user's key") != std::string::npos);
  Loader again(options());
  BOOST_TEST(run_scale(again.get(two), 1.0f) == 2.0f);
  BOOST_TEST(again.stats().disk_hits == 1u);
}

BOOST_AUTO_TEST_CASE(cache_dir_writable_by_group_or_others_is_refused) {
  for (unsigned mode : {0777u, 0770u, 0733u}) {
    BOOST_TEST_CONTEXT("mode " << std::oct << mode) {
      std::string dir = root->path() + "/shared-" + std::to_string(mode);
      fs::create_directory(dir);
      BOOST_REQUIRE(::chmod(dir.c_str(), mode) == 0);
      setenv("ATTNC_CACHE_DIR", dir.c_str(), 1);
      std::string err = capture_stderr(root->path() + "/stderr.txt", [&] {
        for (int i = 0; i < 2; ++i) {
          Loader loader(options());
          BOOST_TEST(loader.cache_dir().empty());
          BOOST_TEST(run_scale(loader.get(scale_kernel_request(2)), 1.0f) == 2.0f);
          BOOST_TEST(loader.stats().disk_writes == 0u);
        }
      });
      BOOST_TEST(count_lines_with(err, "attnc: warning:") == 1u, err);
      BOOST_TEST(err.find(dir + " is writable by") != std::string::npos, err);
      BOOST_TEST(fs::is_empty(dir));
    }
  }
}

BOOST_AUTO_TEST_CASE(cache_dir_and_its_parents_are_created_private) {
  std::string dir = root->path() + "/a/b/cache";
  setenv("ATTNC_CACHE_DIR", dir.c_str(), 1);
  mode_t old = ::umask(0);  // the modes must not depend on a permissive umask
  Loader loader(options());
  ::umask(old);
  BOOST_TEST(loader.cache_dir() == dir);
  BOOST_TEST(mode_of(dir) == 0700u);
  BOOST_TEST(mode_of(root->path() + "/a") == 0700u);
  BOOST_TEST(mode_of(config + "/attnc") == 0700u);
  std::string key_file = config + "/attnc/" + kCacheSecretFile;
  BOOST_TEST(mode_of(key_file) == 0600u);
  BOOST_TEST(file_size(key_file) == 32);
}

BOOST_AUTO_TEST_CASE(key_file_is_shared_by_loaders_and_must_be_private) {
  KernelRequest r = scale_kernel_request(2);
  { Loader(options()).get(r); }
  std::string key_file = config + "/attnc/" + kCacheSecretFile, key = read_text(key_file);
  {
    Loader warm(options());
    warm.get(r);
    BOOST_TEST(warm.stats().disk_hits == 1u);
    BOOST_TEST(read_text(key_file) == key);  // not regenerated
  }
  BOOST_REQUIRE(::chmod(key_file.c_str(), 0644) == 0);
  std::string err = capture_stderr(root->path() + "/stderr.txt", [&] {
    Loader loader(options());
    BOOST_TEST(loader.cache_dir().empty());
  });
  BOOST_TEST(err.find("the cache key is readable or writable by others") != std::string::npos, err);
}

BOOST_AUTO_TEST_CASE(fifo_or_device_link_named_like_an_entry_neither_blocks_nor_reads_forever) {
  KernelRequest r = scale_kernel_request(2);
  std::string path;
  {
    Loader loader(options());
    path = cache + "/" + loader.key_of(r) + ".entry";
  }
  for (int kind = 0; kind < 2; ++kind) {
    BOOST_TEST_CONTEXT((kind == 0 ? "fifo" : "link to /dev/zero")) {
      fs::remove(path);
      BOOST_REQUIRE((kind == 0 ? ::mkfifo(path.c_str(), 0600) : ::symlink("/dev/zero", path.c_str())) == 0);
      int status = run_in_child(60, [&] {
        Loader loader(options());
        Kernel k = loader.get(r);
        LoaderStats s = loader.stats();
        return run_scale(k, 1.0f) == 2.0f && s.rejects == 1 && s.compiles == 1 ? 0 : 1;
      });
      BOOST_TEST(status == 0);       // -1: it hung
      BOOST_TEST(is_regular(path));  // the rebuilt entry replaced the special file
    }
  }
}

BOOST_AUTO_TEST_CASE(symlinked_entry_is_replaced_not_followed) {
  KernelRequest r = scale_kernel_request(2);
  std::string victim = root->path() + "/victim.txt", path;
  BOOST_REQUIRE(write_file(victim, "precious", 8));
  {
    Loader loader(options());
    path = cache + "/" + loader.key_of(r) + ".entry";
  }
  BOOST_REQUIRE(::symlink(victim.c_str(), path.c_str()) == 0);
  Loader loader(options());
  BOOST_TEST(run_scale(loader.get(r), 1.0f) == 2.0f);
  BOOST_TEST(loader.trace_json().find("symbolic link") != std::string::npos);
  BOOST_TEST(read_text(victim) == "precious");
  BOOST_TEST(is_regular(path));
}

BOOST_AUTO_TEST_CASE(sprayed_links_at_temporary_names_clobber_nothing) {
  // Links at every name the writer used to derive from its pid and a counter (the write's
  // temporary, the writability probe's): none may be opened.
  KernelRequest r = scale_kernel_request(3);
  std::string victim = root->path() + "/victim.txt", key;
  BOOST_REQUIRE(write_file(victim, "precious", 8));
  {
    Loader loader(options());
    key = loader.key_of(r);
  }
  std::string pid = std::to_string(getpid());
  for (int n = 0; n < 2000; ++n)
    for (const std::string& stem : {key, std::string("probe")}) {
      std::string name = cache + "/." + stem + "." + pid + "." + std::to_string(n) + ".tmp";
      BOOST_REQUIRE(::symlink(victim.c_str(), name.c_str()) == 0);
    }
  Loader loader(options());
  BOOST_TEST(run_scale(loader.get(r), 1.0f) == 3.0f);
  BOOST_TEST(loader.stats().disk_writes == 1u);
  BOOST_TEST(read_text(victim) == "precious");
}

BOOST_AUTO_TEST_CASE(trace_file_never_follows_a_planted_link) {
  // The failure dump's default name, and the temporary the old writer derived from it.
  unsetenv("ATTNC_TRACE");
  std::string tmp = root->path() + "/tmp";
  fs::create_directory(tmp);
  setenv("TMPDIR", tmp.c_str(), 1);
  std::string victim = root->path() + "/victim.txt";
  BOOST_REQUIRE(write_file(victim, "precious", 8));
  std::string fixed = tmp + "/attnc-trace-" + std::to_string(getpid()) + ".json";
  BOOST_REQUIRE(::symlink(victim.c_str(), fixed.c_str()) == 0);
  BOOST_REQUIRE(::symlink(victim.c_str(), (fixed + "." + std::to_string(getpid()) + ".tmp").c_str()) == 0);
  Loader loader(options());
  KernelRequest r = scale_kernel_request(2);
  r.source += "\nstatic int broken = undeclared_identifier_xyz;\n";
  std::string message;
  try {
    loader.get(r);
  } catch (const LoadError& e) {
    message = e.what();
  }
  unsetenv("TMPDIR");
  BOOST_TEST(read_text(victim) == "precious");
  size_t at = message.find("flight recorder written to " + tmp + "/attnc-trace-");
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, message);
  std::string written = message.substr(at + std::strlen("flight recorder written to "));
  written = written.substr(0, written.find(')'));
  BOOST_TEST(is_regular(written));
  BOOST_TEST(mode_of(written) == 0600u);
  BOOST_TEST(read_text(written).find("undeclared_identifier_xyz") != std::string::npos);

  // An explicit ATTNC_TRACE that is a link is the user's own choice of destination: like every
  // output (docs/guide.md, "What attnc writes and how") the file it names is replaced and the
  // link stays; the temporary beside that file is fresh (O_EXCL), never a planted name.
  std::string chosen = root->path() + "/chosen.json", link = root->path() + "/trace-link.json";
  write_bytes(chosen, {0x6f, 0x6c, 0x64});
  BOOST_REQUIRE(::symlink(chosen.c_str(), link.c_str()) == 0);
  BOOST_TEST(loader.recorder().dump(link));
  BOOST_TEST(!is_regular(link));
  BOOST_TEST(read_text(chosen).find("undeclared_identifier_xyz") != std::string::npos);
  BOOST_TEST(read_text(victim) == "precious");
}

BOOST_AUTO_TEST_CASE(cache_clear_removes_only_attnc_files) {
  KernelRequest r = scale_kernel_request(2);
  { Loader(options()).get(r); }
  std::string victim = root->path() + "/victim.entry";
  BOOST_REQUIRE(write_file(victim, "precious", 8));
  std::vector<std::string> foreign = {cache + "/notes.entry", cache + "/.notes.tmp", cache + "/keep.txt"};
  for (const std::string& f : foreign) BOOST_REQUIRE(write_file(f, "user data", 9));
  BOOST_REQUIRE(::symlink(victim.c_str(), (cache + "/link.entry").c_str()) == 0);
  std::string temp = cache + "/.abc.0123456789ab.tmp";
  BOOST_REQUIRE(write_file(temp, "", 0));
  BOOST_TEST(cache_clear() == 1u);
  for (const std::string& f : foreign) BOOST_TEST(read_text(f) == "user data", f);
  BOOST_TEST(read_text(victim) == "precious");
  BOOST_TEST(fs::is_symlink(cache + "/link.entry"));
  BOOST_TEST(file_size(temp) == -1);
  BOOST_TEST(cache_stats().entries == 1u);  // notes.entry: named like one, not one
}

BOOST_AUTO_TEST_CASE(absurd_cache_max_mb_is_refused_not_evicting) {
  for (const char* value : {"1e30", "0", "-5", "nan", "2.5", "99999999999", "12MB"}) {
    BOOST_TEST_CONTEXT("ATTNC_CACHE_MAX_MB=" << value) {
      setenv("ATTNC_CACHE_MAX_MB", value, 1);
      std::string problem;
      BOOST_TEST(cache_max_bytes_from_env(&problem) == kDefaultCacheMaxMb * 1024 * 1024);
      BOOST_TEST(problem.find(std::string("ignoring ATTNC_CACHE_MAX_MB='") + value + "'") == 0u, problem);
    }
  }
  setenv("ATTNC_CACHE_MAX_MB", "64", 1);
  std::string problem;
  BOOST_TEST(cache_max_bytes_from_env(&problem) == 64u * 1024 * 1024);
  BOOST_TEST(problem.empty());

  setenv("ATTNC_CACHE_MAX_MB", "1e30", 1);
  std::string err = capture_stderr(root->path() + "/stderr.txt", [&] {
    Loader loader(options());
    loader.get(scale_kernel_request(2));
    loader.get(scale_kernel_request(3));
    BOOST_TEST(loader.trace_json().find("\"evict\"") == std::string::npos);
  });
  BOOST_TEST(err.find("attnc: warning: ignoring ATTNC_CACHE_MAX_MB='1e30'") != std::string::npos, err);
  BOOST_TEST(cache_stats().entries == 2u);
}

BOOST_AUTO_TEST_CASE(entry_owned_by_another_user_is_rejected,
                     *boost::unit_test::precondition([](boost::unit_test::test_unit_id) {
                       return boost::test_tools::assertion_result(geteuid() == 0);
                     })) {
  KernelRequest r = scale_kernel_request(2);
  std::string path;
  {
    Loader loader(options());
    loader.get(r);
    path = cache + "/" + loader.key_of(r) + ".entry";
  }
  BOOST_REQUIRE(::chown(path.c_str(), 65534, 65534) == 0);
  Loader loader(options());
  BOOST_TEST(run_scale(loader.get(r), 1.0f) == 2.0f);
  BOOST_TEST(loader.stats().rejects == 1u);
  BOOST_TEST(loader.trace_json().find("owned by another user") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
