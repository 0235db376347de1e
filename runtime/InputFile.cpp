// open_regular_file and read_regular_file.
#include "runtime/InputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "runtime/PathText.h"

namespace attn {

std::string file_kind_name(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "a regular file";
}

int open_regular_file(const std::string& path, std::string& why) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    why = "cannot open: " + std::generic_category().message(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = file_kind_name(st.st_mode) + ", not a regular file";
    ::close(fd);
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

std::string read_regular_file(const std::string& path, uint64_t max_bytes, std::string& text) {
  std::string why;
  int fd = open_regular_file(path, why);
  if (fd < 0) {
    const std::string shown = "'" + printable_path(path) + "'";
    return why.rfind("cannot open: ", 0) == 0 ? "cannot open " + shown + ": " + why.substr(13)
                                              : shown + " is " + why;
  }
  text.clear();
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      why = "cannot read '" + printable_path(path) + "': " + std::generic_category().message(errno);
      break;
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes) {
      why = "'" + printable_path(path) + "' is larger than " + std::to_string(max_bytes >> 20) + " MiB";
      break;
    }
  }
  ::close(fd);
  if (!why.empty()) text.clear();
  return why;
}

}  // namespace attn
