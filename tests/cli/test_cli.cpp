// The attnc binary end to end: run on .npy files (agreeing with an independent computation), the
// errors a user can make on the command line, check/dump/fmt behaviour and exit codes.
#define BOOST_TEST_MODULE cli
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <csignal>
#include <nlohmann/json.hpp>
#include <set>

#include "runtime/Npy.h"
#include "tests/runtime/RedisServer.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;
namespace fs = std::filesystem;

namespace {

std::string attnc(const std::string& args) { return attnc_binary() + " " + args; }

struct Inputs {
  TempDir dir;
  std::string file;
  HostTensor q, k, v;

  Inputs(const std::string& source, std::vector<int64_t> qs, std::vector<int64_t> ks,
         std::vector<int64_t> vs) {
    std::mt19937 rng(42);
    q = random_tensor(ScalarType::F32, qs, rng);
    k = random_tensor(ScalarType::F32, ks, rng);
    v = random_tensor(ScalarType::F32, vs, rng);
    write_npy(path("q.npy"), q);
    write_npy(path("k.npy"), k);
    write_npy(path("v.npy"), v);
    file = path("k.attn");
    write_file(file, source);
  }
  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
  std::string qkv() const {
    return "--q " + path("q.npy") + " --k " + path("k.npy") + " --v " + path("v.npy");
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(run_reference_matches_independent_computation) {
  Inputs in("import std.masks;\nkernel c { mask = causal; lse = true; }\n", {2, 4, 37, 16}, {2, 2, 45, 16},
            {2, 2, 45, 8});
  auto r = run_command(attnc("run " + in.file + " c " + in.qkv() + " -o " + in.path("o.npy") + " --lse " +
                             in.path("l.npy") + " -t reference"));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  HostTensor out = read_npy(in.path("o.npy")), lse = read_npy(in.path("l.npy"));
  NaiveResult want = naive_attention(
      in.q, in.k, in.v, [](int, int, int q, int kv) { return q >= kv; },
      [](double s, int, int, int, int) { return s; }, 0.25);
  BOOST_REQUIRE(out.numel() == static_cast<int64_t>(want.out.size()));
  double worst = 0;
  for (int64_t i = 0; i < out.numel(); ++i) worst = std::max(worst, std::fabs(out.get(i) - want.out[i]));
  for (int64_t i = 0; i < lse.numel(); ++i) worst = std::max(worst, std::fabs(lse.get(i) - want.lse[i]));
  BOOST_TEST(worst <= 1e-6);
}

BOOST_AUTO_TEST_CASE(run_takes_a_ragged_batch) {
  // docs/guide.md, "Ragged batches", its command: three sequences of 4, 0 and 5 queries over 4, 3
  // and 5 keys, packed. Under a causal mask (and sinks of -inf: no sink) the first query of each
  // sequence sees that sequence's first key alone, so its output is that key's value row: q and kv
  // count from each sequence's start.
  Inputs in(
      "import std.masks;\n"
      "kernel gpt_oss_sliding(sinks: tensor<f32>[heads]) {\n"
      "  mask = causal && q - kv < 128;\n  sink = sinks[h];\n  lse = true;\n  return_max = true;\n}\n",
      {9, 2, 16}, {12, 1, 16}, {12, 1, 8});
  HostTensor sinks(ScalarType::F32, {2});
  sinks.set(0, -INFINITY), sinks.set(1, -INFINITY);
  write_npy(in.path("sinks.npy"), sinks);
  HostTensor cu_q(ScalarType::I32, {4}), cu_k(ScalarType::I32, {4});
  for (int i = 0; i < 4; ++i) cu_q.set(i, std::vector<int>{0, 4, 4, 9}[size_t(i)]);
  for (int i = 0; i < 4; ++i) cu_k.set(i, std::vector<int>{0, 4, 7, 12}[size_t(i)]);
  write_npy(in.path("cu_q.npy"), cu_q);
  write_npy(in.path("cu_k.npy"), cu_k);
  const std::string ragged =
      " --cu-seqlens-q " + in.path("cu_q.npy") + " --cu-seqlens-k " + in.path("cu_k.npy");
  for (const char* target : {"reference", "cpu"}) {
    auto r = run_command(attnc("run " + in.file + " gpt_oss_sliding -t " + target + " " + in.qkv() +
                               " --arg sinks=" + in.path("sinks.npy") + ragged + " -o " + in.path("o.npy") +
                               " --lse " + in.path("l.npy")));
    BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
    HostTensor out = read_npy(in.path("o.npy")), lse = read_npy(in.path("l.npy"));
    BOOST_TEST(out.shape == (std::vector<int64_t>{9, 2, 8}));
    BOOST_TEST(lse.shape == (std::vector<int64_t>{9, 2}));
    for (auto [q_row, kv_row] : {std::pair{0, 0}, {4, 7}})
      for (int h = 0; h < 2; ++h)
        for (int d = 0; d < 8; ++d)
          BOOST_TEST(std::fabs(out.get((q_row * 2 + h) * 8 + d) - in.v.get(kv_row * 8 + d)) < 1e-6, target);
  }
  cu_k.set(2, 2);  // decreasing: 4 then 2
  write_npy(in.path("cu_k.npy"), cu_k);
  auto r = run_command(attnc("run " + in.file + " -t cpu " + in.qkv() +
                             " --arg sinks=" + in.path("sinks.npy") + ragged + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("cu_seqlens_k decreases at entry 2") != std::string::npos, r.output);
  r = run_command(attnc("run " + in.file + " " + in.qkv() + " --arg sinks=" + in.path("sinks.npy") +
                        " --cu-seqlens-q " + in.path("cu_q.npy") + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("--cu-seqlens-k") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(run_takes_a_paged_cache) {
  // docs/guide.md, "Paged KV caches", its command: three pages of four keys; sequence 0 holds 6 keys
  // in pages 2 then 0 and asks 2 queries (positions 4 and 5), sequence 1 holds 3 keys in page 1 and
  // asks 1 (position 2). Under `kv == q` each query sees the key at its own position alone, so its
  // output is that key's value row: page 0 rows 0 and 1, page 1 row 2.
  Inputs in("kernel own_key { mask = kv == q; }\n", {3, 2, 16}, {3, 4, 1, 16}, {3, 4, 1, 8});
  HostTensor cu_q(ScalarType::I32, {3}), table(ScalarType::I32, {2, 2}), kv_lens(ScalarType::I32, {2});
  for (int i = 0; i < 3; ++i) cu_q.set(i, std::vector<int>{0, 2, 3}[size_t(i)]);
  for (int i = 0; i < 4; ++i) table.set(i, std::vector<int>{2, 0, 1, -1}[size_t(i)]);
  kv_lens.set(0, 6), kv_lens.set(1, 3);
  write_npy(in.path("cu_q.npy"), cu_q);
  write_npy(in.path("pages.npy"), table);
  write_npy(in.path("kv_lens.npy"), kv_lens);
  const std::string paged = " --cu-seqlens-q " + in.path("cu_q.npy") + " --page-table " +
                            in.path("pages.npy") + " --kv-lens " + in.path("kv_lens.npy");
  for (const char* target : {"reference", "cpu"}) {
    auto r = run_command(
        attnc("run " + in.file + " -t " + target + " " + in.qkv() + paged + " -o " + in.path("o.npy")));
    BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
    HostTensor out = read_npy(in.path("o.npy"));
    BOOST_TEST(out.shape == (std::vector<int64_t>{3, 2, 8}));
    for (auto [q_row, page, row] : {std::tuple{0, 0, 0}, {1, 0, 1}, {2, 1, 2}})
      for (int h = 0; h < 2; ++h)
        for (int d = 0; d < 8; ++d)
          BOOST_TEST(std::fabs(out.get((q_row * 2 + h) * 8 + d) - in.v.get((page * 4 + row) * 8 + d)) < 1e-6,
                     target);
  }
  table.set(1, 3);  // a page the cache does not have
  write_npy(in.path("pages.npy"), table);
  auto r = run_command(attnc("run " + in.file + " -t cpu " + in.qkv() + paged + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("page_table[0][1] is 3, outside the cache's 3 pages") != std::string::npos,
             r.output);
  r = run_command(attnc("run " + in.file + " " + in.qkv() + " --cu-seqlens-q " + in.path("cu_q.npy") +
                        " --page-table " + in.path("pages.npy") + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("--kv-lens") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(run_rounds_f32_files_to_fp8_and_takes_descale_factors) {
  // docs/guide.md, "FP8 inputs": f32 files rounded to e4m3, factors per (batch entry, key/value
  // head), a bf16 Out written as f32; against attention on the dequantized values.
  Inputs in("import std.masks;\nkernel prefill_fp8 { mask = causal; dtype = e4m3; lse = true; }\n",
            {2, 4, 21, 16}, {2, 2, 21, 16}, {2, 2, 21, 16});
  HostTensor scales[3];
  const char* names[3] = {"q_descale", "k_descale", "v_descale"};
  std::string flags;
  for (int i = 0; i < 3; ++i) {
    scales[i] = HostTensor(ScalarType::F32, {2, 2});
    for (int64_t e = 0; e < 4; ++e) scales[i].set(e, 0.5 + 0.25 * double(e + i));
    write_npy(in.path(std::string(names[i]) + ".npy"), scales[i]);
    flags += " --" +
             std::string(i == 0   ? "q"
                         : i == 1 ? "k"
                                  : "v") +
             "-descale " + in.path(std::string(names[i]) + ".npy");
  }
  // Q, K, V as the kernel sees them: each f32 element rounded to e4m3, times its entry's factor.
  auto dequantized = [&](const HostTensor& t, const HostTensor& scale) {
    HostTensor out(ScalarType::F32, t.shape);
    const int64_t heads = t.shape[1], per_head = t.shape[2] * t.shape[3], group = heads / 2;
    for (int64_t i = 0; i < t.numel(); ++i) {
      const int64_t b = i / (heads * per_head), hk = i / per_head % heads / group;
      out.set(i, e4m3_to_f64(f64_to_e4m3(t.get(i))) * scale.get(b * 2 + hk));
    }
    return out;
  };
  const NaiveResult want = naive_attention(
      dequantized(in.q, scales[0]), dequantized(in.k, scales[1]), dequantized(in.v, scales[2]),
      [](int, int, int q, int kv) { return q >= kv; }, [](double s, int, int, int, int) { return s; }, 0.25);
  for (const char* target : {"reference", "cpu"}) {
    auto r = run_command(attnc("run " + in.file + " -t " + target + " " + in.qkv() + flags + " -o " +
                               in.path("o.npy") + " --lse " + in.path("l.npy")));
    BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
    HostTensor out = read_npy(in.path("o.npy")), lse = read_npy(in.path("l.npy"));
    BOOST_REQUIRE(out.type == ScalarType::F32 && out.numel() == int64_t(want.out.size()));
    double out_diff = 0, lse_diff = 0;
    for (int64_t i = 0; i < out.numel(); ++i)
      out_diff = std::max(out_diff, std::fabs(out.get(i) - want.out[i]));
    for (int64_t i = 0; i < lse.numel(); ++i)
      lse_diff = std::max(lse_diff, std::fabs(lse.get(i) - want.lse[i]));
    BOOST_TEST(out_diff <= 2e-2, target);  // bf16 rounding of values below 4
    BOOST_TEST(lse_diff <= 1e-4, target);
  }
  // A factor of the wrong shape; the backward, which FP8 kernels do not have.
  write_npy(in.path("per_query_head.npy"), HostTensor(ScalarType::F32, {2, 4}));
  auto r = run_command(attnc("run " + in.file + " -t reference " + in.qkv() + " --k-descale " +
                             in.path("per_query_head.npy") + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("k_descale must be f32 [1] (the whole tensor) or [2, 2]") != std::string::npos,
             r.output);
  r = run_command(attnc("run " + in.file + " -t cpu " + in.qkv() + " -o " + in.path("o.npy") + " --dout " +
                        in.path("o.npy") + " --dq " + in.path("dq.npy")));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(
      r.output.find("k.attn:2:8: error: kernel 'prefill_fp8' is fp8 (dtype e4m3), which has no backward "
                    "pass: compile a bf16 copy of it (dtype = bf16) for training") != std::string::npos,
      r.output);
  // cuda writes an fp8 kernel (converted to bf16 as it loads); vulkan writes no offline fp8 module (it
  // converts on load).
  r = run_command(attnc("compile " + in.file + " -t cuda -o " + in.path("cuda")));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(read_file(in.path("cuda") + "/prefill_fp8.cu").find("\n#define ATTN_FP8 1 ") !=
             std::string::npos);
  r = run_command(attnc("compile " + in.file + " -t vulkan -o " + in.path("vulkan")));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(
      r.output.find("k.attn:2:8: error: the vulkan target's offline modules read f32, f16 or bf16 buffers: "
                    "an fp8 kernel (dtype e4m3) runs on vulkan through attnc") != std::string::npos,
      r.output);
}

BOOST_AUTO_TEST_CASE(run_writes_row_maxima_and_takes_a_sink) {
  // docs/guide.md, "Serving: learnable sinks and row maxima": the command line it shows, on the cpu.
  Inputs in(
      "import std.masks;\n"
      "kernel gpt_oss_sliding(sinks: tensor<f32>[heads]) {\n"
      "  mask = causal && q - kv < 128;\n  sink = sinks[h];\n  lse = true;\n  return_max = true;\n}\n",
      {1, 2, 19, 16}, {1, 2, 19, 16}, {1, 2, 19, 16});
  HostTensor sinks(ScalarType::F32, {2});
  sinks.set(0, 0.5), sinks.set(1, -1.0);
  write_npy(in.path("sinks.npy"), sinks);
  auto r = run_command(attnc("run " + in.file + " gpt_oss_sliding -t cpu " + in.qkv() +
                             " --arg sinks=" + in.path("sinks.npy") + " -o " + in.path("o.npy") + " --lse " +
                             in.path("l.npy") + " --max " + in.path("m.npy")));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  HostTensor out = read_npy(in.path("o.npy")), lse = read_npy(in.path("l.npy")),
             max = read_npy(in.path("m.npy"));
  // Independently: row 0 of head 1 sees key 0 only, and the sink (value 0).
  double s = 0;
  for (int d = 0; d < 16; ++d) s += in.q.get(19 * 16 + d) * in.k.get(19 * 16 + d);
  s *= 0.25;
  const double z = std::exp(s) + std::exp(-1.0);
  BOOST_TEST(std::fabs(max.get(19) - s) < 1e-5);
  BOOST_TEST(std::fabs(lse.get(19) - std::log(z)) < 1e-5);
  for (int d = 0; d < 16; ++d)
    BOOST_TEST(std::fabs(out.get(19 * 16 + d) - std::exp(s) / z * in.v.get(19 * 16 + d)) < 1e-5);
  write_file(in.file, "kernel plain { lse = true; }\n");
  r = run_command(
      attnc("run " + in.file + " " + in.qkv() + " -o " + in.path("o.npy") + " --max " + in.path("m.npy")));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("does not write row maxima (set return_max = true)") != std::string::npos,
             r.output);
}

BOOST_AUTO_TEST_CASE(kernel_name_is_optional_for_a_file_with_one_kernel) {
  Inputs in("import std.masks;\nkernel c { mask = causal; }\n", {1, 2, 8, 4}, {1, 2, 8, 4}, {1, 2, 8, 4});
  auto r = run_command(attnc("run " + in.file + " " + in.qkv() + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status == 0, r.output);
  r = run_command(attnc("mask " + in.file + " --len 8"));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("kernel c:") != std::string::npos, r.output);
  write_file(in.file, "import std.masks;\nkernel a { mask = causal; }\nkernel c { }\n");
  r = run_command(attnc("mask " + in.file + " --len 8"));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find(in.file + " has 2 kernels; name one: a, c") != std::string::npos, r.output);
  r = run_command(attnc("dump --stage=ir " + in.file + " foo"));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("no kernel 'foo' in " + in.file + "; kernels: a, c") != std::string::npos,
             r.output);
}

BOOST_AUTO_TEST_CASE(run_errors_are_clear_and_nonzero) {
  Inputs in(
      "kernel k(doc: tensor<i32>[len], offset: int) { mask = doc[q] == doc[kv] && q + offset >= kv; }\n",
      {1, 2, 8, 4}, {1, 2, 8, 4}, {1, 2, 8, 4});
  HostTensor doc(ScalarType::I32, {8});
  write_npy(in.path("doc.npy"), doc);
  HostTensor wrong(ScalarType::F32, {8});
  write_npy(in.path("wrong.npy"), wrong);
  write_file(in.path("garbage.npy"), "not a numpy file");
  std::string base = "run " + in.file + " k " + in.qkv() + " -o " + in.path("o.npy");
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--arg doc=" + in.path("doc.npy"), "missing scalar argument 'offset'"},
      {"--arg offset=3", "missing tensor argument 'doc'"},
      {"--arg doc=" + in.path("wrong.npy") + " --arg offset=3", "argument 'doc' must be i32, got f32"},
      {"--arg doc=" + in.path("nope.npy") + " --arg offset=3", "nope.npy: cannot open"},
      {"--arg doc=" + in.path("garbage.npy") + " --arg offset=3", "not a .npy file"},
      {"--arg doc=" + in.path("doc.npy") + " --arg offset=x", "--arg offset: 'x' is not an integer"},
      {"--arg nothing=3", "kernel 'k' has no argument 'nothing'"},
  };
  for (const Case& c : cases) {
    auto r = run_command(attnc(base + " " + c.args));
    BOOST_TEST(r.status == 1, c.args);
    BOOST_TEST(r.output.find(c.message) != std::string::npos,
               "expected '" << c.message << "' in: " << r.output);
  }
  auto r = run_command(attnc("run " + in.file + " missing " + in.qkv() + " -o " + in.path("o.npy")));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("no kernel 'missing' in " + in.file + "; kernels: k") != std::string::npos,
             r.output);
  // Shapes that do not fit.
  HostTensor q3(ScalarType::F32, {1, 3, 8, 4});
  write_npy(in.path("q3.npy"), q3);
  r = run_command(attnc("run " + in.file + " k --q " + in.path("q3.npy") + " --k " + in.path("k.npy") +
                        " --v " + in.path("v.npy") + " -o " + in.path("o.npy") +
                        " --arg doc=" + in.path("doc.npy") + " --arg offset=1"));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("multiple of the key/value heads") != std::string::npos, r.output);
  // A doc index out of range is a run-time error naming the buffer.
  HostTensor bad(ScalarType::I32, {8});
  for (int i = 0; i < 8; ++i) bad.set(i, 0);
  HostTensor short_doc(ScalarType::I32, {4});
  write_npy(in.path("short.npy"), short_doc);
  r = run_command(attnc(base + " --arg doc=" + in.path("short.npy") + " --arg offset=1"));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("buffer 'doc' index 4 is out of range [0, 4)") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(check_reports_three_independent_errors) {
  auto r = run_command(attnc("check tests/errors/cases/three_independent_errors.attn"));
  BOOST_TEST(r.status == 1);
  size_t errors = 0;
  for (size_t p = 0; (p = r.output.find(": error: ", p)) != std::string::npos; ++p) ++errors;
  BOOST_TEST(errors == 3u, r.output);
  BOOST_TEST(
      r.output.find("three_independent_errors.attn:2:32: error: unknown name 'windw'") != std::string::npos,
      r.output);
  BOOST_TEST(r.output.find("3 errors generated.") != std::string::npos);
  auto j = run_command(attnc("check --format json tests/errors/cases/three_independent_errors.attn"));
  BOOST_TEST(j.status == 1);
  BOOST_TEST(
      j.output.find("\"message\": \"unknown name 'windw'; did you mean 'window'?\"") != std::string::npos,
      j.output);
}

BOOST_AUTO_TEST_CASE(check_passes_stdlib_and_samples) {
  std::string files;
  for (const auto& f : files_under(source_dir() / "stdlib", ".attn")) files += " " + f.string();
  for (const auto& f : files_under(source_dir() / "samples", ".attn")) files += " " + f.string();
  auto r = run_command(attnc("check" + files));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.empty(), r.output);
}

BOOST_AUTO_TEST_CASE(dump_is_deterministic) {
  for (const auto& f : files_under(source_dir() / "samples", ".attn")) {
    for (const char* stage : {"ast", "ir"}) {
      auto a = run_command(attnc(std::string("dump --stage=") + stage + " " + f.string()));
      auto b = run_command(attnc(std::string("dump --stage=") + stage + " " + f.string()));
      BOOST_TEST(a.status == 0, a.output);
      BOOST_TEST(a.output == b.output);
    }
  }
}

BOOST_AUTO_TEST_CASE(fmt_check_and_in_place) {
  TempDir dir;
  std::string file = (dir.path() / "x.attn").string();
  write_file(file, "mask  a=q>=kv ;   // keep me\nkernel k{mask=a;}\n");
  auto r = run_command(attnc("fmt --check " + file));
  BOOST_TEST(r.status == 1);
  r = run_command(attnc("fmt -i " + file));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(read_file(file) == "mask a = q >= kv;  // keep me\nkernel k { mask = a; }\n");
  r = run_command(attnc("fmt --check " + file));
  BOOST_TEST(r.status == 0, r.output);
  write_file(file, "mask a = (q >= kv;\n");
  r = run_command(attnc("fmt " + file));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("x.attn:1:18: error") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(missing_file_is_an_error) {
  auto r = run_command(attnc("check /nonexistent/file.attn"));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("cannot open '/nonexistent/file.attn'") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(cache_stats_and_clear) {
  TempDir dir;
  std::string env = "ATTNC_CACHE_DIR=" + (dir.path() / "cache").string() + " ";
  auto r = run_command(env + attnc("cache stats"));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("entries:         0") != std::string::npos, r.output);
  r = run_command(env + attnc("cache clear"));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("removed 0 entries") != std::string::npos, r.output);
  // A size limit that is not a whole number of MiB is a warning and the default, not 0 MiB.
  r = run_command(env + "ATTNC_CACHE_MAX_MB=1e30 " + attnc("cache stats"));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("attnc: warning: ignoring ATTNC_CACHE_MAX_MB='1e30'") != std::string::npos,
             r.output);
  BOOST_TEST(r.output.find("of 1024 MiB") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(a_shared_cache_on_redis) {
  // docs/guide.md, "A shared compile cache on Redis": the fleet's key, the two variables, a run on
  // one host and the same run on a second (its own cache directory) that compiles nothing.
  Inputs in("import std.masks;\nkernel c { mask = causal; }\n", {1, 2, 40, 16}, {1, 2, 40, 16},
            {1, 2, 40, 16});
  RedisServer redis(in.dir.path().string());
  auto key =
      run_command("cd " + in.dir.path().string() + " && (umask 077; head -c 32 /dev/urandom > fleet.key)");
  BOOST_REQUIRE(key.status == 0);
  std::string env =
      "ATTNC_REMOTE_CACHE=" + redis.url() + " ATTNC_CACHE_KEY_FILE=" + in.path("fleet.key") + " ";
  auto host = [&](const std::string& name) {
    return env + "ATTNC_CACHE_DIR=" + in.path(name) + " ATTNC_TRACE=" + in.path(name + ".json") + " ";
  };
  std::string run = attnc("run " + in.file + " " + in.qkv() + " -t cpu -o ");
  auto first = run_command(host("a") + run + in.path("a.npy"));
  BOOST_REQUIRE_MESSAGE(first.status == 0, first.output);
  auto second = run_command(host("b") + run + in.path("b.npy"));
  BOOST_REQUIRE_MESSAGE(second.status == 0, second.output);
  BOOST_TEST(read_file(in.path("a.npy")) == read_file(in.path("b.npy")));
  std::string trace_a = read_file(in.path("a.json")), trace_b = read_file(in.path("b.json"));
  BOOST_TEST(trace_a.find("\"remote_write\"") != std::string::npos);
  BOOST_TEST(trace_b.find("\"compile_start\"") == std::string::npos, trace_b);
  BOOST_TEST(trace_b.find("\"remote_hit\"") != std::string::npos, trace_b);

  auto stats = run_command(host("b") + attnc("cache stats"));
  BOOST_TEST(stats.status == 0, stats.output);
  BOOST_TEST(stats.output.find("shared cache:    " + redis.url()) != std::string::npos, stats.output);
  BOOST_TEST(stats.output.find("shared entries:  2 (") != std::string::npos,
             stats.output);  // source + object
  BOOST_TEST(stats.output.find("shared traffic:  2 hits") != std::string::npos, stats.output);
  // A server gone is an error of `cache stats` (it was asked about), not of runs (one warning).
  redis.signal(SIGKILL);
  stats = run_command(host("b") + attnc("cache stats"));
  BOOST_TEST(stats.status == 1, stats.output);
  BOOST_TEST(stats.output.find("cannot read the shared cache: " + redis.url()) != std::string::npos,
             stats.output);
  auto third = run_command(host("c") + run + in.path("c.npy"));
  BOOST_TEST(third.status == 0, third.output);
  BOOST_TEST(
      third.output.find("attnc: warning: shared cache unavailable: " + redis.url()) != std::string::npos,
      third.output);
  BOOST_TEST(read_file(in.path("a.npy")) == read_file(in.path("c.npy")));
}

BOOST_AUTO_TEST_CASE(compile_cpu_is_deterministic_and_builds) {
  TempDir a, b;
  auto r1 = run_command(attnc("compile samples/gemma2.attn -t cpu -o " + a.path().string()));
  auto r2 = run_command(attnc("compile samples/gemma2.attn -t cpu -o " + b.path().string()));
  BOOST_REQUIRE_MESSAGE(r1.status == 0, r1.output);
  BOOST_REQUIRE_MESSAGE(r2.status == 0, r2.output);
  size_t files = 0;
  for (const auto& f : files_under(a.path(), "")) {
    ++files;
    const auto rel = f.lexically_relative(a.path());
    BOOST_TEST(read_file(f) == read_file(b.path() / rel), rel << " differs between runs");
    // No absolute paths or timestamps leak into the output.
    BOOST_TEST(read_file(f).find(a.path().string()) == std::string::npos);
  }
  BOOST_TEST(files == 7u);  // two kernels x (.cpp, .h), manifest.json, dlpack/{dlpack.h,LICENSE}
  // Every vector path by default (gemma2's kernels are bf16: the matrix paths too), and the manifest
  // says so.
  auto manifest = nlohmann::json::parse(read_file(a.path() / "manifest.json"));
  for (const auto& k : manifest["kernels"])
    BOOST_TEST(k["cpu_paths"] == nlohmann::json({"amx", "avx512bf16", "avx512", "avx2", "portable"}),
               k["name"]);
  // The output folder alone suffices (its DLPack header, not the system's), with no -m flags.
  auto cc = run_command("c++ -std=c++17 -fsyntax-only -H -Wall -Wextra -Werror -I" + a.path().string() + " " +
                        (a.path() / "gemma2_local.cpp").string());
  BOOST_TEST(cc.output.find((a.path() / "dlpack/dlpack.h").string()) != std::string::npos, cc.output);
  BOOST_TEST(cc.status == 0, cc.output);
  auto bad = run_command(attnc("compile samples/gemma2.attn -t nosuch -o " + a.path().string()));
  BOOST_TEST(bad.status != 0);
  BOOST_TEST(
      bad.output.find("unknown target 'nosuch' (targets: reference, cpu, cuda, vulkan)") != std::string::npos,
      bad.output);
  auto isa =
      run_command(attnc("compile samples/gemma2.attn -t cpu --cpu-isa avx2,sse9 -o " + a.path().string()));
  BOOST_TEST(isa.status != 0);
  BOOST_TEST(isa.output.find("unknown CPU path 'sse9' (amx, avx512bf16, avx512, avx2, portable, host)") !=
                 std::string::npos,
             isa.output);
}

BOOST_AUTO_TEST_CASE(compile_several_files_writes_one_manifest) {
  TempDir a, b;
  const std::string files = " samples/gemma2.attn samples/t5.attn -t cpu --cpu-isa portable -o ";
  auto r = run_command(attnc("compile" + files + a.path().string()));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  auto manifest = nlohmann::json::parse(read_file(a.path() / "manifest.json"));
  BOOST_TEST(manifest["sources"] == nlohmann::json({"gemma2.attn", "t5.attn"}));
  std::set<std::string> sources;
  for (const auto& k : manifest["kernels"]) {
    sources.insert(k["source"].get<std::string>());
    BOOST_TEST(k["cpu_paths"] == nlohmann::json({"portable"}));
    for (const auto& f : k["files"]["cpu"]) BOOST_TEST(fs::exists(a.path() / f.get<std::string>()), f);
  }
  BOOST_TEST(sources == (std::set<std::string>{"gemma2.attn", "t5.attn"}));
  // A rerun into the same folder writes the same bytes.
  auto before = read_file(a.path() / "manifest.json");
  auto again = run_command(attnc("compile" + files + a.path().string()));
  BOOST_REQUIRE_MESSAGE(again.status == 0, again.output);
  BOOST_TEST(read_file(a.path() / "manifest.json") == before);
  // Two files that define the same kernel cannot share a folder.
  auto twice =
      run_command(attnc("compile samples/gemma2.attn samples/gemma2.attn -t cpu -o " + b.path().string()));
  BOOST_TEST(twice.status != 0);
  BOOST_TEST(twice.output.find("a kernel named 'gemma2_local' is already compiled") != std::string::npos,
             twice.output);
}

BOOST_AUTO_TEST_CASE(compile_cuda_pins_a_tile_shape) {
  TempDir a;
  const std::string base =
      "compile samples/gemma2.attn -t cuda --kernel gemma2_global --cuda-sm 90 -o " + a.path().string();
  auto table = run_command(attnc(base));
  BOOST_REQUIRE_MESSAGE(table.status == 0, table.output);
  BOOST_TEST(read_file(a.path() / "gemma2_global.cu").find("#define ATTN_BM 64\n") != std::string::npos);
  auto pinned = run_command(attnc(base + " --cuda-tiles 'mma 64x32 warps=4 stages=2'"));
  BOOST_REQUIRE_MESSAGE(pinned.status == 0, pinned.output);
  const std::string cu = read_file(a.path() / "gemma2_global.cu");
  BOOST_TEST(cu.find("#define ATTN_BN 32\n") != std::string::npos);
  BOOST_TEST(cu.find("#define ATTN_STAGES 2\n") != std::string::npos);
  auto garbage = run_command(attnc(base + " --cuda-tiles 'mma 100x3'"));
  BOOST_TEST(garbage.status == 1);
  BOOST_TEST(garbage.output.find("is not a tile shape") != std::string::npos, garbage.output);
  auto too_big = run_command(attnc(base + " --cuda-tiles 'mma 128x128 warps=8 stages=4'"));
  BOOST_TEST(too_big.status == 1);
  // A backend limit is a diagnostic at the kernel's name.
  BOOST_TEST(too_big.output.find("samples/gemma2.attn:15:8: error: tile shape 'mma 128x128 warps=8 stages=4' "
                                 "needs ") == 0,
             too_big.output);
  BOOST_TEST(too_big.output.find("bytes of shared memory; sm_90 has") != std::string::npos, too_big.output);
}

// --cuda-backward writes the backward wherever the tensor-core backward applies (bf16/f16, head
// dims 64 or 128) and skips the rest; without it only `backward = true` writes one.
BOOST_AUTO_TEST_CASE(compile_cuda_backward_where_it_applies) {
  TempDir dir;
  const std::string file = (dir.path() / "k.attn").string();
  write_file(file,
             "kernel half_k { mask = q >= kv; dtype = bf16; head_dim = 64; }\n"
             "kernel float_k { mask = q >= kv; head_dim = 64; }\n"
             "kernel wide_k { mask = q >= kv; dtype = f16; head_dim = 256; }\n");
  const fs::path out = dir.path() / "out";
  auto with = run_command(attnc("compile " + file + " -t cuda --cuda-backward -o " + out.string()));
  BOOST_REQUIRE_MESSAGE(with.status == 0, with.output);
  BOOST_TEST(fs::exists(out / "half_k_backward.cu"));
  BOOST_TEST(read_file(out / "half_k_backward.cu").find("#define ATTN_BWD_DQ attn_bwd_dq_half_k") !=
             std::string::npos);
  BOOST_TEST(!fs::exists(out / "float_k_backward.cu"));  // f32: no tensor-core backward
  BOOST_TEST(!fs::exists(out / "wide_k_backward.cu"));   // head dim 256: none either
  BOOST_TEST(fs::exists(out / "float_k.cu"));
  const auto manifest = nlohmann::json::parse(read_file(out / "manifest.json"));
  BOOST_TEST(manifest["kernels"][0]["files"]["cuda"].size() == 4u);
  BOOST_TEST(manifest["kernels"][1]["files"]["cuda"].size() == 2u);
  const fs::path plain = dir.path() / "plain";
  auto without = run_command(attnc("compile " + file + " -t cuda -o " + plain.string()));
  BOOST_REQUIRE_MESSAGE(without.status == 0, without.output);
  BOOST_TEST(!fs::exists(plain / "half_k_backward.cu"));
}

BOOST_AUTO_TEST_CASE(bench_reports_times_and_rates) {
  TempDir dir;
  std::string file = (dir.path() / "b.attn").string();
  write_file(file, "kernel c { mask = q >= kv; }\n");
  auto r = run_command(attnc("bench " + file + " c --shape 1,2,64,16 -t reference --iters 3 --json"));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(r.output.find("\"median\"") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("\"density\": 0.5078125") != std::string::npos, r.output);  // (64*65/2) / 64^2
  auto table = run_command(attnc("bench " + file + " c --shape 1,2,64,16 -t reference --iters 2"));
  BOOST_TEST(table.status == 0, table.output);
  BOOST_TEST(table.output.find("GFLOP/s") != std::string::npos, table.output);
  auto bad = run_command(attnc("bench " + file + " c --shape 1,2,x,16"));
  BOOST_TEST(bad.status == 1);
  BOOST_TEST(bad.output.find("'x' is not a positive integer") != std::string::npos, bad.output);
}

BOOST_AUTO_TEST_CASE(bench_times_a_serving_trace) {
  // docs/guide.md, "Paged KV caches": `attnc bench --serving` on a trace of samples/serving's format
  // (small here: a prefill chunk, a decoding token, a whole prompt), on the reference and cpu.
  TempDir dir;
  const std::string file = (dir.path() / "s.attn").string(), trace = (dir.path() / "trace.json").string();
  write_file(file, "kernel paged { mask = kv <= q; }\n");
  write_file(trace, R"({"page_size": 8, "heads": 4, "kv_heads": 2, "head_dim": 16,
                        "requests": [{"q_len": 5, "kv_len": 21}, {"q_len": 1, "kv_len": 40}, {"q_len": 9, "kv_len": 9}]})");
  for (const char* target : {"reference", "cpu"}) {
    auto r =
        run_command(attnc("bench " + file + " --serving " + trace + " -t " + target + " --iters 2 --json"));
    BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
    BOOST_TEST(r.output.find("\"query_tokens\": 15") != std::string::npos, r.output);
    BOOST_TEST(r.output.find("\"pages\": 10") != std::string::npos, r.output);  // 3 + 5 + 2 of 8 keys
    BOOST_TEST(r.output.find("\"tokens_per_s\"") != std::string::npos, r.output);
  }
  write_file(
      trace,
      R"({"page_size": 8, "heads": 4, "kv_heads": 2, "head_dim": 16, "requests": [{"q_len": 5, "kv_len": 2}]})");
  auto bad = run_command(attnc("bench " + file + " --serving " + trace));
  BOOST_TEST(bad.status == 1);
  BOOST_TEST(bad.output.find("q_len 5 and kv_len 2") != std::string::npos, bad.output);
  auto neither = run_command(attnc("bench " + file));
  BOOST_TEST(neither.status != 0);
  BOOST_TEST(neither.output.find("--serving TRACE.json") != std::string::npos, neither.output);
}

BOOST_AUTO_TEST_CASE(bool_buffers_take_uint8_on_every_target_and_args_once) {
  // A bool buffer may come as NumPy bool or uint8 (any non-zero byte true), on every target alike.
  Inputs in("kernel g(keep: tensor<bool>[len]) { mask = keep[kv] || kv == q; lse = true; }\n", {1, 2, 50, 16},
            {1, 2, 50, 16}, {1, 2, 50, 16});
  HostTensor as_bool(ScalarType::Bool, {50}), as_u8(ScalarType::U8, {50});
  for (int64_t j = 0; j < 50; ++j) {
    as_bool.set(j, j % 3 == 0);
    as_u8.set(j, j % 3 == 0 ? 1 + j % 7 : 0);  // true as 1..7
  }
  write_npy(in.path("keep_b.npy"), as_bool);
  write_npy(in.path("keep_u.npy"), as_u8);
  auto run = [&](const std::string& keep, const std::string& target, const std::string& out) {
    return run_command(attnc("run " + in.file + " g " + in.qkv() + " --arg keep=" + in.path(keep) + " -o " +
                             in.path(out) + " -t " + target));
  };
  auto r = run("keep_b.npy", "reference", "want.npy");
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  const HostTensor want = read_npy(in.path("want.npy"));
  for (const char* target : {"reference", "cpu", "vulkan"}) {
    r = run("keep_u.npy", target, "got.npy");
    BOOST_REQUIRE_MESSAGE(r.status == 0, target << ": " << r.output);
    const HostTensor got = read_npy(in.path("got.npy"));
    double worst = 0;
    for (int64_t i = 0; i < got.numel(); ++i) worst = std::max(worst, std::fabs(got.get(i) - want.get(i)));
    BOOST_TEST(worst <= 1e-5, target);
  }
  // --arg twice is an error, not "the last one wins".
  r = run_command(attnc("run " + in.file + " g " + in.qkv() + " --arg keep=" + in.path("keep_b.npy") +
                        " --arg keep=" + in.path("keep_u.npy") + " -o " + in.path("x.npy")));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("--arg keep is given twice") != std::string::npos, r.output);
}
