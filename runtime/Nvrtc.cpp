// NVRTC through dlopen: the few entry points attnc uses, resolved once per process.
#include "runtime/Nvrtc.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <mutex>

#ifndef ATTNC_CUDA_INCLUDE_DIR
#define ATTNC_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif
#ifndef ATTNC_CUDA_LIBRARY_DIR
#define ATTNC_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace attn {

namespace {

using Program = void*;
using Result = int;  // nvrtcResult; 0 is NVRTC_SUCCESS

struct NvrtcApi {
  void* handle = nullptr;
  std::string error;  // why loading failed
  Result (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  Result (*compile)(Program, int, const char* const*) = nullptr;
  Result (*log_size)(Program, size_t*) = nullptr;
  Result (*log)(Program, char*) = nullptr;
  Result (*cubin_size)(Program, size_t*) = nullptr;
  Result (*cubin)(Program, char*) = nullptr;
  Result (*destroy)(Program*) = nullptr;
  const char* (*error_string)(Result) = nullptr;
  Result (*version)(int*, int*) = nullptr;
};

template <class F>
bool resolve(void* handle, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  return fn != nullptr;
}

const NvrtcApi& api() {
  static NvrtcApi a;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("ATTNC_NVRTC")) candidates.push_back(env);
    for (const char* n : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) candidates.push_back(n);
    candidates.push_back(std::string(ATTNC_CUDA_LIBRARY_DIR) + "/libnvrtc.so");
    for (const std::string& c : candidates)
      if ((a.handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!a.handle) {
      a.error = "NVRTC not found (libnvrtc.so; set ATTNC_NVRTC to its path)";
      return;
    }
    bool ok = resolve(a.handle, "nvrtcCreateProgram", a.create) &&
              resolve(a.handle, "nvrtcCompileProgram", a.compile) &&
              resolve(a.handle, "nvrtcGetProgramLogSize", a.log_size) &&
              resolve(a.handle, "nvrtcGetProgramLog", a.log) &&
              resolve(a.handle, "nvrtcGetCUBINSize", a.cubin_size) &&
              resolve(a.handle, "nvrtcGetCUBIN", a.cubin) &&
              resolve(a.handle, "nvrtcDestroyProgram", a.destroy) &&
              resolve(a.handle, "nvrtcGetErrorString", a.error_string) &&
              resolve(a.handle, "nvrtcVersion", a.version);
    if (!ok) {
      a.error =
          "the NVRTC library found lacks entry points attnc needs (cubin output needs CUDA 11.1 or newer)";
      a.handle = nullptr;
    }
  });
  return a;
}

const NvrtcApi& require_api() {
  const NvrtcApi& a = api();
  if (!a.handle) throw CudaCompileError(a.error);
  return a;
}

}  // namespace

bool nvrtc_available() { return api().handle != nullptr; }

std::string nvrtc_version() {
  const NvrtcApi& a = require_api();
  int major = 0, minor = 0;
  a.version(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string nvrtc_include_dir(const NvrtcOptions& options) {
  if (!options.include_dir.empty()) return options.include_dir;
  if (const char* env = std::getenv("ATTNC_CUDA_INCLUDE")) return env;
  if (const char* home = std::getenv("CUDA_HOME")) return std::string(home) + "/include";
  return ATTNC_CUDA_INCLUDE_DIR;
}

NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const NvrtcOptions& options) {
  const NvrtcApi& a = require_api();
  const auto start = std::chrono::steady_clock::now();
  Program prog = nullptr;
  if (Result r = a.create(&prog, source.c_str(), name.c_str(), 0, nullptr, nullptr))
    throw CudaCompileError(std::string("nvrtcCreateProgram: ") + a.error_string(r));
  std::vector<std::string> opts = {"-arch=" + options.arch, "-I" + nvrtc_include_dir(options), "--std=c++17",
                                   "--ptxas-options=-v", "-default-device"};
  opts.insert(opts.end(), options.extra.begin(), options.extra.end());
  std::vector<const char*> argv;
  for (const std::string& o : opts) argv.push_back(o.c_str());
  const Result status = a.compile(prog, static_cast<int>(argv.size()), argv.data());
  NvrtcResult out;
  size_t n = 0;
  a.log_size(prog, &n);
  out.log.resize(n);
  if (n) a.log(prog, out.log.data());
  while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  if (status != 0) {
    a.destroy(&prog);
    throw CudaCompileError("NVRTC failed to compile " + name + " for " + options.arch + " (" +
                           a.error_string(status) + "):\n" + out.log);
  }
  a.cubin_size(prog, &n);
  out.cubin.resize(n);
  if (n) a.cubin(prog, reinterpret_cast<char*>(out.cubin.data()));
  a.destroy(&prog);
  out.report = parse_ptxas_report(out.log);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace attn
