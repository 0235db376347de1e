// write_output_file and overwrite_file: the discipline of the disk cache for every output.
#include "runtime/OutputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#include "runtime/InputFile.h"
#include "runtime/PathText.h"
#include "runtime/TempDir.h"

namespace attn {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw OutputFileError(what + " " + printable_path(path) + ": " + std::generic_category().message(err));
}

bool write_parts(int fd, const std::vector<std::string_view>& parts) {
  for (std::string_view p : parts)
    if (!write_all(fd, p.data(), p.size())) return false;
  return true;
}

// The process's umask, read without changing it (umask(2) can only set it, and setting it back
// races with other threads creating files).
mode_t current_umask() {
  if (std::FILE* f = std::fopen("/proc/self/status", "re")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "Umask: %o", &mask) == 1;
    std::fclose(f);
    if (found) return static_cast<mode_t>(mask);
  }
  return 022;
}

// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Writes a character device or FIFO where it is. Returns false when `path` turned out to be a
// regular file once opened (the caller then replaces it).
bool write_in_place(const std::string& path, const std::vector<std::string_view>& parts) {
  // O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting forever.
  Fd f{::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) {
    if (errno == ENXIO)
      throw OutputFileError("cannot write " + printable_path(path) + ": no process is reading the FIFO");
    fail("cannot write", path, errno);
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail("cannot write", path, errno);
  if (S_ISREG(st.st_mode)) return false;
  if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw OutputFileError("cannot write " + printable_path(path) + ": it is " + file_kind_name(st.st_mode));
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  if (!write_parts(f.fd, parts)) fail("cannot write", path, errno);
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) fail("cannot write", path, errno);
  return true;
}

// Writes a new file beside `target` and renames it over `target`. `existing`: the stat of the
// file being replaced, or null for a new one.
void replace(const std::string& shown, const std::string& target, const struct stat* existing,
             const std::vector<std::string_view>& parts) {
  size_t slash = target.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") fail("cannot write", shown, EISDIR);
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd < 0) fail("cannot write", shown, errno);
  // Dot-named and random: the name cannot be predicted, and O_EXCL|O_NOFOLLOW refuses anything
  // already there (a planted link included). The destination's name is shortened in it so that a
  // name near NAME_MAX still has room for the suffix.
  std::string tmp;
  Fd f{create_unique_file(d.fd, "." + name.substr(0, 100) + ".", ".tmp", tmp)};
  if (f.fd < 0) fail("cannot write", shown, errno);
  auto give_up = [&](const std::string& what, int err) {
    ::unlinkat(d.fd, tmp.c_str(), 0);
    fail(what, shown, err);
  };
  mode_t mode = existing ? existing->st_mode & 07777 : 0666 & ~current_umask();
  if (::fchmod(f.fd, mode) != 0) give_up("cannot set the mode of", errno);
  // Keeping the owner and group is best effort, as for any editor (only root may give a file away).
  if (existing && (existing->st_uid != ::geteuid() || existing->st_gid != ::getegid()) &&
      ::fchown(f.fd, existing->st_uid, existing->st_gid) != 0)
    (void)!::fchown(f.fd, static_cast<uid_t>(-1), existing->st_gid);
  if (!write_parts(f.fd, parts) || ::fsync(f.fd) != 0) give_up("cannot write", errno);
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) give_up("cannot write", errno);
  // rename(2) replaces the name itself: whatever was put there meanwhile is not written through.
  if (::renameat(d.fd, tmp.c_str(), d.fd, name.c_str()) != 0) give_up("cannot replace", errno);
}

// The file a symbolic link at `path` leads to (its full path), or `path` itself.
std::string resolved(const std::string& path) {
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) fail("cannot resolve", path, errno);
  std::string out = real;
  std::free(real);
  return out;
}

}  // namespace

void write_output_file(const std::string& path, const std::vector<std::string_view>& parts) {
  if (path.empty()) throw OutputFileError("cannot write a file with an empty name");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail("cannot write", path, EISDIR);
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      if (write_in_place(path, parts)) return;
      if (::stat(path.c_str(), &st) != 0) fail("cannot write", path, errno);
    }
    if (!S_ISREG(st.st_mode))
      throw OutputFileError("cannot write " + printable_path(path) + ": it is " + file_kind_name(st.st_mode) +
                            " (only regular files, character devices and FIFOs are written)");
    return replace(path, resolved(path), &st, parts);
  }
  if (errno != ENOENT) fail("cannot write", path, errno);
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
    throw OutputFileError("cannot write " + printable_path(path) +
                          ": it is a symbolic link to a missing file");
  replace(path, path, nullptr, parts);
}

void write_output_file(const std::string& path, std::string_view bytes) {
  write_output_file(path, std::vector<std::string_view>{bytes});
}

void overwrite_file(const std::string& path, std::string_view bytes) {
  Fd f{::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) fail("cannot write", path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail("cannot write", path, errno);
  if (!S_ISREG(st.st_mode))
    throw OutputFileError("cannot write " + printable_path(path) + ": it is " + file_kind_name(st.st_mode) +
                          ", not a regular file");
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  if (!write_all(f.fd, bytes.data(), bytes.size()) ||
      ::ftruncate(f.fd, static_cast<off_t>(bytes.size())) != 0 || ::fsync(f.fd) != 0)
    fail("cannot write", path, errno);
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) fail("cannot write", path, errno);
}

}  // namespace attn
