// The on-disk kernel cache, plus `attnc cache stats|clear`.
#include "runtime/DiskCache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <system_error>

#include "attn/loader.hpp"
#include "runtime/CacheTrafficFile.h"
#include "runtime/PrivateDir.h"
#include "runtime/TempDir.h"

namespace attn {
namespace {

std::string error_text(int e) { return std::generic_category().message(e); }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The names in the folder open as `dirfd` (the descriptor stays open and usable).
std::vector<std::string> list_names(int dirfd) {
  std::vector<std::string> out;
  // A new open file description: a dup would share its read offset with concurrent listings.
  int fd = ::openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return out;
  DIR* d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return out;
  }
  while (dirent* e = ::readdir(d)) out.emplace_back(e->d_name);
  ::closedir(d);
  return out;
}

struct EntryFile {
  std::string name, key;
  uint64_t size;
  timespec mtime;
};

// Regular files named `<key>.entry`; temporaries and locks start with a dot and are never listed.
std::vector<EntryFile> list_entries(int dirfd) {
  std::vector<EntryFile> out;
  for (const std::string& name : list_names(dirfd)) {
    if (name.empty() || name[0] == '.' || !ends_with(name, kCacheEntrySuffix)) continue;
    struct stat st;
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    out.push_back({name, name.substr(0, name.size() - std::strlen(kCacheEntrySuffix)),
                   static_cast<uint64_t>(st.st_size), st.st_mtim});
  }
  return out;
}

// Opens `name` for reading without following a link or blocking on a FIFO or device.
int open_entry(int dirfd, const std::string& name) {
  return ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

// True if `name` is a regular file of this user's that begins with the entry magic (or, when
// `empty_ok`, is empty): the only files that cleaning and eviction may delete.
bool is_attnc_file(int dirfd, const std::string& name, bool empty_ok, time_t min_age_s = 0) {
  int fd = open_entry(dirfd, name);
  if (fd < 0) return false;
  struct stat st;
  uint8_t head[8];
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
            // No age asked, no clock read: a file written this instant can carry an mtime a tick
            // ahead of time(), which made `cache clear` skip a fresh entry under load.
            (min_age_s <= 0 || time(nullptr) - st.st_mtim.tv_sec >= min_age_s) &&
            ((empty_ok && st.st_size == 0) ||
             (::pread(fd, head, sizeof head, 0) == sizeof head && has_cache_entry_magic(head, sizeof head)));
  ::close(fd);
  return ok;
}

// Removes the temporary files of writers killed between write and rename (dot-named `.tmp`, empty
// or holding the start of an entry) last modified at least `min_age_s` ago.
void remove_temporaries(int dirfd, time_t min_age_s) {
  for (const std::string& name : list_names(dirfd)) {
    if (name.size() < 2 || name[0] != '.' || !ends_with(name, ".tmp")) continue;
    if (is_attnc_file(dirfd, name, true, min_age_s)) ::unlinkat(dirfd, name.c_str(), 0);
  }
}

// Removes the lock files that no process holds (a killed holder leaves its file behind).
void remove_free_locks(int dirfd) {
  for (const std::string& name : list_names(dirfd)) {
    if (name.size() < 2 || name[0] != '.' || !ends_with(name, ".lock")) continue;
    int fd = open_entry(dirfd, name);
    if (fd < 0) continue;
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size == 0 &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0)
      ::unlinkat(dirfd, name.c_str(), 0);
    ::close(fd);
  }
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Reads exactly `size` bytes at `offset`; false on a short read or an error.
bool read_at(int fd, uint8_t* out, size_t size, off_t offset) {
  while (size > 0) {
    ssize_t n = ::pread(fd, out, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return true;
}

}  // namespace

uint64_t cache_max_bytes_from_env(std::string* problem) {
  uint64_t mb = kDefaultCacheMaxMb;
  if (const char* s = std::getenv("ATTNC_CACHE_MAX_MB"); s && *s) {
    // Digits only: strtod would take "1e30" or "nan" and a cast would turn them into 0 bytes,
    // which evicts everything.
    bool digits = std::strspn(s, "0123456789") == std::strlen(s) && std::strlen(s) <= 8;
    uint64_t v = digits ? std::strtoull(s, nullptr, 10) : 0;
    if (v >= 1 && v <= kLargestCacheMaxMb)
      mb = v;
    else if (problem)
      *problem = std::string("ignoring ATTNC_CACHE_MAX_MB='") + s +
                 "': expected a whole number of MiB from 1 to " + std::to_string(kLargestCacheMaxMb) +
                 "; using " + std::to_string(kDefaultCacheMaxMb);
  }
  return mb * 1024 * 1024;
}

std::unique_ptr<DiskCache> DiskCache::open(const std::string& dir, uint64_t max_bytes, std::string& why) {
  std::string problem;
  int dirfd = open_private_dir(dir, problem);
  if (dirfd < 0) {
    why = "unusable cache directory: " + problem;
    return nullptr;
  }
  std::optional<CacheSecret> secret = load_cache_secret(dirfd, problem);
  if (!secret) {
    ::close(dirfd);
    why = "cannot use cache directory " + dir + ": " + problem;
    return nullptr;
  }
  // Permission bits do not stop root: only an actual write tells.
  std::string probe;
  int fd = create_unique_file(dirfd, ".probe.", ".tmp", probe);
  if (fd < 0) {
    why = "cannot write to cache directory " + dir + ": " + error_text(errno);
    ::close(dirfd);
    return nullptr;
  }
  ::close(fd);
  ::unlinkat(dirfd, probe.c_str(), 0);
  return std::unique_ptr<DiskCache>(new DiskCache(dir, dirfd, *secret, max_bytes));
}

DiskCache::~DiskCache() { ::close(dirfd_); }

DiskCache::Lookup DiskCache::read(const std::string& key) const {
  Lookup result;
  auto reject = [&](std::string reason) {
    result.status = Lookup::Rejected;
    result.reason = std::move(reason);
    result.payload.clear();
    return result;
  };
  int fd = open_entry(dirfd_, key + kCacheEntrySuffix);
  if (fd < 0) {
    if (errno == ENOENT) return result;
    return reject(errno == ELOOP ? "symbolic link" : "unreadable: " + error_text(errno));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) return reject("unreadable: " + error_text(errno));
  if (!S_ISREG(st.st_mode)) return reject("not a regular file");
  if (st.st_uid != geteuid()) return reject("owned by another user");

  // The header says how much to read; the file's size must agree before anything is allocated.
  uint64_t file_size = static_cast<uint64_t>(st.st_size);
  std::vector<uint8_t> bytes(std::min<uint64_t>(file_size, kCacheEntryHeaderSize));
  if (!read_at(fd, bytes.data(), bytes.size(), 0)) return reject("unreadable: short read");
  uint64_t payload_size = 0;
  EntryProblem problem = check_cache_entry_header(bytes.data(), bytes.size(), key, payload_size);
  if (problem == EntryProblem::Ok && file_size != kCacheEntryHeaderSize + payload_size)
    problem = file_size < kCacheEntryHeaderSize + payload_size ? EntryProblem::Truncated
                                                               : EntryProblem::SizeMismatch;
  if (problem != EntryProblem::Ok) return reject(entry_problem_name(problem));
  bytes.resize(file_size);
  if (!read_at(fd, bytes.data() + kCacheEntryHeaderSize, payload_size, kCacheEntryHeaderSize))
    return reject(entry_problem_name(EntryProblem::Truncated));
  problem = decode_cache_entry(bytes, key, secret_, result.payload);
  if (problem != EntryProblem::Ok) return reject(entry_problem_name(problem));
  result.status = Lookup::Hit;
  ::futimens(fd, nullptr);
  return result;
}

std::vector<uint8_t> DiskCache::seal(const std::string& key, const std::vector<uint8_t>& payload) const {
  return encode_cache_entry(key, payload, secret_);
}

EntryProblem DiskCache::unseal(const std::string& key, const std::vector<uint8_t>& entry,
                               std::vector<uint8_t>& payload) const {
  return decode_cache_entry(entry, key, secret_, payload);
}

void DiskCache::count(const CacheTraffic& delta) const { add_cache_traffic(dirfd_, delta); }

std::string DiskCache::write(const std::string& key, const std::vector<uint8_t>& payload,
                             std::vector<std::string>& evicted) const {
  std::vector<uint8_t> entry = seal(key, payload);
  // Dot-named so that listings of entries never see it; a fresh name each time (O_EXCL), so no
  // link planted under a guessable name is ever followed or truncated.
  std::string tmp;
  int fd = create_unique_file(dirfd_, "." + key + ".", ".tmp", tmp);
  if (fd < 0) return "cannot create a temporary file in " + dir_ + ": " + error_text(errno);
  bool ok = write_all(fd, entry.data(), entry.size());
  int e = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    ::unlinkat(dirfd_, tmp.c_str(), 0);
    return "cannot write " + dir_ + "/" + tmp + ": " + error_text(e);
  }
  // rename(2) is atomic: readers see the old entry or the new one, never a mix; two processes
  // writing the same key both succeed and the last one's (identical-key, valid) entry stays. It
  // replaces whatever had the name (a FIFO, a link) without following it.
  std::string name = key + kCacheEntrySuffix;
  if (::renameat(dirfd_, tmp.c_str(), dirfd_, name.c_str()) != 0) {
    std::string why = error_text(errno);
    ::unlinkat(dirfd_, tmp.c_str(), 0);
    return "cannot rename " + dir_ + "/" + tmp + ": " + why;
  }
  evict(key, evicted);
  return {};
}

std::unique_ptr<DiskCache::KeyLock> DiskCache::lock(const std::string& key) const {
  std::string name = "." + key + ".lock";
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = ::openat(dirfd_, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0) break;
    struct stat held, named;
    int rc;
    while ((rc = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
    }
    // The holder we waited for removes the file before releasing it: a lock on a file that no
    // longer has the name locks nothing, so take the new one.
    if (rc == 0 && ::fstat(fd, &held) == 0 && S_ISREG(held.st_mode) &&
        ::fstatat(dirfd_, name.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 && same_file(held, named))
      return std::unique_ptr<KeyLock>(new KeyLock(dirfd_, name, fd));
    ::close(fd);
    if (rc != 0) break;
  }
  return std::unique_ptr<KeyLock>(new KeyLock(dirfd_, name, -1));
}

DiskCache::KeyLock::~KeyLock() {
  if (fd_ < 0) return;
  struct stat held, named;
  if (::fstat(fd_, &held) == 0 && ::fstatat(dirfd_, name_.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
      same_file(held, named))
    ::unlinkat(dirfd_, name_.c_str(), 0);
  ::close(fd_);
}

void DiskCache::evict(const std::string& keep, std::vector<std::string>& evicted) const {
  std::vector<EntryFile> entries = list_entries(dirfd_);
  uint64_t total = 0;
  for (const EntryFile& e : entries) total += e.size;
  if (total <= max_bytes_) return;
  remove_temporaries(dirfd_, 3600);
  std::sort(entries.begin(), entries.end(), [](const EntryFile& a, const EntryFile& b) {
    if (a.mtime.tv_sec != b.mtime.tv_sec) return a.mtime.tv_sec < b.mtime.tv_sec;
    if (a.mtime.tv_nsec != b.mtime.tv_nsec) return a.mtime.tv_nsec < b.mtime.tv_nsec;
    return a.key < b.key;
  });
  for (const EntryFile& e : entries) {
    if (total <= max_bytes_) break;
    if (e.key == keep || !is_attnc_file(dirfd_, e.name, false)) continue;
    // Another process may have removed it already; either way it no longer counts.
    ::unlinkat(dirfd_, e.name.c_str(), 0);
    total -= e.size;
    evicted.push_back(e.key);
  }
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("ATTNC_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/attnc";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/attnc";
  // A predictable name in a shared folder: DiskCache::open refuses it unless this user owns it
  // and no one else can write it.
  return temp_root() + "/attnc-cache-" + std::to_string(getuid());
}

CacheStats cache_stats(const std::string& dir) {
  CacheStats s;
  s.dir = dir.empty() ? default_cache_dir() : dir;
  s.max_bytes = cache_max_bytes_from_env(&s.problem);
  int fd = ::open(s.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return s;
  for (const EntryFile& e : list_entries(fd)) {
    ++s.entries;
    s.bytes += e.size;
  }
  s.traffic = read_cache_traffic(fd);
  ::close(fd);
  return s;
}

uint64_t cache_clear(const std::string& dir) {
  std::string d = dir.empty() ? default_cache_dir() : dir;
  // Whoever owns the folder, only this user's attnc files in it go: entries (by their magic),
  // temporaries and free locks.
  int fd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return 0;
  uint64_t removed = 0;
  for (const EntryFile& e : list_entries(fd))
    if (is_attnc_file(fd, e.name, false) && ::unlinkat(fd, e.name.c_str(), 0) == 0) ++removed;
  remove_temporaries(fd, 0);
  remove_free_locks(fd);
  // The counters start again with the emptied cache (only a regular file of this user's goes).
  struct stat st;
  if (::fstatat(fd, kCacheTrafficFile, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
      st.st_uid == geteuid())
    ::unlinkat(fd, kCacheTrafficFile, 0);
  ::close(fd);
  return removed;
}

}  // namespace attn
