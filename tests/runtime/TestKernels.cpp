// Hand-written ABI kernels and the per-test cache directory fixture.
#include "TestKernels.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace attn::test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string capture_stderr(const std::string& file, const std::function<void()>& body) {
  fflush(stderr);
  int saved = dup(2);
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  dup2(fd, 2);
  ::close(fd);
  body();
  fflush(stderr);
  dup2(saved, 2);
  ::close(saved);
  return read_text(file);
}

int run_in_child(int timeout_s, const std::function<int()>& body) {
  std::fflush(nullptr);  // the child must not repeat buffered test output
  pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    int status = 2;
    try {
      status = body();
    } catch (...) {
      status = 254;
    }
    _exit(status);
  }
  for (int waited_ms = 0;; waited_ms += 10) {
    int status = 0;
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return WIFEXITED(status) && WEXITSTATUS(status) != 254 ? WEXITSTATUS(status) : -2;
    if (waited_ms >= timeout_s * 1000) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return -1;
    }
    usleep(10000);
  }
}

std::vector<int> run_released_together(int n, const std::function<int(int)>& body) {
  int gate[2];
  BOOST_REQUIRE(pipe(gate) == 0);
  std::vector<pid_t> children;
  for (int i = 0; i < n; ++i) {
    std::fflush(nullptr);  // children must not repeat buffered test output
    pid_t child = fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) {
      ::close(gate[1]);
      char c;
      (void)!::read(gate[0], &c, 1);  // until the parent closes the pipe
      int status = 3;
      try {
        status = body(i);
      } catch (...) {
      }
      _exit(status);
    }
    children.push_back(child);
  }
  ::close(gate[0]);
  ::close(gate[1]);
  std::vector<int> statuses;
  for (pid_t child : children) {
    int status = 0;
    BOOST_REQUIRE(waitpid(child, &status, 0) == child);
    statuses.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  return statuses;
}

size_t count_lines_with(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

long long file_size(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

std::string scale_kernel_source(int factor, const std::string& entry) {
  // Self-contained like generated sources: the ABI header's text is part of the unit.
  static const std::string abi = read_text(ATTNC_SOURCE_DIR "/runtime/include/attn/kernel_abi.h");
  BOOST_REQUIRE(!abi.empty());
  std::ostringstream s;
  s << abi << R"(
#include <stdio.h>
extern "C" int )"
    << entry << R"((const attn_kernel_args* a) {
  if (a->abi_version != ATTN_KERNEL_ABI_VERSION) {
    snprintf(a->error, a->error_size, "abi version %d", a->abi_version);
    return 1;
  }
  long n = 1;
  for (int i = 0; i < a->q->ndim; ++i) n *= a->q->shape[i];
  const float* q = (const float*)((const char*)a->q->data + a->q->byte_offset);
  float* out = (float*)((char*)a->out->data + a->out->byte_offset);
  for (long i = 0; i < n; ++i) out[i] = q[i] * )"
    << factor << R"(.0f;
  return 0;
}
)";
  return s.str();
}

KernelRequest scale_kernel_request(int factor, const std::string& entry) {
  KernelRequest r;
  r.target = "cpu";
  r.source = scale_kernel_source(factor, entry);
  r.entry = entry;
  return r;
}

float run_scale(const Kernel& kernel, float x) {
  float q[4] = {x, x + 1, x + 2, x + 3}, out[4] = {};
  int64_t shape[4] = {1, 1, 1, 4};
  DLTensor tq{}, tout{};
  tq.data = q;
  tq.ndim = 4;
  tq.shape = shape;
  tq.dtype = DLDataType{kDLFloat, 32, 1};
  tq.device = DLDevice{kDLCPU, 0};
  tout = tq;
  tout.data = out;
  char error[256] = {};
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = args.k = args.v = &tq;
  args.out = &tout;
  args.error = error;
  args.error_size = sizeof error;
  int rc = kernel(args);
  BOOST_REQUIRE_MESSAGE(rc == 0, "kernel failed: " << error);
  return out[0];
}

CacheFixture::CacheFixture() : root(std::make_unique<TempDir>("attnc-loader-test-")) {
  cache = root->path() + "/cache";
  config = root->path() + "/config";
  if (const char* x = std::getenv("XDG_CONFIG_HOME")) saved_config_home = x;
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  setenv("ATTNC_CACHE_DIR", cache.c_str(), 1);
  setenv("ATTNC_TRACE", (root->path() + "/trace.json").c_str(), 1);
  unsetenv("ATTNC_CACHE_MAX_MB");
  // The caller's shared cache or fleet key would make these tests about something else.
  unsetenv("ATTNC_REMOTE_CACHE");
  unsetenv("ATTNC_CACHE_KEY_FILE");
}

CacheFixture::~CacheFixture() {
  if (saved_config_home)
    setenv("XDG_CONFIG_HOME", saved_config_home->c_str(), 1);
  else
    unsetenv("XDG_CONFIG_HOME");
  unsetenv("ATTNC_CACHE_DIR");
  unsetenv("ATTNC_TRACE");
  unsetenv("ATTNC_CACHE_MAX_MB");
}

LoaderOptions CacheFixture::options() const {
  LoaderOptions o;
  o.recorder = std::make_shared<FlightRecorder>(256);
  return o;
}

}  // namespace attn::test
