// Helpers shared by the test binaries: files, globbing, running the attnc binary.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace attn::test {

/// The repository root (tests run from there; ATTNC_SOURCE_DIR is baked in too).
std::filesystem::path source_dir();
/// The attnc binary under test.
std::string attnc_binary();

std::string read_file(const std::filesystem::path& p);
void write_file(const std::filesystem::path& p, const std::string& text);

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
std::vector<std::filesystem::path> files_under(const std::filesystem::path& dir, const std::string& suffix);

/// The output and exit status of a command run through the shell (stderr merged into stdout).
struct CommandResult {
  int status = -1;
  std::string output;
};
CommandResult run_command(const std::string& command);

/// A fresh temporary directory, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// ```attn fenced blocks of a Markdown file (complete programs), with their line numbers.
struct CodeBlock {
  int line;
  std::string code;
};
std::vector<CodeBlock> attn_code_blocks(const std::filesystem::path& markdown);

}  // namespace attn::test
