// The tests' redis-server: forked and exec'ed, polled with the loader's own client until it answers.
#include "RedisServer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <thread>

#include "runtime/RemoteCache.h"

namespace attn::test {
namespace {

// A loopback port nobody listens on now (the kernel's choice for a bound, closed socket).
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

}  // namespace

RedisServer::RedisServer(const std::string& dir) : port_(free_port()) {
  BOOST_REQUIRE(port_ > 0);
  std::string port = std::to_string(port_);
  std::fflush(nullptr);
  pid_ = fork();
  BOOST_REQUIRE(pid_ >= 0);
  if (pid_ == 0) {
    execlp("redis-server", "redis-server", "--port", port.c_str(), "--bind", "127.0.0.1", "--save", "",
           "--appendonly", "no", "--dir", dir.c_str(), "--logfile", (dir + "/redis.log").c_str(),
           static_cast<char*>(nullptr));
    _exit(127);  // not installed: scripts/install-deps.sh installs redis-server
  }
  for (int i = 0; i < 500; ++i) {
    std::string why;
    auto probe = RemoteCache::open(url(), 200, why);
    if (probe && probe->get("probe").status != RemoteCache::Fetch::Unavailable) return;
    int status = 0;
    BOOST_REQUIRE_MESSAGE(waitpid(pid_, &status, WNOHANG) == 0, "redis-server exited (is it installed?)");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  BOOST_FAIL("redis-server did not answer on port " << port_);
}

RedisServer::~RedisServer() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGCONT);
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
}

std::string RedisServer::url() const { return "redis://127.0.0.1:" + std::to_string(port_) + "/0"; }

void RedisServer::signal(int signal) const { ::kill(pid_, signal); }

}  // namespace attn::test
