// Private temporary files and folders for compiles and for loading cached shared objects.
#pragma once

#include <cstddef>
#include <string>

namespace attn {

/// $TMPDIR, or /tmp.
std::string temp_root();

/// A fresh private folder (mkdtemp) removed with its contents on destruction.
class TempDir {
 public:
  /// Creates `<temp_root()>/<prefix>XXXXXX`; throws std::system_error.
  explicit TempDir(const std::string& prefix);
  /// Removes the folder and everything in it.
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// The folder's path.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Writes `size` bytes to `path` (created 0600, truncated, never through a symbolic link); returns
/// false with errno set. Only for paths inside a folder of the current user's: the name is reused.
bool write_file(const std::string& path, const void* data, size_t size);

/// Writes all `size` bytes to the open file `fd`; returns false with errno set.
bool write_all(int fd, const void* data, size_t size);

/// Creates a new file `<prefix><12 random hex digits><suffix>` in the folder open as `dirfd`
/// (AT_FDCWD: the current directory) with O_EXCL|O_NOFOLLOW, mode 0600, close-on-exec; returns its
/// descriptor open for writing and its name in `name`, or -1 with errno set.
int create_unique_file(int dirfd, const std::string& prefix, const std::string& suffix, std::string& name);

/// Removes what killed processes left under temp_root(): entries named `<prefix><pid>-...` owned
/// by the current user whose process `pid` no longer exists and that were last modified at least
/// `min_age_s` seconds ago. Returns how many went.
int remove_orphaned_temporaries(const std::string& prefix, int min_age_s);

}  // namespace attn
