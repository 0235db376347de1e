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

ReadResult read_secret(int dirfd, CacheSecret& secret, std::string& why,
                       const char* name = kCacheSecretFile) {
  int fd = ::openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
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

// The fleet's key named by ATTNC_CACHE_KEY_FILE: never created here (a key each host made for
// itself would share nothing), held to the same rules as the user's own.
std::optional<CacheSecret> load_named_secret(const std::string& path, std::string& why) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  CacheSecret secret;
  int dirfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ReadResult r =
      dirfd < 0 || name.empty() ? ReadResult::Missing : read_secret(dirfd, secret, why, name.c_str());
  if (dirfd >= 0) ::close(dirfd);
  if (r == ReadResult::Ok) return secret;
  if (r == ReadResult::Missing)
    why = "no cache key at ATTNC_CACHE_KEY_FILE=" + path +
          " (make one: umask 077; head -c 32 /dev/urandom > " + path + ")";
  else
    why = "ATTNC_CACHE_KEY_FILE=" + path + ": " + why;
  return std::nullopt;
}

}  // namespace

std::string cache_secret_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/attnc";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.config/attnc";
  return {};
}

std::optional<CacheSecret> load_cache_secret(int cache_dirfd, std::string& why) {
  if (const char* named = std::getenv("ATTNC_CACHE_KEY_FILE"); named && *named)
    return load_named_secret(named, why);
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
