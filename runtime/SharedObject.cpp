// A shared object loaded from bytes through a private temporary file.
#include "runtime/SharedObject.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "runtime/TempDir.h"

namespace attn {

std::shared_ptr<SharedObject> SharedObject::load(const std::vector<uint8_t>& bytes) {
  static std::atomic<uint64_t> counter{0};
  std::string templ =
      temp_root() + "/attnc-so-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-XXXXXX.so";
  std::vector<char> path(templ.begin(), templ.end());
  path.push_back('\0');
  int fd = mkostemps(path.data(), 3, O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot create a temporary file under " + temp_root() + ": " +
                             std::generic_category().message(errno));
  // Written through the descriptor mkostemps opened: the name is never opened a second time.
  bool written = write_all(fd, bytes.data(), bytes.size());
  int e = errno;
  if (::close(fd) != 0 && written) {
    written = false;
    e = errno;
  }
  if (!written) {
    ::unlink(path.data());
    throw std::runtime_error(std::string("cannot write ") + path.data() + ": " +
                             std::generic_category().message(e));
  }
  void* handle = dlopen(path.data(), RTLD_NOW | RTLD_LOCAL);
  std::string why = handle ? "" : dlerror();
  // The mapping outlives the name; removing it now leaves nothing behind if we crash.
  ::unlink(path.data());
  if (!handle) throw std::runtime_error("dlopen failed: " + why);
  return std::shared_ptr<SharedObject>(new SharedObject(handle));
}

SharedObject::~SharedObject() { dlclose(handle_); }

void* SharedObject::symbol(const std::string& name) const { return dlsym(handle_, name.c_str()); }

}  // namespace attn
