// The per-user key that signs disk cache entries.
#include "runtime/CacheSecret.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>

#include "runtime/PrivateDir.h"
#include "runtime/TempDir.h"

namespace attn {
namespace {

std::string error_text(int e) { return std::generic_category().message(e); }

enum class ReadResult { Ok, Missing, Bad };

ReadResult read_secret(int dirfd, CacheSecret& secret, std::string& why) {
  int fd = ::openat(dirfd, kCacheSecretFile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return ReadResult::Missing;
    why = std::string("cannot open the cache key: ") + error_text(errno);
    return ReadResult::Bad;
  }
  struct stat st;
  ReadResult result = ReadResult::Bad;
  if (::fstat(fd, &st) != 0)
    why = std::string("cannot stat the cache key: ") + error_text(errno);
  else if (!S_ISREG(st.st_mode) || st.st_size != static_cast<off_t>(secret.size()))
    why = "the cache key is not a regular file of " + std::to_string(secret.size()) + " bytes";
  else if (st.st_uid != geteuid())
    why = "the cache key belongs to another user";
  else if (st.st_mode & 077)
    why = "the cache key is readable or writable by others";
  else if (::pread(fd, secret.data(), secret.size(), 0) != static_cast<ssize_t>(secret.size()))
    why = "cannot read the cache key";
  else
    result = ReadResult::Ok;
  ::close(fd);
  return result;
}

bool fill_random(CacheSecret& secret) {
  size_t got = 0;
  while (got < secret.size()) {
    ssize_t n = getrandom(secret.data() + got, secret.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

// Writes a fresh key under a unique name and links it to its final name: link(2) fails if that
// exists, so the first of several racing processes wins and the others read its complete file.
bool create_secret(int dirfd, std::string& why) {
  CacheSecret fresh;
  if (!fill_random(fresh)) {
    why = "no random bytes for the cache key";
    return false;
  }
  std::string tmp;
  int fd = create_unique_file(dirfd, ".cache.key.", ".tmp", tmp);
  if (fd < 0) {
    why = std::string("cannot create the cache key: ") + error_text(errno);
    return false;
  }
  bool ok = write_all(fd, fresh.data(), fresh.size()) && ::fsync(fd) == 0;
  int e = errno;
  ::close(fd);
  if (ok && ::linkat(dirfd, tmp.c_str(), dirfd, kCacheSecretFile, 0) != 0 && errno != EEXIST) {
    ok = false;
    e = errno;
  }
  ::unlinkat(dirfd, tmp.c_str(), 0);
  if (!ok) why = std::string("cannot write the cache key: ") + error_text(e);
  return ok;
}

}  // namespace

std::string cache_secret_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/attnc";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/attnc";
  return {};
}

std::optional<CacheSecret> load_cache_secret(int cache_dirfd, std::string& why) {
  std::string dir = cache_secret_dir();
  int dirfd = cache_dirfd;
  if (!dir.empty()) {
    // A home that cannot hold it (read-only, missing, another user's) leaves the cache directory,
    // already checked private: the key then guards against other users, not a shared cache.
    std::string ignored;
    dirfd = open_private_dir(dir, ignored);
    if (dirfd < 0) dirfd = cache_dirfd;
  }
  CacheSecret secret;
  ReadResult r = read_secret(dirfd, secret, why);
  if (r == ReadResult::Missing && create_secret(dirfd, why)) r = read_secret(dirfd, secret, why);
  if (r == ReadResult::Missing) why = why.empty() ? "the cache key vanished" : why;
  if (dirfd != cache_dirfd) ::close(dirfd);
  if (r != ReadResult::Ok) return std::nullopt;
  return secret;
}

}  // namespace attn
