// Runs a program under a guard that kills it when its caller dies, and captures its output.
#include "runtime/Subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>
#include <system_error>

extern char** environ;

namespace attn {
namespace {

// The guard that runs the program: it leads a process group of its own, starts the program in
// it, and waits on fd 3, a pipe whose only write end the caller holds. When the caller dies, even
// by SIGKILL, the kernel closes that end, the read sees end of file, and the guard kills the whole
// group: the compiler driver and its own children (cc1plus, as, ld). When the program ends first,
// the guard stops waiting and passes its exit status on. A shell, so that spawning it is a vfork
// and an exec (posix_spawn): a fork of a large caller would copy its page tables for every compile.
constexpr const char* kGuardScript =
    "\"$@\" 3<&- & program=$!\n"
    "(read _ <&3; kill -KILL 0) >/dev/null 2>&1 & watcher=$!\n"
    "wait $program; status=$?\n"
    "kill $watcher 2>/dev/null\n"
    "exit $status\n";

bool is_executable_file(const std::string& path) {
  struct stat st;
  return ::access(path.c_str(), X_OK) == 0 && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The executable argv[0] names, searched in PATH as execvp would: a program that cannot start is
// an exception here, not an exit status from the guard.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (is_executable_file(name)) return name;
    throw std::system_error(EACCES, std::generic_category(), "cannot run '" + name + "'");
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0;;) {
    size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  throw std::system_error(ENOENT, std::generic_category(), "cannot run '" + name + "'");
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  if (argv.empty()) throw std::system_error(EINVAL, std::generic_category(), "empty command");
  std::vector<std::string> command = {"/bin/sh", "-c", kGuardScript, "attnc-compile-guard",
                                      find_program(argv[0])};
  command.insert(command.end(), argv.begin() + 1, argv.end());

  // O_CLOEXEC so that children spawned concurrently by other threads inherit neither pipe: the
  // output's write end would hold our EOF back, the lifeline's would keep the guard waiting.
  int out[2], lifeline[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  if (pipe2(lifeline, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out[0]);
    ::close(out[1]);
    throw std::system_error(e, std::generic_category(), "pipe");
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);
  posix_spawn_file_actions_adddup2(&actions, lifeline[0], 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGTERM, SIGINT, SIGQUIT, SIGPIPE, SIGCHLD, SIGHUP}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const std::string& a : command) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    bool replaced = false;
    for (const std::string& setting : env)
      replaced |= entry.substr(0, entry.find('=') + 1) == setting.substr(0, setting.find('=') + 1);
    if (!replaced) envp.push_back(*e);
  }
  for (const std::string& setting : env) envp.push_back(const_cast<char*>(setting.c_str()));
  envp.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  ::close(lifeline[0]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(lifeline[1]);
    throw std::system_error(rc, std::generic_category(), "cannot run '" + argv[0] + "'");
  }

  ProcessResult result;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.output.append(buf, static_cast<size_t>(n));
  }
  ::close(out[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      int e = errno;
      ::close(lifeline[1]);
      throw std::system_error(e, std::generic_category(), "waitpid");
    }
  }
  ::close(lifeline[1]);  // only now: closing it earlier would tell the guard we died
  if (WIFEXITED(status))
    result.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.exit_status = 128 + WTERMSIG(status);
  return result;
}

}  // namespace attn
