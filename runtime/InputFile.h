// Opening the files attnc reads: regular files only, never a wait on a FIFO or a device.
#pragma once

#include <cstdint>
#include <string>

namespace attn {

/// Opens `path` for reading (a symbolic link is followed) without blocking, and checks that what
/// it opened is a regular file. Returns the descriptor (close-on-exec, blocking again), or -1 with
/// `why` set to the reason, for a message that names the path: "cannot open: No such file or
/// directory", "a FIFO, not a regular file".
int open_regular_file(const std::string& path, std::string& why);

/// Reads all of the regular file `path` into `text`. Returns "" on success, else a sentence that
/// names the file: "cannot open 'x': No such file or directory", "'x' is a FIFO, not a regular
/// file", "'x' is larger than 64 MiB".
std::string read_regular_file(const std::string& path, uint64_t max_bytes, std::string& text);

/// What a stat mode is, for messages: "a directory", "a FIFO", "a character device", ...
std::string file_kind_name(unsigned mode);

}  // namespace attn
