// What attnc writes and how (docs/guide.md): outputs never open a name another user planted,
// devices and FIFOs are written in place and stay what they are, symbolic links are followed, and
// a write error on standard output is a failure.
#include <grp.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <fstream>
#include <random>

#include "runtime/Npy.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;
namespace fs = std::filesystem;

namespace {

std::string attnc(const std::string& args) { return attnc_binary() + " " + args; }

// A kernel and its inputs in a fresh folder.
struct RunFiles {
  TempDir dir;
  RunFiles() {
    std::mt19937 rng(7);
    std::normal_distribution<float> n;
    HostTensor t(ScalarType::F32, {1, 1, 4, 4});
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, n(rng));
    for (const char* name : {"q.npy", "k.npy", "v.npy"}) write_npy(path(name), t);
    write_file(path("k.attn"), "kernel k { mask = q >= kv; }\n");
  }
  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
  std::string run(const std::string& out) const {
    return attnc("run " + path("k.attn") + " --q " + path("q.npy") + " --k " + path("k.npy") + " --v " +
                 path("v.npy") + " -o " + out);
  }
};

bool is_char_device(const std::string& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

// A private copy of /dev/null or /dev/full (major 1, minor 3 or 7) when this user may make one:
// then a failure replaces the copy, never the machine's own node. Otherwise the real one, which a
// user other than root cannot replace anyway.
std::string device_node(const TempDir& dir, const std::string& name, unsigned minor) {
  std::string p = (dir.path() / name).string();
  if (::mknod(p.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0 && ::chmod(p.c_str(), 0666) == 0) return p;
  BOOST_REQUIRE_MESSAGE(geteuid() != 0, "root could not make a device node");
  return "/dev/" + name;
}

boost::test_tools::assertion_result running_as_root(boost::unit_test::test_unit_id) {
  boost::test_tools::assertion_result r(geteuid() == 0);
  r.message() << "needs root to act as a second user";
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(outputs)

BOOST_AUTO_TEST_CASE(another_users_planted_links_are_never_written_through,
                     *boost::unit_test::precondition(running_as_root)) {
  // The attack of issue 31: in a shared sticky folder, uid 65534 plants links named as the old
  // temporaries (`<out>.tmp.<pid>`) for the next few thousand pids, pointing at root's file.
  RunFiles f;
  const fs::path shared = f.dir.path() / "shared", victim = f.dir.path() / "victim";
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  fs::permissions(f.dir.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
  write_file(victim, "precious\n");
  const std::string out = (shared / "o.npy").string();
  // As uid 65534 (a child that drops root), links for the next 3000 pids, as the old writer named
  // its temporary `<out>.tmp.<pid>`.
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
        ::setresuid(65534, 65534, 65534) != 0)
      ::_exit(90);
    std::ifstream last("/proc/sys/kernel/ns_last_pid");
    long pid = 0;
    if (!(last >> pid)) ::_exit(91);
    for (long p = pid; p < pid + 3000; ++p)
      if (::symlink(victim.c_str(), (out + ".tmp." + std::to_string(p)).c_str()) != 0) ::_exit(92);
    ::_exit(0);
  }
  int status = 0;
  BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_REQUIRE_MESSAGE(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the other user's links: " << status);
  auto r = run_command(f.run(out));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(read_file(victim) == "precious\n");
  BOOST_TEST(read_npy(out).numel() == 16);
  struct stat st {};
  BOOST_REQUIRE(::lstat(out.c_str(), &st) == 0);
  BOOST_TEST((S_ISREG(st.st_mode) && st.st_uid == 0));
}

BOOST_AUTO_TEST_CASE(devices_are_written_in_place_and_stay_devices) {
  RunFiles f;
  const std::string null = device_node(f.dir, "null", 3), full = device_node(f.dir, "full", 7);
  auto r = run_command(f.run(null));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(is_char_device(null));
  r = run_command(f.run(full));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("No space left on device") != std::string::npos, r.output);
  BOOST_TEST(is_char_device(full));
  r = run_command(attnc("mask " + f.path("k.attn") + " --len 8 --png " + null + " --svg " + null));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(is_char_device(null));
  // The flight recorder too.
  r = run_command("ATTNC_TRACE=" + null + " " + f.run(f.path("o.npy")) + " -t cpu");
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(is_char_device(null));
}

BOOST_AUTO_TEST_CASE(fifos_are_written_in_place_or_refused_never_waited_on) {
  RunFiles f;
  const std::string fifo = f.path("pipe.npy");
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // With a reader the bytes go through the FIFO.
  auto r = run_command("timeout 20 cat " + fifo + " > " + f.path("got.npy") + " & " + f.run(fifo) +
                       "; s=$?; wait; exit $s");
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(read_npy(f.path("got.npy")).numel() == 16);
  // Without one, an error rather than a wait.
  r = run_command("timeout 20 " + f.run(fifo));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("no process is reading the FIFO") != std::string::npos, r.output);
  struct stat st {};
  BOOST_TEST((::lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)));
}

BOOST_AUTO_TEST_CASE(links_are_followed_directories_refused_and_nothing_is_left_behind) {
  RunFiles f;
  fs::create_directory(f.dir.path() / "real");
  const fs::path target = f.dir.path() / "real" / "t.npy", link = f.dir.path() / "o.npy";
  write_file(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink(target, link);
  auto r = run_command(f.run(link.string()));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(fs::is_symlink(link));
  BOOST_TEST(read_npy(target.string()).numel() == 16);
  BOOST_TEST(((fs::status(target).permissions() & fs::perms::all) ==
              (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read)));
  // A link to nothing, a directory: refused, named.
  fs::create_symlink(f.dir.path() / "nowhere" / "x.npy", f.dir.path() / "dangling.npy");
  r = run_command(f.run(f.path("dangling.npy")));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("symbolic link to a missing file") != std::string::npos, r.output);
  r = run_command(f.run(f.path("real")));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("Is a directory") != std::string::npos, r.output);
  for (const auto& e : fs::directory_iterator(f.dir.path() / "real"))
    BOOST_TEST(e.path().filename().string().find(".tmp") == std::string::npos, e.path());
  for (const auto& e : fs::directory_iterator(f.dir.path()))
    BOOST_TEST(e.path().filename().string().find(".tmp") == std::string::npos, e.path());
}

BOOST_AUTO_TEST_CASE(a_write_error_on_standard_output_is_a_failure) {
  RunFiles f;
  const std::string full = device_node(f.dir, "full", 7), src = f.path("k.attn");
  for (const std::string& args :
       std::vector<std::string>{"fmt " + src, "dump --stage=ir " + src, "dump --stage=cpu " + src,
                                "mask " + src + " --len 8", "cache stats"}) {
    auto r = run_command("{ " + attnc(args) + " > " + full + "; }");
    BOOST_TEST(r.status != 0, args);
    // The reason is known when the last flush fails, not when an earlier one did (long output).
    BOOST_TEST(r.output.find("attnc: error: cannot write to standard output") != std::string::npos,
               args << ": " << r.output);
  }
  auto r = run_command(attnc("fmt " + src) + " > " + f.path("ok.txt"));
  BOOST_TEST(r.status == 0, r.output);
}

BOOST_AUTO_TEST_SUITE_END()
