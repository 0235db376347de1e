// Writing the files attnc produces: never through a planted name, never over a device.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

/// A file that could not be written; the message names the path and the system's reason.
struct OutputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Writes the concatenation of `parts` to `path`, the one way every attnc output is written
/// (docs/guide.md, "What attnc writes and how"):
/// - a symbolic link is followed: the file it names is written and the link stays (a link to
///   nothing is refused);
/// - an existing character device or FIFO is written in place, opened without O_CREAT or O_TRUNC
///   (`-o /dev/null` stays a device; a FIFO that no process reads is refused, not waited on);
/// - an existing directory, socket or block device is refused;
/// - anything else goes to a new file with an exclusive random name (`.<name>.<hex>.tmp`, opened
///   O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC) in the destination's folder, flushed to disk and renamed
///   over the destination: no name another user planted is ever opened, and readers see the old
///   file or the new one, never a mix. A file that existed keeps its permission bits (and, for
///   root, its owner); a new one gets 0666 less the umask.
/// Throws OutputFileError, and then leaves the destination as it was.
void write_output_file(const std::string& path, const std::vector<std::string_view>& parts);

/// write_output_file of one piece.
void write_output_file(const std::string& path, std::string_view bytes);

/// Rewrites the existing regular file `path` (a symbolic link is followed) in place: the bytes are
/// written over the old ones and the file is cut to their length, so hard links, owner and mode
/// stay. For `fmt -i`, once the new text is complete. Throws OutputFileError.
void overwrite_file(const std::string& path, std::string_view bytes);

}  // namespace attn
