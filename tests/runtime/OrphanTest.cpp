// A killed caller leaves nothing running (the compiler dies with it) and nothing behind for long.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "TestKernels.h"
#include "runtime/Subprocess.h"

namespace fs = std::filesystem;

namespace attn::test {
namespace {

// True while `pid` runs; a zombie (not yet reaped by whoever inherited it) counts as gone.
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

pid_t read_pid(const std::string& path) {
  std::ifstream in(path);
  long pid = 0;
  return in >> pid ? static_cast<pid_t>(pid) : 0;
}

template <class Pred>
bool wait_until(Pred pred, int seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// A process id that no process has now.
pid_t dead_pid() {
  pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return child;
}

void backdate(const std::string& path, int seconds) {
  timespec t[2] = {{time(nullptr) - seconds, 0}, {time(nullptr) - seconds, 0}};
  BOOST_REQUIRE(utimensat(AT_FDCWD, path.c_str(), t, AT_SYMLINK_NOFOLLOW) == 0);
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(orphans, CacheFixture)

BOOST_AUTO_TEST_CASE(compiler_and_its_children_die_with_a_killed_caller) {
  // The "compiler" is a shell (the driver) with a child of its own (cc1plus): kill -9 the caller
  // while they run, and both must go.
  std::string driver_pid = root->path() + "/driver.pid", child_pid = root->path() + "/child.pid";
  std::string script = "sleep 300 & echo $! > " + child_pid + ".tmp; mv " + child_pid + ".tmp " + child_pid +
                       "; echo $$ > " + driver_pid + ".tmp; mv " + driver_pid + ".tmp " + driver_pid +
                       "; wait";
  std::fflush(nullptr);
  pid_t caller = fork();
  BOOST_REQUIRE(caller >= 0);
  if (caller == 0) {
    run_process({"sh", "-c", script});
    _exit(0);
  }
  bool started = wait_until([&] { return read_pid(driver_pid) > 0 && read_pid(child_pid) > 0; }, 30);
  pid_t driver = read_pid(driver_pid), grandchild = read_pid(child_pid);
  kill(caller, SIGKILL);
  waitpid(caller, nullptr, 0);
  BOOST_REQUIRE(started);
  bool driver_gone = wait_until([&] { return !running(driver); }, 10);
  bool child_gone = wait_until([&] { return !running(grandchild); }, 10);
  BOOST_TEST(driver_gone);
  BOOST_TEST(child_gone);
  if (!driver_gone) kill(driver, SIGKILL);
  if (!child_gone) kill(grandchild, SIGKILL);
}

BOOST_AUTO_TEST_CASE(run_process_reports_status_output_environment_and_missing_programs) {
  ProcessResult r = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
  BOOST_TEST(r.exit_status == 3);
  BOOST_TEST(r.output == "out\nerr\n");
  BOOST_TEST(run_process({"sh", "-c", "kill -9 $$"}).exit_status == 128 + SIGKILL);
  setenv("ATTNC_ORPHAN_TEST", "kept", 1);
  r = run_process({"sh", "-c", "echo $TMPDIR $ATTNC_ORPHAN_TEST"}, {"TMPDIR=/elsewhere"});
  unsetenv("ATTNC_ORPHAN_TEST");
  BOOST_TEST(r.output == "/elsewhere kept\n");
  BOOST_CHECK_THROW(run_process({"attnc-no-such-program-xyz"}), std::system_error);
  BOOST_CHECK_THROW(run_process({root->path()}), std::system_error);  // a folder: exec fails
}

BOOST_AUTO_TEST_CASE(build_folders_of_killed_processes_are_removed_at_start) {
  std::string tmp = root->path() + "/tmp";
  fs::create_directory(tmp);
  setenv("TMPDIR", tmp.c_str(), 1);
  pid_t dead = dead_pid();
  std::string stale = tmp + "/attnc-build-" + std::to_string(dead) + "-a1b2c3";
  std::string stale_so = tmp + "/attnc-so-" + std::to_string(dead) + "-0-a1b2c3.so";
  std::string young = tmp + "/attnc-build-" + std::to_string(dead) + "-d4e5f6";
  std::string alive = tmp + "/attnc-build-" + std::to_string(getpid()) + "-a1b2c3";
  std::string other = tmp + "/attnc-build-notapid-a1b2c3";
  for (const std::string& d : {stale, young, alive, other}) {
    fs::create_directory(d);
    BOOST_REQUIRE(write_file(d + "/kernel.cpp", "int x;", 6));
  }
  BOOST_REQUIRE(write_file(stale_so, "ELF", 3));
  for (const std::string& p : {stale, stale_so, alive, other}) backdate(p, 7200);
  {
    Loader loader(options());
    BOOST_TEST(run_scale(loader.get(scale_kernel_request(2)), 1.0f) == 2.0f);
  }
  unsetenv("TMPDIR");
  BOOST_TEST(!fs::exists(stale));
  BOOST_TEST(!fs::exists(stale_so));
  BOOST_TEST(fs::exists(young));  // may be a live compile in another PID namespace
  BOOST_TEST(fs::exists(alive));
  BOOST_TEST(fs::exists(other));
  size_t left = 0;
  for (const auto& e : fs::directory_iterator(tmp))
    left += e.path().filename().string().rfind("attnc-", 0) == 0;
  BOOST_TEST(left == 3u);  // the compile cleaned up after itself
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
