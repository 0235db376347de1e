// attnc: the command line. CLI11 is included here only; subcommands live in their own files.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <tuple>

#include "attnc/Version.h"
#include "backends/Backend.h"
#include "cli/Commands.h"
#include "cli/MaskCommand.h"

namespace {

using attn::backend_names;
using attn::Capability;
using attn::cli::kCompilerStages;

// A CLI11 check that a value names a backend with capability `c` (or, for dump, a compiler stage);
// its message is the backend registry's.
CLI::Validator target_check(Capability c) {
  return CLI::Validator(
      [c](std::string& name) -> std::string {
        if (c == Capability::Dump)
          for (const char* stage : kCompilerStages)
            if (name == stage) return "";
        try {
          attn::find_backend(name, c);
          return "";
        } catch (const attn::TargetError& e) {
          return e.what();
        }
      },
      "TARGET");
}

// The head dims backends build kernels that leave head_dim open for ("cuda 128, vulkan 64").
std::string default_head_dims() {
  std::string s;
  for (const attn::Backend* b : attn::backends())
    if (b->can(Capability::Compile) && b->default_head_dim())
      s += (s.empty() ? "" : ", ") + std::string(b->name()) + " " + std::to_string(b->default_head_dim());
  return s;
}

// The checks the backends make of compile's options (e.g. the cpu's --cpu-isa), as a CLI11 check.
CLI::Validator emit_options_check(void (*set)(attn::EmitOptions&, const std::string&)) {
  return CLI::Validator(
      [set](std::string& value) -> std::string {
        attn::EmitOptions o;
        set(o, value);
        for (const attn::Backend* b : attn::backends())
          if (std::string why = b->check_options(o); !why.empty()) return why;
        return "";
      },
      "VALUE");
}

// Flushes standard output and says whether everything written to it arrived: output cut short by
// a full disk (`attnc fmt f.attn > /dev/full`) is a failure, not exit 0.
int finish_standard_output(int status) {
  errno = 0;
  std::cout.flush();  // with stdio synchronised, this is fflush(stdout): its errno is the reason
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout.good();
  if (!failed) return status;
  const int err = errno;
  std::fprintf(stderr, "attnc: error: cannot write to standard output%s%s\n", err ? ": " : "",
               err ? std::strerror(err) : "");
  return status ? status : 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace attn::cli;
  CLI::App app{"attnc: a compiler for attention variants"};
  app.set_version_flag("--version", ATTNC_VERSION);
  app.require_subcommand(1);
  bool color = ::isatty(2);

  CheckOptions check;
  auto* check_cmd = app.add_subcommand("check", "Check .attn files and print diagnostics");
  check_cmd->add_option("files", check.files, ".attn files")->required();
  check_cmd->add_option("--format", check.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  bool all_features = false;
  check_cmd->add_flag("--all-features", all_features,
                      "run every editor feature at every token (like clangd --check)");

  DumpOptions dump;
  const std::string stages = dump_stage_names();
  auto* dump_cmd = app.add_subcommand("dump", "Print a compiler stage (" + stages + ")");
  dump_cmd->add_option("file", dump.file, ".attn file")->required();
  dump_cmd->add_option("kernel", dump.kernel, "only this kernel");
  dump_cmd->add_option("--stage", dump.stage, stages)->check(target_check(Capability::Dump));

  RunOptions run;
  run.target = attn::default_backend(attn::DefaultUse::Check).name();
  auto* run_cmd = app.add_subcommand("run", "Run a kernel on .npy inputs");
  run_cmd->add_option("file", run.file, ".attn file")->required();
  run_cmd->add_option("kernel", run.kernel, "kernel name (optional when the file has one kernel)");
  run_cmd->add_option("--q", run.q, "queries [B, Hq, Lq, D] (.npy)")->required();
  run_cmd->add_option("--k", run.k, "keys [B, Hkv, Lkv, D] (.npy)")->required();
  run_cmd->add_option("--v", run.v, "values [B, Hkv, Lkv, Dv] (.npy)")->required();
  run_cmd->add_option("--arg", run.args, "NAME=FILE.npy or NAME=VALUE for the kernel's arguments");
  run_cmd->add_option("-o,--out", run.out, "output [B, Hq, Lq, Dv] (.npy)")->required();
  run_cmd->add_option("--lse", run.lse, "log-sum-exp output [B, Hq, Lq] (.npy)");
  run_cmd->add_option("--max", run.max,
                      "row maximum output [B, Hq, Lq] (.npy; a kernel with return_max = true)");
  // A ragged batch (docs/guide.md, "Ragged batches"): packed q [Tq, Hq, D], k and v [Tk, Hkv, D].
  auto* cu_q =
      run_cmd->add_option("--cu-seqlens-q", run.cu_seqlens_q,
                          "a ragged batch: query boundaries, i32 [N + 1] (.npy); q is then [Tq, Hq, D]");
  auto* cu_k =
      run_cmd->add_option("--cu-seqlens-k", run.cu_seqlens_k,
                          "a ragged batch: key boundaries, i32 [N + 1] (.npy); k, v are then [Tk, Hkv, D]");
  // A paged KV cache (docs/guide.md, "Paged KV caches"): packed q with --cu-seqlens-q, k and v
  // [pages, page_size, Hkv, D], each sequence's queries its last tokens.
  auto* page_table = run_cmd->add_option(
      "--page-table", run.page_table,
      "a paged KV cache: i32 [N, max_pages] (.npy); k, v are then [pages, page_size, Hkv, D]");
  auto* kv_lens =
      run_cmd->add_option("--kv-lens", run.kv_lens, "a paged KV cache: each sequence's keys, i32 [N] (.npy)");
  // An FP8 kernel's descale factors (docs/language.md, section 8): Q, K, V are their values times these.
  for (auto [flag, path, what] : {std::tuple{"--q-descale", &run.q_descale, "q"},
                                  {"--k-descale", &run.k_descale, "k"},
                                  {"--v-descale", &run.v_descale, "v"}})
    run_cmd->add_option(
        flag, *path,
        std::string("an fp8 kernel's descale factor of ") + what + ": f32 [1] or [B, Hkv] (.npy; default 1)");
  page_table->needs(kv_lens)->needs(cu_q)->excludes(cu_k);
  kv_lens->needs(page_table);
  cu_k->needs(cu_q);
  run_cmd
      ->add_option("-t,--target", run.target,
                   backend_names(Capability::Run) + " (default " + run.target + ")")
      ->check(target_check(Capability::Run));
  run_cmd->add_option("--threads", run.threads, "threads (0: all cores)");
  // The backward pass (docs/language.md, "Backward"), whether or not the kernel sets `backward`.
  auto* dout = run_cmd->add_option("--dout", run.dout,
                                   "gradient of the output [B, Hq, Lq, Dv] (.npy): run the backward too");
  run_cmd->add_option("--dlse", run.dlse, "gradient of the log-sum-exp [B, Hq, Lq] (.npy, f32)")->needs(dout);
  run_cmd->add_option("--dq", run.dq, "dQ output (.npy)")->needs(dout);
  run_cmd->add_option("--dk", run.dk, "dK output (.npy)")->needs(dout);
  run_cmd->add_option("--dv", run.dv, "dV output (.npy)")->needs(dout);
  run_cmd->add_option("--grad", run.grads, "NAME=FILE.npy: the gradient of the f32 tensor argument NAME")
      ->needs(dout);

  FmtOptions fmt;
  auto* fmt_cmd = app.add_subcommand("fmt", "Format .attn files");
  fmt_cmd->add_option("files", fmt.files, ".attn files")->required();
  fmt_cmd->add_flag("-i,--in-place", fmt.in_place, "rewrite the files");
  fmt_cmd->add_flag("--check", fmt.check, "exit 1 if a file is not formatted");

  // attnc compile (cli/CompileCommand.cpp; the backends emit, backends/Backend.h).
  CompileOptions compile;
  auto* compile_cmd = app.add_subcommand("compile", "Write each kernel's sources for the targets");
  compile_cmd->add_option("files", compile.files, ".attn files")->required();
  compile_cmd
      ->add_option("-t,--target", compile.targets,
                   "targets (comma-separated): " + backend_names(Capability::Compile))
      ->delimiter(',')
      ->required()
      ->check(target_check(Capability::Compile));
  compile_cmd->add_option("-o,--out", compile.out_dir, "output folder")->required();
  compile_cmd->add_option("--kernel", compile.kernel, "only this kernel");
  compile_cmd->add_option("--cuda-sm", compile.cuda_sm, "CUDA architecture for the tile table (80, 90, ...)");
  compile_cmd->add_option(
      "--cuda-tiles", compile.cuda_tiles,
      "CUDA tile shape instead of the table's, as attnc bench --autotune prints it; 'wgmma': "
      "Hopper's warpgroup kernel wherever it applies (--cuda-sm 90)");
  compile_cmd->add_option("--head-dim", compile.head_dim,
                          "head_dim for kernels that leave it open (default: " + default_head_dims() + ")");
  compile_cmd->add_flag("--cuda-backward", compile.cuda_backward,
                        "also the CUDA backward of every kernel the tensor-core backward takes (bf16/f16, "
                        "head dims 64 or 128), as if it said backward = true");
  compile_cmd
      ->add_option(
          "--cpu-isa", compile.cpu_isa,
          "vector paths of the cpu sources, comma-separated: amx, avx512bf16, avx512, avx2, portable, host "
          "(default: all; amx and avx512bf16 only for bf16 and FP8 kernels; the first call runs the widest "
          "the CPU runs)")
      ->check(emit_options_check([](attn::EmitOptions& o, const std::string& v) { o.cpu_isa = v; }));

  BenchOptions bench;
  bench.target = attn::default_backend(attn::DefaultUse::Time).name();
  auto* bench_cmd =
      app.add_subcommand("bench", "Time a kernel: median/min/max and GFLOP/s of the unmasked work");
  bench_cmd->add_option("file", bench.file, ".attn file")->required();
  bench_cmd->add_option("kernel", bench.kernel, "kernel name (optional when the file has one kernel)");
  auto* bench_shape = bench_cmd->add_option("--shape", bench.shape, "B,H,L,D");
  auto* bench_serving = bench_cmd->add_option(
      "--serving", bench.serving,
      "TRACE.json: one serving step over a paged KV cache (samples/serving/trace.json)");
  bench_shape->excludes(bench_serving);
  bench_cmd->add_option("--kv-heads", bench.kv_heads, "key/value heads (default H)");
  bench_cmd->add_option("--kv-len", bench.kv_len, "keys per sequence (default L; e.g. L=1 for decoding)")
      ->check(CLI::PositiveNumber);
  bench_cmd->add_option("--value-dim", bench.value_dim, "value head dimension (default D)");
  bench_cmd
      ->add_option("-t,--target", bench.target,
                   backend_names(Capability::Run) + " (default " + bench.target + ")")
      ->check(target_check(Capability::Run));
  bench_cmd->add_option("--dtype", bench.dtype, "f32 | f16 | bf16 | e4m3 | e5m2 (default: the kernel's)")
      ->check(CLI::IsMember({"f32", "f16", "bf16", "e4m3", "e5m2"}));
  bench_cmd->add_option("--arg", bench.args, "NAME=FILE.npy or NAME=VALUE for the kernel's arguments");
  bench_cmd->add_option("--warmup", bench.warmup, "untimed runs first (default 1)");
  bench_cmd->add_option("--iters", bench.iters, "timed runs (default 10)")->check(CLI::PositiveNumber);
  bench_cmd->add_option("--threads", bench.threads, "threads (0: all cores)");
  bench_cmd->add_flag("--json", bench.json, "print the result as JSON");
  bench_cmd->add_flag("--autotune", bench.autotune,
                      backend_names(Capability::Tune) +
                          ": time the candidate tile shapes first and keep the fastest (cached)");
  bench_cmd->add_flag(
      "--backward", bench.backward,
      backend_names(Capability::Backward) +
          ": time forward + backward (dQ, dK, dV and the gradients of the f32 buffers the score reads)");

  CacheOptions cache;
  auto* cache_cmd = app.add_subcommand(
      "cache", "The loader's disk cache (and shared cache, ATTNC_REMOTE_CACHE): stats or clear");
  cache_cmd->add_option("action", cache.action, "stats | clear")->check(CLI::IsMember({"stats", "clear"}));

  // --- attnc mask (cli/MaskCommand.h) ---------------------------------------------------------
  MaskCommandOptions mask;
  auto* mask_cmd = app.add_subcommand("mask", "Plan a kernel's tiles: counts, density, a picture");
  mask_cmd->add_option("file", mask.file, ".attn file")->required();
  mask_cmd->add_option("kernel", mask.kernel, "kernel name (optional when the file has one kernel)");
  mask_cmd->add_option("--len", mask.len, "query length")->required()->check(CLI::PositiveNumber);
  mask_cmd->add_option("--len-kv", mask.len_kv, "key length (default: --len)")->check(CLI::PositiveNumber);
  mask_cmd->add_option("--block", mask.block,
                       "tile sizes BQ,BK (default: the target's, else the kernel's block, else 64,64)");
  mask_cmd
      ->add_option("-t,--target", mask.target,
                   "plan in this target's tiles: " + backend_names(Capability::Tiles))
      ->check(target_check(Capability::Tiles));
  mask_cmd->add_option("--png", mask.png, "draw the plan into this PNG file");
  mask_cmd->add_option("--svg", mask.svg, "draw the plan into this SVG file");
  mask_cmd->add_option("--corner", mask.corner, "element panel: the top-left N x N elements (default 64)")
      ->check(CLI::Range(int64_t{1}, int64_t{1024}));
  mask_cmd->add_option("--arg", mask.args, "NAME=FILE.npy or NAME=VALUE for the mask's arguments");
  mask_cmd->add_option("--head", mask.head, "plan for this head only (masks that depend on h)");
  // ----------------------------------------------------------------------------------------------

  auto* lsp_cmd = app.add_subcommand("lsp", "Language server on stdin/stdout");

  CLI11_PARSE(app, argc, argv);
  check.color = color;
  if (lsp_cmd->parsed()) return run_lsp({});
  auto run_command = [&]() -> int {
    if (check_cmd->parsed()) return all_features ? run_check_features({check.files}) : run_check(check);
    if (dump_cmd->parsed()) return run_dump(dump);
    if (run_cmd->parsed()) return run_run(run);
    if (fmt_cmd->parsed()) return run_fmt(fmt);
    if (compile_cmd->parsed()) return run_compile(compile);
    if (cache_cmd->parsed()) return run_cache(cache);
    if (bench_cmd->parsed()) {
      if (bench.shape.empty() && bench.serving.empty()) {
        std::cerr << "attnc bench: --shape B,H,L,D or --serving TRACE.json is required\n";
        return 2;
      }
      return run_bench(bench);
    }
    if (mask_cmd->parsed()) return run_mask_command(mask);
    return 0;
  };
  return finish_standard_output(run_command());
}
