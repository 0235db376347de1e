// Private temporary files and folders.
#include "runtime/TempDir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <system_error>
#include <vector>

namespace attn {
namespace {

std::string random_hex(size_t digits) {
  static const char* hex = "0123456789abcdef";
  std::vector<unsigned char> bytes((digits + 1) / 2);
  size_t got = 0;
  while (got < bytes.size()) {
    ssize_t n = getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // No entropy source: O_EXCL still makes the name unique, only less hard to guess.
      static thread_local unsigned seed = static_cast<unsigned>(getpid() ^ time(nullptr));
      for (; got < bytes.size(); ++got) bytes[got] = static_cast<unsigned char>(rand_r(&seed));
      break;
    }
    got += static_cast<size_t>(n);
  }
  std::string s;
  for (unsigned char b : bytes) s += {hex[b >> 4], hex[b & 15]};
  s.resize(digits);
  return s;
}

}  // namespace

std::string temp_root() {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

TempDir::TempDir(const std::string& prefix) {
  std::string templ = temp_root() + "/" + prefix + "XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw std::system_error(errno, std::generic_category(), "cannot create a folder under " + temp_root());
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool write_file(const std::string& path, const void* data, size_t size) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  if (!write_all(fd, data, size)) {
    int e = errno;
    ::close(fd);
    errno = e;
    return false;
  }
  return ::close(fd) == 0;
}

int create_unique_file(int dirfd, const std::string& prefix, const std::string& suffix, std::string& name) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string candidate = prefix + random_hex(12) + suffix;
    int fd = ::openat(dirfd, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
      name = candidate;
      return fd;
    }
    if (errno != EEXIST) return -1;
  }
  errno = EEXIST;
  return -1;
}

int remove_orphaned_temporaries(const std::string& prefix, int min_age_s) {
  std::string root = temp_root();
  DIR* dir = ::opendir(root.c_str());
  if (!dir) return 0;
  int removed = 0;
  time_t now = time(nullptr);
  while (dirent* e = ::readdir(dir)) {
    std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char* end = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (end == name.c_str() + prefix.size() || *end != '-' || pid <= 0) continue;
    struct stat st;
    if (::fstatat(dirfd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (st.st_uid != geteuid() || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) continue;
    if (now - st.st_mtim.tv_sec < min_age_s) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or not ours)
    std::error_code ec;
    if (std::filesystem::remove_all(root + "/" + name, ec) > 0 && !ec) ++removed;
  }
  ::closedir(dir);
  return removed;
}

}  // namespace attn
