// A redis-server of the test's own on a free loopback port (scripts/install-deps.sh installs it).
#pragma once

#include <sys/types.h>

#include <string>

namespace attn::test {

/// Starts `redis-server` (no persistence, its files in `dir`) and waits until it answers.
class RedisServer {
 public:
  explicit RedisServer(const std::string& dir);
  /// Kills it if it still runs.
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;
  /// redis://127.0.0.1:<port>/0
  std::string url() const;
  /// Sends `signal` (SIGKILL: gone; SIGSTOP: there but silent; SIGCONT: back).
  void signal(int signal) const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace attn::test
