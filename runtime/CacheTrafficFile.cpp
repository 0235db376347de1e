// A cache directory's traffic counters: magic[8] then six native-endian u64 (CacheTraffic's order).
#include "runtime/CacheTrafficFile.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace attn {
namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'C', 'T', 'R', '\x01'};
constexpr size_t kFields = 6, kFileSize = sizeof kMagic + kFields * sizeof(uint64_t);

uint64_t* fields(CacheTraffic& t, size_t i) {
  uint64_t* all[kFields] = {&t.hits, &t.misses, &t.rejects, &t.writes, &t.bytes_read, &t.bytes_written};
  return all[i];
}

// Opens (or with `create`, creates) the file without following a link or blocking on a FIFO; -1
// unless it is a regular file of this user's, empty (new) or of the expected size.
int open_traffic(int dirfd, bool create) {
  int flags = (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  int fd = ::openat(dirfd, kCacheTrafficFile, flags, 0600);
  if (fd < 0) return -1;
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
      (st.st_size != 0 && st.st_size != static_cast<off_t>(kFileSize))) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool read_counters(int fd, CacheTraffic& t) {
  uint8_t bytes[kFileSize];
  ssize_t n = ::pread(fd, bytes, sizeof bytes, 0);
  if (n == 0) return true;  // new: all zero
  if (n != static_cast<ssize_t>(kFileSize) || std::memcmp(bytes, kMagic, sizeof kMagic) != 0) return false;
  for (size_t i = 0; i < kFields; ++i) std::memcpy(fields(t, i), bytes + sizeof kMagic + 8 * i, 8);
  return true;
}

}  // namespace

bool add_cache_traffic(int dirfd, const CacheTraffic& delta) {
  int fd = open_traffic(dirfd, true);
  if (fd < 0) return false;
  int rc;
  while ((rc = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
  }
  CacheTraffic total;
  bool ok = rc == 0 && read_counters(fd, total);
  if (ok) {
    CacheTraffic d = delta;
    uint8_t bytes[kFileSize];
    std::memcpy(bytes, kMagic, sizeof kMagic);
    for (size_t i = 0; i < kFields; ++i) {
      *fields(total, i) += *fields(d, i);
      std::memcpy(bytes + sizeof kMagic + 8 * i, fields(total, i), 8);
    }
    ok = ::pwrite(fd, bytes, sizeof bytes, 0) == static_cast<ssize_t>(kFileSize);
  }
  ::close(fd);  // releases the lock
  return ok;
}

CacheTraffic read_cache_traffic(int dirfd) {
  CacheTraffic t;
  int fd = open_traffic(dirfd, false);
  if (fd < 0) return t;
  while (::flock(fd, LOCK_SH) != 0 && errno == EINTR) {
  }
  if (!read_counters(fd, t)) t = CacheTraffic{};
  ::close(fd);
  return t;
}

}  // namespace attn
