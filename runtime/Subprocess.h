// Runs a program, tied to the calling process, and captures its stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace attn {

/// How a child process ended.
struct ProcessResult {
  int exit_status = -1;  ///< The exit code; 128 + signal number when killed by a signal.
  std::string output;    ///< stdout and stderr, interleaved as written.
};

/// Runs argv[0] (looked up in PATH) with argv, arguments passed as they are (no shell parses
/// them); throws std::system_error if it names no executable file. The program and everything it
/// starts run in a process group of their own, under /bin/sh as a guard that kills the group when
/// the caller's process dies (even by SIGKILL), so no compiler outlives a killed caller.
/// Safe to call from several threads at once.
/// `env` holds NAME=VALUE settings that replace or add to this process's environment for it.
ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});

}  // namespace attn
