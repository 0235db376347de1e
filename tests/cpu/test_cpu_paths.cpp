// One generated CPU source, every vector path: the source of a bf16 kernel with a buffer mask and an
// erf score, built without vector flags (-march=x86-64), for x86-64-v3 and for this machine, by g++
// (and clang++ once), each path this CPU runs forced in turn (ATTNC_CPU_ISA) against the reference;
// the entry never runs a path the CPU lacks or one wider than the forced one.
#define BOOST_TEST_MODULE cpu_paths
#include <dlfcn.h>
#include <stdlib.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <random>

#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kProgram = R"attn(
kernel paths_bf16(doc: tensor<i32>[len]) {
  mask = kv <= q && doc[q] == doc[kv];
  score = erf(score * 0.25) * 4.0;
  dtype = bf16;
  lse = true;
}
)attn";

/// An entry point of a shared object this test loaded.
class LoadedEntry : public CpuKernel {
 public:
  explicit LoadedEntry(attn_kernel_fn fn) : fn_(fn) {}
  int run(const attn_kernel_args& args) const override { return fn_(&args); }
  attn_kernel_fn function() const override { return fn_; }

 private:
  attn_kernel_fn fn_;
};

/// Whether this CPU runs a path, as the generated dispatcher decides it (PathDispatch.h).
/// Whether this CPU runs path `isa`: no wider than the best path it has (host_cpu_target, asked
/// before any test sets ATTNC_CPU_ISA).
bool cpu_runs(const std::string& isa) {
  static const CpuIsa host = host_cpu_target().isa;
  for (const CpuTarget& t : all_cpu_paths())
    if (isa == cpu_isa_name(t.isa)) return int(t.isa) >= int(host);
  return false;
}

/// Builds `src` into a shared object in `dir` with `cxx` and `flags`; fails the test on a warning.
std::filesystem::path build(const CpuKernelSource& src, const TempDir& dir, const std::string& cxx,
                            const std::string& flags) {
  write_file(dir.path() / src.header_name, src.header);
  write_file(dir.path() / "k.cpp", src.source);
  std::filesystem::path so = dir.path() / "k.so";
  CommandResult r = run_command(cxx + " -std=c++17 -O1 -ffp-contract=fast -fno-math-errno -pthread " + flags +
                                " -Wall -Wextra -Werror -shared -fPIC -I" + dir.path().string() + " " +
                                (dir.path() / "k.cpp").string() + " -o " + so.string());
  BOOST_REQUIRE_MESSAGE(r.status == 0, cxx << " " << flags << ":\n" << r.output.substr(0, 4000));
  return so;
}

/// A fresh load of `so` (a copy under its own name: its own choice of path) with ATTNC_CPU_ISA set
/// to `forced`: the entry and the path it runs.
struct Loaded {
  void* handle = nullptr;
  attn_kernel_fn entry = nullptr;
  std::string path;
  ~Loaded() {
    if (handle) dlclose(handle);
  }
};

void load(const std::filesystem::path& so, const std::string& entry, const std::string& forced, Loaded& out) {
  std::filesystem::path copy = so.parent_path() / ("k_" + forced + ".so");
  std::filesystem::copy_file(so, copy, std::filesystem::copy_options::overwrite_existing);
  setenv("ATTNC_CPU_ISA", forced.c_str(), 1);
  out.handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  BOOST_REQUIRE_MESSAGE(out.handle, dlerror());
  out.entry = reinterpret_cast<attn_kernel_fn>(dlsym(out.handle, entry.c_str()));
  auto path_fn = reinterpret_cast<const char* (*)()>(dlsym(out.handle, (entry + "_path").c_str()));
  BOOST_REQUIRE(out.entry && path_fn);
  out.path = path_fn();
  unsetenv("ATTNC_CPU_ISA");
}

KernelInputs inputs(std::mt19937& rng) {
  const int64_t B = 1, Hq = 2, Hkv = 1, L = 150, D = 40;
  KernelInputs in;
  in.q = random_tensor(ScalarType::BF16, {B, Hq, L, D}, rng);
  in.k = random_tensor(ScalarType::BF16, {B, Hkv, L, D}, rng);
  in.v = random_tensor(ScalarType::BF16, {B, Hkv, L, D}, rng);
  HostTensor doc(ScalarType::I32, {L});
  for (int64_t i = 0; i < L; ++i) doc.set(i, int(i / 37));
  in.buffers["doc"] = doc;
  return in;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_build_runs_every_path_the_cpu_runs) {
  auto ir = lower_text(kProgram, "paths_bf16");
  CpuKernelSource src = generate_cpu_kernel(*ir, all_cpu_paths());
  std::mt19937 rng(5);
  KernelInputs in = inputs(rng);
  KernelOutputs want = run_reference(*ir, in, 2);
  CpuKeyRanges ranges = cpu_key_ranges(*ir, in);
  const CpuKeyRanges* const plans[] = {nullptr, &ranges};  // a direct call without a plan, and with one
  const std::vector<std::string> paths = {"amx", "avx512bf16", "avx512", "avx2", "portable"};
  cpu_runs("portable");  // the host's best path, before ATTNC_CPU_ISA is set
  struct Build {
    std::string cxx, flags;
  };
  for (const Build& b : {Build{"g++", "-march=x86-64"}, Build{"g++", "-march=x86-64-v3"},
                         Build{"g++", "-march=native"}, Build{"clang++", "-march=x86-64"}}) {
    if (run_command("command -v " + b.cxx).status != 0) continue;
    TempDir dir;
    std::filesystem::path so = build(src, dir, b.cxx, b.flags);
    for (size_t f = 0; f < paths.size(); ++f) {
      // The widest path the CPU runs that is no wider than the forced one.
      std::string expected = "portable";
      for (size_t p = f; p < paths.size(); ++p)
        if (cpu_runs(paths[p])) {
          expected = paths[p];
          break;
        }
      Loaded k;
      load(so, src.entry, paths[f], k);
      BOOST_TEST(k.path == expected, b.cxx << " " << b.flags << ", ATTNC_CPU_ISA=" << paths[f]);
      CpuCompiled c{ir, src, std::make_shared<LoadedEntry>(k.entry)};
      for (const CpuKeyRanges* plan : plans) {
        CpuRun got = run_cpu(c, in, true, false, 2, plan);
        BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
        BOOST_TEST(max_abs_diff(got.outputs.out, want.out) <= 6e-2,
                   b.cxx << " " << b.flags << ", " << k.path);
        BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) <= 1e-2,
                   b.cxx << " " << b.flags << ", " << k.path);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(no_path_wider_than_forced_nor_unknown) {
  // A source with the avx2 path only: forcing portable leaves no path (the avx2 one is wider), and
  // the call fails with a message rather than running it; so does a name that is no path.
  auto ir = lower_text(kProgram, "paths_bf16");
  CpuKernelSource src = generate_cpu_kernel(*ir, parse_cpu_paths("avx2"));
  TempDir dir;
  std::filesystem::path so = build(src, dir, "g++", "-march=x86-64");
  std::mt19937 rng(6);
  KernelInputs in = inputs(rng);
  for (const std::string forced : {"portable", "sse9"}) {
    Loaded k;
    load(so, src.entry, forced, k);
    BOOST_TEST(k.path == "none");
    CpuRun got = run_cpu(CpuCompiled{ir, src, std::make_shared<LoadedEntry>(k.entry)}, in, true);
    BOOST_TEST(got.status != 0);
    BOOST_TEST(got.error.find("paths_bf16: ") == 0, got.error);
    BOOST_TEST(got.error.find(forced == "sse9" ? "ATTNC_CPU_ISA names no vector path"
                                               : "runs none of the vector paths") != std::string::npos,
               got.error);
  }
  Loaded k;
  load(so, src.entry, "avx512", k);  // the source's widest path, if the CPU runs it
  BOOST_TEST(k.path == (cpu_runs("avx2") ? "avx2" : "none"));
}
