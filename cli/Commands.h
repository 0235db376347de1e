// The subcommands of attnc as plain functions over option structs; cli/Main.cpp parses the
// command line (CLI11) into these. Each returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace attn {
struct Program;
}

namespace attn::cli {

struct CheckOptions {
  std::vector<std::string> files;
  std::string format = "text";  ///< text | json
  bool color = false;
};
int run_check(const CheckOptions& o);

/// The stages `dump --stage` prints besides the backends' code, in the order help lists them.
inline constexpr const char* kCompilerStages[] = {"ast", "ir", "hash", "plan", "grad"};

/// Every name `dump --stage` takes: the compiler stages, then the backends with a dump.
std::string dump_stage_names();

struct DumpOptions {
  std::string file;
  std::string stage = "ir";  ///< ast | ir | hash | plan, or a backend with a dump (backends/Backend.h)
  std::string kernel;        ///< empty: every kernel
};
int run_dump(const DumpOptions& o);

struct RunOptions {
  std::string file, kernel;
  std::string q, k, v, out, lse, max;
  /// A ragged batch's boundaries (i32 [N + 1] .npy files), both or neither.
  std::string cu_seqlens_q, cu_seqlens_k;
  /// A paged KV cache's page table (i32 [N, max_pages]) and key lengths (i32 [N]), with cu_seqlens_q.
  std::string page_table, kv_lens;
  /// An FP8 kernel's descale factors (f32 [1] or [B, Hkv] .npy files); empty: 1.
  std::string q_descale, k_descale, v_descale;
  /// The backward pass: dOut and dLSE in, dQ/dK/dV and NAME=FILE buffer gradients out.
  std::string dout, dlse, dq, dk, dv;
  std::vector<std::string> grads;
  std::vector<std::string> args;  ///< NAME=file.npy or NAME=number
  std::string target;  ///< a backend that runs kernels (backends/Backend.h); Main.cpp: default_backend(Check)
  int threads = 0;
};
int run_run(const RunOptions& o);

struct FmtOptions {
  std::vector<std::string> files;
  bool in_place = false;
  bool check = false;
};
int run_fmt(const FmtOptions& o);

/// `attnc compile FILE... -t TARGETS -o DIR`: per kernel of every file, each target's sources and a
/// header, plus DIR/dlpack/dlpack.h and one DIR/manifest.json. Output is deterministic (no
/// timestamps, no absolute paths).
struct CompileOptions {
  std::vector<std::string> files;
  std::vector<std::string> targets;  ///< backends that compile (backends/Backend.h)
  std::string out_dir;
  std::string kernel;      ///< empty: every kernel
  int cuda_sm = 80;        ///< the CUDA tile table's architecture
  std::string cuda_tiles;  ///< a tile shape to pin (`describe` text, e.g. from --autotune), "wgmma", or
                           ///< empty: the table's
  int head_dim = 0;        ///< for kernels that leave head_dim open (0: each backend's default)
  /// Also the CUDA backward (NAME_backward.cu) of every kernel whose dtype and head dims it takes,
  /// without `backward = true` (the GPU kit's backward check)
  bool cuda_backward = false;
  /// The vector paths of the CPU sources: a comma-separated list of avx512, avx2, portable and host
  /// (host is machine-dependent)
  std::string cpu_isa = "amx,avx512bf16,avx512,avx2,portable";
};
int run_compile(const CompileOptions& o);

struct BenchOptions {
  std::string file, kernel;
  std::string shape;              ///< "B,H,L,D" (queries and keys of length L)
  int kv_heads = 0;               ///< 0: H (no grouping)
  int64_t kv_len = 0;             ///< keys per sequence; 0: L (the queries' length)
  int value_dim = 0;              ///< 0: D
  std::string target;             ///< Main.cpp: default_backend(DefaultUse::Time)
  std::string dtype;              ///< empty: the kernel's own
  std::vector<std::string> args;  ///< NAME=FILE.npy or NAME=VALUE
  int warmup = 1, iters = 10, threads = 0;
  bool json = false;
  bool autotune = false;  ///< cuda: search the tile shapes first (runtime/CudaTuner.h)
  bool backward = false;  ///< time forward + backward (the gradients of every f32 buffer the score reads)
  std::string serving;    ///< a serving trace (.json): one step over a paged KV cache instead of --shape
};
int run_bench(const BenchOptions& o);

struct CacheOptions {
  std::string action = "stats";  ///< stats | clear
};
int run_cache(const CacheOptions& o);

/// `attnc lsp`: the language server on stdin/stdout.
struct LspOptions {};
int run_lsp(const LspOptions& o);

/// `attnc check --all-features FILE...`: every editor feature at every token (bug reports).
struct CheckFeaturesOptions {
  std::vector<std::string> files;
};
int run_check_features(const CheckFeaturesOptions& o);

/// Prints diagnostics of a loaded program to stderr; returns true when there were errors.
bool report_diagnostics(const Program& p, bool color);

}  // namespace attn::cli
