// Writing one generated file, with every failure reported.
#pragma once

#include <filesystem>
#include <string>

namespace attn::cli {

/// Writes `bytes` to `path` (replacing it). Throws std::runtime_error naming the path and the
/// system's reason when it cannot be created, written or closed (a name too long, a directory in
/// the way, a read-only folder, a full disk).
void write_output_file(const std::filesystem::path& path, const std::string& bytes);

/// Replaces the contents of the existing file `path` atomically (a temporary file in the same
/// folder, renamed over it). A symbolic link is followed: the file it names is replaced and the
/// link stays. The file keeps its permission bits. Throws std::runtime_error on any failure, and
/// then leaves the file as it was.
void replace_file_contents(const std::filesystem::path& path, const std::string& bytes);

}  // namespace attn::cli
