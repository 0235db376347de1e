// Compiles generated kernel source with the host C++ compiler and loads it (a private stand-in for
// attn::Loader: an in-process cache keyed by the source text, no disk cache).
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>

#include "backends/cpu/CpuBackend.h"

namespace attn {

namespace {

class LoadedKernel : public CpuKernel {
 public:
  LoadedKernel(void* handle, attn_kernel_fn fn) : handle_(handle), fn_(fn) {}
  ~LoadedKernel() override { dlclose(handle_); }
  int run(const attn_kernel_args& args) const override { return fn_(&args); }
  attn_kernel_fn function() const override { return fn_; }

 private:
  void* handle_;
  attn_kernel_fn fn_;
};

bool on_path(const std::string& program) {
  const char* path = getenv("PATH");
  if (!path) return false;
  std::string p = path;
  for (size_t start = 0; start <= p.size();) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string candidate = p.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

/// clang++ keeps Halide's accumulators in registers at -O3; g++ needs -O2 -fno-tree-sra.
std::string host_compiler(bool& is_gcc) {
  if (const char* cxx = getenv("ATTNC_CXX"); cxx && *cxx) {
    is_gcc = std::string(cxx).find("clang") == std::string::npos;
    return cxx;
  }
  is_gcc = !on_path("clang++");
  return is_gcc ? "g++" : "clang++";
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace

std::shared_ptr<CpuKernel> compile_cpu_kernel(const CpuKernelSource& src, const std::string& work_dir) {
  static std::mutex mutex;
  static std::map<size_t, std::weak_ptr<CpuKernel>> cache;
  const size_t key = std::hash<std::string>()(src.header + '\0' + src.source + '\0' + src.entry);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(key); it != cache.end())
    if (auto k = it->second.lock()) return k;

  std::string dir = work_dir;
  if (dir.empty()) {
    const char* tmp = getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/attnc-cpu-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
    dir = pattern;
  } else {
    mkdir(dir.c_str(), 0755);
  }
  std::string stem = dir + "/" + src.entry + "_" + std::to_string(key % 1000000007);
  std::string header_path = dir + "/" + src.header_name, cpp = stem + ".cpp", so = stem + ".so";
  write_file(header_path, src.header);
  write_file(cpp, src.source);

  bool is_gcc = false;
  std::string cmd = host_compiler(is_gcc) + " -std=c++17 -shared -fPIC -fvisibility=hidden";
  for (const std::string& f : src.compile_flags) {
    if (is_gcc && f == "-O3")
      cmd += " -O2 -fno-tree-sra";
    else
      cmd += " " + f;
  }
  cmd += " -I" + quote(dir) + " " + quote(cpp) + " -o " + quote(so) + " -lpthread > " + quote(stem + ".log") + " 2>&1";
  if (std::system(cmd.c_str()) != 0)
    throw std::runtime_error("compiling the CPU kernel failed: " + cmd + "\n" + read_file(stem + ".log"));

  void* handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("dlopen failed: ") + dlerror());
  auto fn = reinterpret_cast<attn_kernel_fn>(dlsym(handle, src.entry.c_str()));
  if (!fn) {
    dlclose(handle);
    throw std::runtime_error("the compiled kernel does not export " + src.entry);
  }
  auto kernel = std::make_shared<LoadedKernel>(handle, fn);
  cache[key] = kernel;
  return kernel;
}

}  // namespace attn
