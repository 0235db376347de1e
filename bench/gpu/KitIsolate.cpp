// run_isolated: a worker process per run of items, restarted after the item that killed it.
#include "bench/gpu/KitIsolate.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <sys/wait.h>
#include <unistd.h>

namespace attn::kit {

namespace {

/// The worker: items from `first` on; after each, "<index> <failures>\n" on `report`.
[[noreturn]] void worker(size_t first, size_t n, const std::function<int(size_t)>& work, int report,
                         unsigned seconds) {
  std::ofstream("/proc/self/oom_score_adj") << 1000;  // this process first, never the parent
  for (size_t i = first; i < n; ++i) {
    alarm(seconds);
    const int failures = work(i);
    alarm(0);
    std::cout.flush();
    std::fflush(stdout);
    char line[64];
    const int len = std::snprintf(line, sizeof line, "%zu %d\n", i, failures);
    if (write(report, line, static_cast<size_t>(len)) != len) _exit(3);
  }
  _exit(0);
}

std::string death(int status, unsigned seconds) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGALRM) return "took over " + std::to_string(seconds) + " s (stopped)";
    if (sig == SIGKILL) return "killed (SIGKILL: the out-of-memory killer, or a time limit)";
    return std::string("the process died (signal ") + std::to_string(sig) + ", " + strsignal(sig) + ")";
  }
  return "the process exited with status " + std::to_string(WEXITSTATUS(status)) + " mid-kernel";
}

}  // namespace

int run_isolated(size_t n, const std::function<int(size_t)>& work,
                 const std::function<std::string(size_t)>& name, unsigned seconds) {
  int failures = 0;
  size_t next = 0;
  while (next < n) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::cout.flush();
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      close(fds[0]);
      worker(next, n, work, fds[1], seconds);
    }
    close(fds[1]);
    FILE* in = fdopen(fds[0], "r");
    size_t index = 0;
    int got = 0;
    while (std::fscanf(in, "%zu %d", &index, &got) == 2) {
      failures += got;
      next = index + 1;
    }
    std::fclose(in);
    int status = 0;
    waitpid(pid, &status, 0);
    if (next < n && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      std::cout << "FAIL " << name(next) << ": " << death(status, seconds) << std::endl;
      ++failures;
      ++next;
    } else if (next < n) {
      throw std::runtime_error("the kit's worker stopped early without an error");
    }
  }
  return failures;
}

}  // namespace attn::kit
