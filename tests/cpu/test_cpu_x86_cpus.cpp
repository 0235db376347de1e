// Generated CPU sources on x86-64 CPUs that are not this one: `attnc compile -t cpu` output built
// with plain `g++ -O2` (no -m flags: the AVX-512 and AVX2 paths are compiled in by their own target
// attributes) and run under qemu-user's emulation of CPUs without AVX-512, where any AVX-512
// instruction is an illegal instruction (qemu implements none). Each kernel must take the widest
// path the emulated CPU runs, and agree with the reference there (CrossCheck.h):
//   EPYC-Milan (AMD Zen 3: AVX2, FMA, F16C)   -> avx2
//   SandyBridge (AVX, no AVX2, FMA or F16C)  -> portable
//   Nehalem (SSE4.2)                          -> portable
#define BOOST_TEST_MODULE cpu_x86_cpus
#include <boost/test/unit_test.hpp>
#include <regex>

#include "tests/cpu/CrossCheck.h"
#include "tests/support/TestSupport.h"

using namespace attn::test;

BOOST_AUTO_TEST_CASE(one_build_runs_the_widest_path_each_cpu_has) {
  const std::string cxx = ATTNC_HOST_CXX, qemu = ATTNC_QEMU_X86_64, objdump = ATTNC_OBJDUMP;
  BOOST_REQUIRE_MESSAGE(
      qemu.find("NOTFOUND") == std::string::npos && objdump.find("NOTFOUND") == std::string::npos,
      "no qemu-x86_64 or objdump (scripts/install-deps.sh installs qemu-user and binutils)");
  TempDir dir;
  const std::filesystem::path driver = build_cross_driver(dir.path(), cxx);

  // The one object holds the AVX-512 path (zmm registers) that none of the emulated CPUs may enter.
  std::string code =
      checked_command(objdump + " -d --no-show-raw-insn " + (dir.path() / "gen/cross_causal.o").string());
  BOOST_TEST(std::regex_search(code, std::regex(R"(vfmadd\w+ps\s+[^\n]*%zmm)")));
  BOOST_TEST(std::regex_search(code, std::regex(R"(vfmadd\w+ps\s+[^\n]*%ymm)")));

  unsigned seed = 3;
  for (auto [cpu, path] :
       {std::pair{"EPYC-Milan", "avx2"}, {"SandyBridge", "portable"}, {"Nehalem", "portable"}})
    check_cross_runs(dir.path(), driver, qemu + " -cpu " + cpu, path, cpu, seed++);
}
