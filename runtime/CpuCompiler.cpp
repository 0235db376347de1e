// The cpu target: the host C++ compiler turns generated source into a shared object, dlopen'ed.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

#include "attn/compiler.hpp"
#include "runtime/HostIdentity.h"
#include "runtime/Sha256.h"
#include "runtime/SharedObject.h"
#include "runtime/Subprocess.h"
#include "runtime/TempDir.h"

namespace attn {
namespace {

const char* const kBaseFlags[] = {"-O2", "-std=c++17", "-shared", "-fPIC", "-march=native"};

// The flags for one compiler. -fno-tree-sra: GCC's scalar replacement spills the vector
// accumulators of generated kernels (docs/cpu.md); clang has no such option and rejects it.
// Part of every key through fingerprint().
std::vector<std::string> base_flags(const std::string& identity) {
  std::vector<std::string> flags(std::begin(kBaseFlags), std::end(kBaseFlags));
  if (identity.find("clang") == std::string::npos) flags.push_back("-fno-tree-sra");
  return flags;
}

// Compiler diagnostics can be huge (template errors); keep the head, which has the first error.
constexpr size_t kMaxDiagnostics = size_t{16} * 1024;

class CpuModule : public KernelModule {
 public:
  CpuModule(std::shared_ptr<SharedObject> so, attn_kernel_fn fn) : so_(std::move(so)), fn_(fn) {}
  int invoke(const attn_kernel_args* args) const override { return fn_(args); }
  attn_kernel_fn entry() const override { return fn_; }

 private:
  std::shared_ptr<SharedObject> so_;
  attn_kernel_fn fn_;
};

// How many translation units `source` asks to be compiled as (kCpuSourcePartsLine), 1 for none.
int source_parts(const std::string& source) {
  const std::string line = std::string("\n") + kCpuSourcePartsLine;
  const size_t at = source.substr(0, 4096).find(line);
  if (at == std::string::npos) return 1;
  const size_t digit = at + line.size();
  const char count = digit < source.size() ? source[digit] : '\0';
  const char next = digit + 1 < source.size() ? source[digit + 1] : '\0';
  return count >= '2' && count <= '8' && !isdigit((unsigned char)next) ? count - '0' : 1;
}

// Whether the parts of a source are compiled side by side: ATTNC_COMPILE_PARTS=0 never, =1 always;
// by default when a second compiler finds a CPU of its own, the tasks runnable now
// (/proc/loadavg's fourth field, this thread one of them) fewer than the CPUs online. On a busy
// machine (ctest -j, several loaders at once) the parts cost a fifth more CPU time than the whole
// file and save no time.
bool compile_parts_side_by_side() {
  if (const char* forced = std::getenv("ATTNC_COMPILE_PARTS"); forced && *forced)
    return std::strcmp(forced, "0") != 0;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 2) return false;
  FILE* f = std::fopen("/proc/loadavg", "re");
  if (!f) return true;
  double one = 0, five = 0, fifteen = 0;
  int runnable = 0, tasks = 0;
  const int read = std::fscanf(f, "%lf %lf %lf %d/%d", &one, &five, &fifteen, &runnable, &tasks);
  std::fclose(f);
  return read != 5 || runnable < cpus;
}

// One run of the compiler: how it ended, or why it could not start.
struct CompilerRun {
  ProcessResult result;
  std::string failed_to_start;
};

// Runs a compiler command; its own temporaries go to the build folder `dir` too, so that a killed
// compile leaves nothing outside it.
CompilerRun run_compiler(const std::vector<std::string>& argv, const std::string& dir) {
  CompilerRun run;
  try {
    run.result = run_process(argv, {"TMPDIR=" + dir});
  } catch (const std::system_error& e) {
    run.failed_to_start = e.what();
  }
  return run;
}

// The error of a compiler that could not be started (or asked for its identity).
LoadError cannot_run(const std::string& compiler, const std::string& why) {
  return LoadError(LoadErrorKind::CompileFailed,
                   "cannot run the C++ compiler '" + compiler + "' (set ATTNC_CXX): " + why);
}

// Throws the LoadError of a failed compiler run, with the head of its diagnostics.
void check(const KernelRequest& request, const std::vector<std::string>& argv, const CompilerRun& run) {
  if (!run.failed_to_start.empty()) throw cannot_run(argv[0], run.failed_to_start);
  const ProcessResult& r = run.result;
  if (r.exit_status == 0) return;
  std::string diag = r.output.size() > kMaxDiagnostics
                         ? r.output.substr(0, kMaxDiagnostics) + "\n[... output truncated]"
                         : r.output;
  throw LoadError(LoadErrorKind::CompileFailed, "compiling kernel '" + request.entry +
                                                    "' for cpu failed: " + argv[0] + " exited with status " +
                                                    std::to_string(r.exit_status) + ":\n" + diag);
}

// Compiles `src` as `parts` translation units (-c -DATTN_PART=i), each on a thread of its own (the
// last on this one), with the compiler command `argv` (its flags included), then links the objects
// into `out`; the build folder `dir` holds the objects.
void compile_in_parts(const KernelRequest& request, const std::vector<std::string>& argv,
                      const std::string& src, int parts, const std::string& out, const std::string& dir) {
  std::vector<std::string> compile_only = argv;  // -shared is the link's (clang warns of it with -c)
  compile_only.erase(std::remove(compile_only.begin(), compile_only.end(), "-shared"), compile_only.end());
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> link = argv;
  link.insert(link.end(), {"-o", out});
  for (int i = 1; i <= parts; ++i) {
    const std::string object = dir + "/part" + std::to_string(i) + ".o";
    commands.push_back(compile_only);
    commands.back().insert(commands.back().end(),
                           {"-c", "-DATTN_PART=" + std::to_string(i), "-o", object, src});
    link.push_back(object);
  }
  std::vector<CompilerRun> runs(commands.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i + 1 < commands.size(); ++i) {
    try {
      threads.emplace_back([&, i] { runs[i] = run_compiler(commands[i], dir); });
    } catch (const std::system_error&) {  // no thread to be had: this part in turn
      runs[i] = run_compiler(commands[i], dir);
    }
  }
  runs.back() = run_compiler(commands.back(), dir);
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < runs.size(); ++i) check(request, commands[i], runs[i]);
  check(request, link, run_compiler(link, dir));
}

// Build folders and loaded objects of processes killed mid-compile (kill -9) older than this are
// removed when a cpu compiler is created; younger ones may belong to a live process elsewhere
// (another PID namespace sharing $TMPDIR).
constexpr int kOrphanMinAgeSeconds = 60;

class CpuCompiler : public Compiler {
 public:
  CpuCompiler() {
    remove_orphaned_temporaries("attnc-build-", kOrphanMinAgeSeconds);
    remove_orphaned_temporaries("attnc-so-", kOrphanMinAgeSeconds);
  }
  std::string target() const override { return "cpu"; }

  std::string fingerprint(const KernelRequest& /*request*/) const override {
    // Hashed once per compiler command: this runs on every lookup, in-process hits included.
    std::vector<std::string> cxx = host_compiler_command();
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = fingerprints_.find(cxx);
    if (it != fingerprints_.end()) return it->second;
    std::string s = "cxx:";
    for (const std::string& w : cxx) s += w + " ";
    try {
      s += "\nidentity:" + compiler_identity(cxx);
    } catch (const std::system_error& e) {
      throw cannot_run(cxx[0], e.what());
    }
    s += "\nflags:";
    for (const std::string& f : base_flags(compiler_identity(cxx))) s += f + " ";
    s += "\ncpu:" + host_cpu_description();
    std::string digest = to_hex(sha256(s.data(), s.size()));
    fingerprints_.emplace(std::move(cxx), digest);
    return digest;
  }

  std::vector<uint8_t> compile(const KernelRequest& request) const override {
    // The pid in the name lets a later process tell a dead compile's folder from a live one.
    TempDir dir("attnc-build-" + std::to_string(getpid()) + "-");
    std::string src = dir.path() + "/kernel.cpp", out = dir.path() + "/kernel.so";
    if (!write_file(src, request.source.data(), request.source.size()))
      throw LoadError(LoadErrorKind::CompileFailed,
                      "cannot write " + src + ": " + std::generic_category().message(errno));
    std::vector<std::string> argv = host_compiler_command();
    std::vector<std::string> flags;
    try {
      flags = base_flags(compiler_identity(argv));
    } catch (const std::system_error& e) {
      throw cannot_run(argv[0], e.what());
    }
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), request.flags.begin(), request.flags.end());
    // The load is read only for a source that names parts.
    const int named = source_parts(request.source);
    const int parts = named > 1 && compile_parts_side_by_side() ? named : 1;
    if (parts == 1) {
      argv.insert(argv.end(), {"-o", out, src});
      check(request, argv, run_compiler(argv, dir.path()));
    } else {
      compile_in_parts(request, argv, src, parts, out, dir.path());
    }
    std::ifstream in(out, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty())
      throw LoadError(LoadErrorKind::CompileFailed, "the C++ compiler produced no output at " + out);
    return bytes;
  }

  std::shared_ptr<const KernelModule> load(const std::vector<uint8_t>& artifact,
                                           const KernelRequest& request) const override {
    std::shared_ptr<SharedObject> so;
    try {
      so = SharedObject::load(artifact);
    } catch (const std::exception& e) {
      throw LoadError(LoadErrorKind::LoadFailed, "cannot load kernel '" + request.entry + "': " + e.what());
    }
    auto fn = reinterpret_cast<attn_kernel_fn>(so->symbol(request.entry));
    if (!fn)
      throw LoadError(LoadErrorKind::MissingEntry, "the compiled source exports no symbol '" + request.entry +
                                                       "' (declare it extern \"C\")");
    return std::make_shared<CpuModule>(std::move(so), fn);
  }

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::vector<std::string>, std::string> fingerprints_;
};

}  // namespace

std::unique_ptr<Compiler> make_cpu_compiler() { return std::make_unique<CpuCompiler>(); }

}  // namespace attn
