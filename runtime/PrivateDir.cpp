// Folders that only the current user may write.
#include "runtime/PrivateDir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

namespace attn {
namespace {

std::string error_text(int e) { return std::generic_category().message(e); }

// mkdir -p with mode 0700 for every folder it creates; existing ones are left as they are.
int make_dirs(const std::string& path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) return errno;
    if (slash == std::string::npos) return 0;
  }
}

}  // namespace

int open_private_dir(const std::string& path, std::string& why) {
  if (path.empty()) {
    why = "empty cache directory name";
    return -1;
  }
  if (int e = make_dirs(path)) {
    why = "cannot create " + path + ": " + error_text(e);
    return -1;
  }
  // Checked on the opened folder, not the name: a later rename of the name changes nothing.
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    why = "cannot open " + path + ": " + error_text(errno);
    return -1;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    why = "cannot stat " + path + ": " + error_text(errno);
  } else if (st.st_uid != geteuid()) {
    why = path + " belongs to uid " + std::to_string(st.st_uid) + ", not to this user (uid " +
          std::to_string(geteuid()) + ")";
  } else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    why = path + " is writable by " + ((st.st_mode & S_IWOTH) ? "others" : "its group") + " (mode " + mode +
          "; chmod 700 it)";
  } else {
    return fd;
  }
  ::close(fd);
  return -1;
}

}  // namespace attn
