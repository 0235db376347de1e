// Private temporary files and folders for compiles and for loading cached shared objects.
#pragma once

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

/// Writes `size` bytes to `path` (created 0600, truncated); returns false with errno set.
bool write_file(const std::string& path, const void* data, size_t size);

}  // namespace attn
