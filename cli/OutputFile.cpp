// Writing one generated file, with every failure reported.
#include "cli/OutputFile.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace attn::cli {

void write_output_file(const std::filesystem::path& path, const std::string& bytes) {
  auto fail = [&](int err) {
    throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(err));
  };
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) fail(errno);
  if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0) {
    int err = errno;
    std::fclose(f);
    fail(err);
  }
  if (std::fclose(f) != 0) fail(errno);
}

void replace_file_contents(const std::filesystem::path& path, const std::string& bytes) {
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::canonical(path, ec);
  if (ec) throw std::runtime_error("cannot resolve " + path.string() + ": " + ec.message());
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0)
    throw std::runtime_error("cannot read " + target.string() + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw std::runtime_error(target.string() + " is not a regular file");
  std::string tmp = (target.parent_path() / ("." + target.filename().string() + ".attnc-XXXXXX")).string();
  int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    throw std::runtime_error("cannot write next to " + target.string() + ": " + std::strerror(errno));
  auto fail = [&](const std::string& what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw std::runtime_error(what + " " + target.string() + ": " + std::strerror(err));
  };
  if (::fchmod(fd, st.st_mode & 07777) != 0) fail("cannot set the mode of", errno);
  // Keeping the group (and, for root, the owner) is best effort, as for any editor.
  if (::fchown(fd, st.st_uid, st.st_gid) != 0) (void)!::fchown(fd, static_cast<uid_t>(-1), st.st_gid);
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write", errno);
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) fail("cannot write", errno);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + target.string() + ": " + std::strerror(err));
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot replace " + target.string() + ": " + std::strerror(err));
  }
}

}  // namespace attn::cli
