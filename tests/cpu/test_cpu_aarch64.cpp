// Generated CPU sources on AArch64: `attnc compile -t cpu` output (every path, the x86 ones compiled
// out there) built by Debian's cross g++ with -O2 -static and no -m flags, with CrossDriver.cpp, run
// under qemu-user on random inputs whose lengths are not tile multiples and checked against the
// reference (CrossCheck.h); the kernels run the NEON path, whose code is NEON's 4-lane fused
// multiply-adds.
#define BOOST_TEST_MODULE cpu_aarch64
#include <boost/test/unit_test.hpp>
#include <regex>

#include "tests/cpu/CrossCheck.h"
#include "tests/support/TestSupport.h"

using namespace attn::test;

BOOST_AUTO_TEST_CASE(generated_sources_run_on_aarch64_under_qemu) {
  const std::string cxx = ATTNC_AARCH64_CXX, qemu = ATTNC_QEMU_AARCH64, objdump = ATTNC_AARCH64_OBJDUMP;
  BOOST_REQUIRE_MESSAGE(
      cxx.find("NOTFOUND") == std::string::npos && qemu.find("NOTFOUND") == std::string::npos &&
          objdump.find("NOTFOUND") == std::string::npos,
      "no aarch64 cross compiler, objdump or qemu-aarch64 (scripts/install-deps.sh installs "
      "g++-aarch64-linux-gnu and qemu-user)");
  TempDir dir;
  const std::filesystem::path driver = build_cross_driver(dir.path(), cxx);

  // The NEON path's inner products are fused multiply-adds on 4-lane q registers (fmla vN.4s).
  std::string code =
      checked_command(objdump + " -d --no-show-raw-insn " + (dir.path() / "gen/cross_causal.o").string());
  BOOST_TEST(std::regex_search(code, std::regex(R"(fmla\s+v[0-9]+\.4s)")));

  check_cross_runs(dir.path(), driver, qemu, "neon", "aarch64", 14);
}
