// Host CPU and compiler identity for cpu cache keys.
#include "runtime/HostIdentity.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <system_error>

namespace attn {
namespace {

std::string read_cpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model, flags;
  while (std::getline(in, line) && (model.empty() || flags.empty())) {
    auto value = [&] {
      auto c = line.find(':');
      return c == std::string::npos ? std::string() : line.substr(c + 1);
    };
    if (model.empty() && line.rfind("model name", 0) == 0) model = value();
    // x86 says "flags", arm64 says "Features".
    if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) flags = value();
  }
  if (flags.empty()) return {};
  return "model:" + model + ";flags:" + flags;
}

std::string builtin_cpu_features() {
  std::string s = "builtin:";
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
#define ATTN_FEATURE(name) \
  if (__builtin_cpu_supports(name)) s += name " "
  ATTN_FEATURE("sse4.2");
  ATTN_FEATURE("avx");
  ATTN_FEATURE("avx2");
  ATTN_FEATURE("fma");
  ATTN_FEATURE("avx512f");
  ATTN_FEATURE("avx512bw");
  ATTN_FEATURE("avx512vl");
  ATTN_FEATURE("avx512dq");
  ATTN_FEATURE("avx512vnni");
  ATTN_FEATURE("avx512bf16");
#if !defined(__clang__) || __clang_major__ >= 15  // clang 14 does not know the name (fuzz preset)
  ATTN_FEATURE("avx512fp16");
#endif
#undef ATTN_FEATURE
#else
  s += "unknown";
#endif
  return s;
}

}  // namespace

const std::string& host_cpu_description() {
  static const std::string description = [] {
    std::string s = read_cpuinfo();
    return s.empty() ? builtin_cpu_features() : s;
  }();
  return description;
}

namespace {

/// The executable `program` runs: itself when it names a path, else the first match on PATH;
/// empty when there is none.
std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
  const char* path = std::getenv("PATH");
  for (const char* p = path ? path : ""; *p;) {
    const char* start = p;
    while (*p && *p != ':') ++p;
    std::string dir(start, p);
    if (*p == ':') ++p;
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return dir + "/" + program;
  }
  return "";
}

bool on_path(const std::string& program) { return !find_program(program).empty(); }

}  // namespace

std::vector<std::string> host_compiler_command() {
  std::vector<std::string> argv;
  if (const char* env = std::getenv("ATTNC_CXX")) {
    for (const char* p = env; *p;) {
      while (*p == ' ' || *p == '\t') ++p;
      const char* start = p;
      while (*p && *p != ' ' && *p != '\t') ++p;
      if (p > start) argv.emplace_back(start, p);
    }
  }
  if (argv.empty()) {
    static const bool clang = on_path("clang++");
    argv.push_back(clang ? "clang++" : "c++");
  }
  return argv;
}

std::string compiler_identity(const std::vector<std::string>& compiler) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::string> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(compiler);
  if (it != known.end()) return it->second;
  // Each word that names an executable, by its real path, size and modification time: replacing
  // or upgrading the compiler changes it, and no process is started (`clang++ --version` alone
  // took 20 ms, most of a warm model start).
  std::string id;
  for (size_t i = 0; i < compiler.size(); ++i) {
    const std::string& word = compiler[i];
    std::string found = word.empty() || word[0] == '-' ? "" : find_program(word);
    if (found.empty()) {
      if (i == 0) throw std::system_error(ENOENT, std::generic_category(), "no such program: " + word);
      id += word + "\n";
      continue;
    }
    char* real = ::realpath(found.c_str(), nullptr);
    std::string resolved = real ? real : found;
    std::free(real);
    struct stat st {};
    ::stat(resolved.c_str(), &st);
    id += word + " = " + resolved + " size " + std::to_string(st.st_size) + " mtime " +
          std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "\n";
  }
  known.emplace(compiler, id);
  return id;
}

}  // namespace attn
