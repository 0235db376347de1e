// Generated CPU sources built outside attnc, as a user's project builds them, and run on another
// CPU than this one: the kernels of kCrossProgram compiled by `attnc compile -t cpu`, each built
// with a given compiler and flags (no -m flags: the source picks its vector path at the first call)
// and linked statically with CrossDriver.cpp, then run under qemu-user on random inputs whose
// lengths are not tile multiples and checked against the reference. test_cpu_aarch64 runs them on
// AArch64, test_cpu_x86_cpus on x86-64 CPUs without AVX-512 (and without AVX).
#pragma once

#include <filesystem>
#include <string>

namespace attn::test {

/// The kernels' file: a causal mask, a buffer mask (planned by the kernel itself: the driver passes
/// no key ranges), a score with a buffer, bf16 with a window and the log-sum-exp, and f16 with more
/// queries than keys.
extern const char* const kCrossProgram;
/// Its kernels, in the order the driver lists them.
extern const char* const kCrossKernels[5];

/// `attnc compile`s kCrossProgram into `dir`/gen, compiles each kernel there with `cxx` and `flags`
/// (two at a time; -O2, the flags the banner names, -Wall -Wextra -Werror are added) and links them
/// statically with CrossDriver.cpp. Returns the driver's path; the objects are gen/KERNEL.o. Fails
/// the test when a step fails.
std::filesystem::path build_cross_driver(const std::filesystem::path& dir, const std::string& cxx,
                                         const std::string& flags = "");

/// Runs every kernel of the driver through `runner` (a command prefix: "qemu-aarch64",
/// "qemu-x86_64 -cpu EPYC-Milan") on random inputs (`seed`) and checks Out and LSE against the
/// reference and that the kernel ran vector path `path`. `what` names the case in the messages.
void check_cross_runs(const std::filesystem::path& dir, const std::filesystem::path& driver,
                      const std::string& runner, const std::string& path, const std::string& what,
                      unsigned seed);

/// Runs `command`; fails the test with its output when it fails; returns its output.
std::string checked_command(const std::string& command);

}  // namespace attn::test
