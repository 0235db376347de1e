// Test helpers: file I/O, globbing, subprocesses, temporary directories, Markdown code blocks.
#include "tests/support/TestSupport.h"

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace attn::test {

namespace fs = std::filesystem;

fs::path source_dir() { return fs::path(ATTNC_SOURCE_DIR); }
std::string attnc_binary() { return ATTNC_BINARY; }

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const fs::path& p, const std::string& text) {
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::vector<fs::path> files_under(const fs::path& dir, const std::string& suffix) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return r;
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("attnc-test-" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::vector<CodeBlock> attn_code_blocks(const fs::path& markdown) {
  std::vector<CodeBlock> blocks;
  std::istringstream in(read_file(markdown));
  std::string line;
  int n = 0;
  bool inside = false;
  CodeBlock cur;
  while (std::getline(in, line)) {
    ++n;
    if (!inside && line.rfind("```attn", 0) == 0 && line.find_first_not_of(" \t", 7) == std::string::npos) {
      inside = true;
      cur = {n + 1, ""};
    } else if (inside && line.rfind("```", 0) == 0) {
      inside = false;
      blocks.push_back(cur);
    } else if (inside) {
      cur.code += line + "\n";
    }
  }
  return blocks;
}

}  // namespace attn::test
