// Hand-written kernels implementing the CPU kernel ABI, and a fixture with a fresh cache directory.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attn/loader.hpp"
#include "runtime/TempDir.h"

namespace attn::test {

/// A self-contained translation unit exporting `entry`, which writes out = q * factor.
std::string scale_kernel_source(int factor, const std::string& entry = "scale_kernel");
/// The request for scale_kernel_source(factor, entry) on the cpu.
KernelRequest scale_kernel_request(int factor, const std::string& entry = "scale_kernel");
/// Runs `kernel` on q = {x, x+1, x+2, x+3} ([1,1,1,4] f32) and returns out[0]; fails the test on
/// a non-zero return.
float run_scale(const Kernel& kernel, float x);

/// A fresh ATTNC_CACHE_DIR, XDG_CONFIG_HOME (the cache key's home) and ATTNC_TRACE for one test;
/// restores the environment.
struct CacheFixture {
  CacheFixture();
  ~CacheFixture();
  std::unique_ptr<TempDir> root;                 ///< Holds cache/ and anything else the test writes.
  std::string cache;                             ///< The cache directory (not created yet).
  std::string config;                            ///< XDG_CONFIG_HOME: the key is config/attnc/cache.key.
  std::optional<std::string> saved_config_home;  ///< XDG_CONFIG_HOME before the test.
  /// Options using `cache` and a private recorder.
  LoaderOptions options() const;
};

/// Runs `body` with stderr sent to `file`; returns what was written there.
std::string capture_stderr(const std::string& file, const std::function<void()>& body);
/// Runs `body` in a forked child and returns its result (the child's exit status); -1 if it did not
/// finish within `timeout_s` seconds (it is killed), -2 if it died of a signal or threw.
int run_in_child(int timeout_s, const std::function<int()>& body);
/// Forks `n` children, releases them at once (closing a pipe they wait on) and returns their exit
/// statuses in order: `body(i)`'s result in child i, or -1 for a child that did not exit normally.
/// A child whose body throws exits with 3.
std::vector<int> run_released_together(int n, const std::function<int(int)>& body);
/// How many times `needle` occurs in `text`.
size_t count_lines_with(const std::string& text, const std::string& needle);

/// The size in bytes of `path`, or -1.
long long file_size(const std::string& path);
/// The whole file at `path`.
std::string read_text(const std::string& path);

}  // namespace attn::test
