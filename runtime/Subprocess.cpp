// Runs a program without a shell and captures its output; it dies with its caller.
#include "runtime/Subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>

extern char** environ;

namespace attn {
namespace {

// The executable argv[0] names, searched in PATH as execvp would; done before fork, where
// allocating is still allowed.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0;;) {
    size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  throw std::system_error(ENOENT, std::generic_category(), "cannot run '" + name + "'");
}

// Between fork and exec only async-signal-safe calls: other threads may hold allocator locks.
[[noreturn]] void exec_child(const char* path, char* const* args, int out_fd, int err_fd) {
  int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(out_fd, 1);
  ::dup2(out_fd, 2);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execve(path, args, environ);
  int e = errno;
  (void)!::write(err_fd, &e, sizeof e);
  _exit(127);
}

// The child between the caller and the program: it leads the program's process group, and when
// the caller dies (PR_SET_PDEATHSIG, as SIGTERM, which it waits for) kills that whole group, the
// compiler driver's own children (cc1plus, as, ld) included. Otherwise it passes the program's
// exit status on.
[[noreturn]] void run_guard(pid_t caller, const char* path, char* const* args, int out_fd, int err_fd) {
  ::setpgid(0, 0);
  // Inherited dispositions could discard the two signals waited for (SIG_IGN) or run a handler.
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGTERM, &dfl, nullptr);
  ::sigaction(SIGCHLD, &dfl, nullptr);
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGTERM);
  sigaddset(&wanted, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &wanted, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != caller) _exit(128 + SIGKILL);  // the caller died before prctl took effect
  pid_t program = ::fork();
  if (program < 0) {
    int e = errno;
    (void)!::write(err_fd, &e, sizeof e);
    _exit(127);
  }
  if (program == 0) exec_child(path, args, out_fd, err_fd);
  ::close(out_fd);
  ::close(err_fd);
  for (;;) {
    siginfo_t info;
    int sig = ::sigwaitinfo(&wanted, &info);
    if (sig == SIGTERM) {
      ::kill(-::getpid(), SIGKILL);  // the group, this process included
      _exit(128 + SIGKILL);
    }
    if (sig != SIGCHLD) continue;
    int status = 0;
    pid_t done = ::waitpid(program, &status, WNOHANG);
    if (done != program) continue;
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    _exit(128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0));
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::system_error(EINVAL, std::generic_category(), "empty command");
  std::string path = find_program(argv[0]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  // O_CLOEXEC so that children spawned concurrently by other threads do not inherit the write
  // ends and hold our EOF back; `errors` carries an exec failure's errno.
  int out[2], errors[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  if (pipe2(errors, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out[0]);
    ::close(out[1]);
    throw std::system_error(e, std::generic_category(), "pipe");
  }
  pid_t caller = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(out[0]);
    ::close(errors[0]);
    run_guard(caller, path.c_str(), args.data(), out[1], errors[1]);
  }
  int fork_errno = errno;
  ::close(out[1]);
  ::close(errors[1]);
  if (pid < 0) {
    ::close(out[0]);
    ::close(errors[0]);
    throw std::system_error(fork_errno, std::generic_category(), "cannot run '" + argv[0] + "'");
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
  int exec_errno = 0;
  ssize_t got;
  while ((got = ::read(errors[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  ::close(errors[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "waitpid");
  }
  if (got == sizeof exec_errno)
    throw std::system_error(exec_errno, std::generic_category(), "cannot run '" + argv[0] + "'");
  if (WIFEXITED(status))
    result.exit_status = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.exit_status = 128 + WTERMSIG(status);
  return result;
}

}  // namespace attn
