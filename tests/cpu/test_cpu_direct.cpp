// Generated CPU kernels called directly through their C ABI, as a project that checks them in
// calls them: with no key ranges a buffer-mask kernel plans its keys itself (the planner it carries,
// fixed/SelfPlan.h) and gives what `attnc run` gives; wrong dtypes are named in its messages. Its
// worker threads (fixed/RuntimeContext.h's WorkerPool) serve calls of any thread count, calls from
// several threads at once, and a child after fork().
#define BOOST_TEST_MODULE cpu_direct
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "attn/kernel_backward_abi.h"
#include "attn/loader.hpp"
#include "runtime/KernelCallArgs.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kProgram = R"attn(
import std.documents;
kernel doc_causal(doc: tensor<i32>[len]) { mask = document_causal(doc); lse = true; }
kernel vsa(topk: tensor<i32>[heads, tiles, top_k]) { mask = topk_tiles(topk, 64); lse = true; }
kernel doc_window(doc: tensor<i32>[len], w: int) { mask = doc[q] == doc[kv] && kv <= q && q - kv < w; }
// Queries whose doc is -1 would read start[-1]: the mask's `&&` guards the read (docs/language.md),
// also in a tile that holds both kinds of rows.
kernel padded(doc: tensor<i32>[len], start: tensor<i32>[docs]) {
  mask = doc[q] >= 0 && start[doc[q]] <= kv && kv <= q;
  lse = true;
}
)attn";

struct Case {
  std::string kernel;
  int64_t Lq, Lkv;
};

/// Inputs of `c` at lengths Lq, Lkv (B 1, 2 heads, D 64) with buffers that make its plan sparse.
KernelInputs inputs_for(const CpuCompiled& c, int64_t Lq, int64_t Lkv, std::mt19937& rng) {
  KernelInputs in;
  in.q = random_tensor(ScalarType::F32, {1, 2, Lq, 64}, rng);
  in.k = random_tensor(ScalarType::F32, {1, 2, Lkv, 64}, rng);
  in.v = random_tensor(ScalarType::F32, {1, 2, Lkv, 64}, rng);
  const int64_t n = std::max(Lq, Lkv);
  HostTensor doc(ScalarType::I32, {n});
  std::uniform_int_distribution<int> cut(0, 60);
  for (int64_t i = 0, d = 0; i < n; ++i) doc.set(i, int(cut(rng) == 0 ? ++d : d));
  for (const KernelArg& a : c.ir->args) {
    if (a.name == "doc" && c.ir->name == "padded") {
      // Documents of 50 from 0, then padding (-1) from query 110 on, inside a tile of every path
      // (16, 24 and 32 rows).
      for (int64_t i = 0; i < n; ++i) doc.set(i, i < 110 ? int(i / 50) : -1);
      in.buffers["doc"] = doc;
      HostTensor start(ScalarType::I32, {3});
      for (int d = 0; d < 3; ++d) start.set(d, 50 * d);
      in.buffers["start"] = start;
    } else if (a.name == "doc") {
      in.buffers["doc"] = doc;
    } else if (a.name == "topk") {
      const int64_t q_tiles = (Lq + 63) / 64, kv_tiles = (Lkv + 63) / 64;
      // The same tiles for both heads: one plan holds for every head, so it visits their union.
      HostTensor topk(ScalarType::I32, {2, q_tiles, 2});
      std::uniform_int_distribution<int64_t> tile(0, kv_tiles - 1);
      for (int64_t i = 0; i < topk.numel() / 2; ++i) topk.set(i, int(tile(rng)));
      for (int64_t i = topk.numel() / 2; i < topk.numel(); ++i)
        topk.set(i, int(topk.get(i - topk.numel() / 2)));
      in.buffers["topk"] = topk;
    } else if (a.name == "w") {
      in.scalars["w"] = 70;
    }
  }
  return in;
}

std::string describe(const Case& k) {
  return k.kernel + " Lq=" + std::to_string(k.Lq) + " Lkv=" + std::to_string(k.Lkv);
}

// Compares the kernel's own plan with the arguments' kv_ranges (what attn::cpu_key_ranges gives)
// from inside the generated source, and reports how many (query, key) positions the plan visits.
const char* kPlanProbe = R"cpp(
  extern "C" __attribute__((visibility("default"))) int attn_self_plan_probe(const attn_kernel_args* args) {
    const int64_t Lq = args->q->shape[2], Lk = args->k->shape[2];
    SelfPlan plan;
    if (!plan.make(Lq, Lk, args->buffers, args->scalars))
      return snprintf(args->error, args->error_size, "no plan"), 1;
    const attn_tile_eval::KeyRanges& k = plan.keys;
    const size_t blocks = k.ranges.size() / 2;
    bool same = k.block_q == args->kv_ranges_block_q && k.run_starts[blocks] * 2 == int64_t(k.runs.size());
    for (size_t i = 0; same && i < k.ranges.size(); ++i) same = k.ranges[i] == args->kv_ranges[i];
    for (size_t i = 0; same && i <= blocks; ++i) same = k.run_starts[i] == args->kv_run_starts[i];
    for (size_t i = 0; same && i < k.runs.size(); ++i) same = k.runs[i] == args->kv_runs[i];
    if (!same) return snprintf(args->error, args->error_size, "the plans differ"), 1;
    long long visited = 0;
    for (size_t b = 0; b < blocks; ++b) {
      const int64_t rows = Lq - int64_t(b) * k.block_q < k.block_q ? Lq - int64_t(b) * k.block_q : k.block_q;
      for (int64_t r = k.run_starts[b]; r < k.run_starts[b + 1]; ++r)
        visited += rows * (k.runs[2 * r + 1] - k.runs[2 * r]);
    }
    snprintf(args->error, args->error_size, "%lld", visited);
    return 0;
  }
)cpp";

}  // namespace

BOOST_AUTO_TEST_CASE(a_direct_call_plans_buffer_masks_as_attnc_run_does) {
  // Without kv_ranges (and with a version-1 caller, which has none) the kernel plans itself: the
  // same Out and LSE, bit for bit, as with the run-time planner's ranges and as run_cpu_kernel.
  std::mt19937 rng(41);
  const Case cases[] = {{"doc_causal", 333, 333},
                        {"doc_causal", 200, 517},
                        {"vsa", 300, 450},
                        {"doc_window", 401, 401},
                        {"padded", 200, 200}};
  for (const Case& k : cases) {
    const CpuCompiled& c = compile_cpu(kProgram, k.kernel);
    KernelInputs in = inputs_for(c, k.Lq, k.Lkv, rng);
    const bool lse = c.ir->options.lse;
    CpuKeyRanges ranges = cpu_key_ranges(*c.ir, in);
    BOOST_REQUIRE_MESSAGE(!ranges.ranges.empty(), describe(k));
    CpuRun planned = run_cpu(c, in, lse, false, 2, &ranges);
    BOOST_REQUIRE_MESSAGE(planned.status == 0, describe(k) << ": " << planned.error);
    KernelOutputs run = run_cpu_kernel(*c.ir, in, 2);
    BOOST_TEST(max_abs_diff(run.out, planned.outputs.out) == 0, describe(k) << ": run_cpu_kernel");
    for (int version : {ATTN_KERNEL_ABI_VERSION, 1}) {
      CpuRun direct = run_cpu(c, in, lse, false, 2, nullptr, version);
      BOOST_REQUIRE_MESSAGE(direct.status == 0, describe(k) << " v" << version << ": " << direct.error);
      BOOST_TEST(max_abs_diff(direct.outputs.out, planned.outputs.out) == 0, describe(k) << " v" << version);
      if (lse)
        BOOST_TEST(max_abs_diff(direct.outputs.lse, planned.outputs.lse) == 0, describe(k)
                                                                                   << " v" << version);
    }
    KernelOutputs want = run_reference(*c.ir, in, 2);
    BOOST_TEST(max_abs_diff(planned.outputs.out, want.out) <= 2e-4, describe(k) << ": reference");
  }
}

BOOST_AUTO_TEST_CASE(the_plan_a_kernel_makes_is_the_run_time_planners) {
  // Inside the generated source, the kernel's own plan against cpu_key_ranges: equal, and it
  // skips most keys (documents of ~60 keys, top-2 of 8 key tiles).
  std::mt19937 rng(43);
  for (const Case& k : {Case{"doc_causal", 333, 333}, Case{"vsa", 300, 500}}) {
    const CpuCompiled& c = compile_cpu(kProgram, k.kernel);
    CpuCompiled probe{c.ir, c.source, nullptr};
    probe.source.source += kPlanProbe;
    probe.source.entry = "attn_self_plan_probe";
    probe.kernel = compile_cpu_kernel(probe.source);
    KernelInputs in = inputs_for(c, k.Lq, k.Lkv, rng);
    CpuKeyRanges ranges = cpu_key_ranges(*c.ir, in);
    CpuRun got = run_cpu(probe, in, c.ir->options.lse, false, 2, &ranges);
    BOOST_REQUIRE_MESSAGE(got.status == 0, describe(k) << ": " << got.error);
    const long long visited = std::stoll(got.error);
    BOOST_TEST(visited > 0, describe(k));
    BOOST_TEST(visited * 2 < k.Lq * k.Lkv, describe(k) << ": visits " << visited);
  }
}

BOOST_AUTO_TEST_CASE(wrong_dtypes_are_named) {
  std::mt19937 rng(47);
  const CpuCompiled& c = compile_cpu(kProgram, "doc_causal");
  KernelInputs in = inputs_for(c, 40, 40, rng);
  KernelInputs wide_q = in;
  wide_q.q = HostTensor(ScalarType::I64, {1, 2, 40, 64});
  CpuRun got = run_cpu(c, wide_q, true);
  BOOST_TEST(got.status != 0);
  BOOST_TEST(got.error.find("doc_causal: q has element type i64, expected f32") != std::string::npos,
             got.error);
  KernelInputs bf16_doc = in;
  bf16_doc.buffers["doc"] = HostTensor(ScalarType::BF16, {40});
  got = run_cpu(c, bf16_doc, true);
  BOOST_TEST(got.status != 0);
  BOOST_TEST(got.error.find("buffer 'doc' has element type bf16, expected i32") != std::string::npos,
             got.error);
}

BOOST_AUTO_TEST_CASE(a_direct_backward_call_plans_itself_too) {
  // The backward's entry without kv_ranges against run_cpu_backward (which passes the run-time
  // planner's): dQ, dK and dV bit for bit.
  std::mt19937 rng(53);
  const CpuCompiled& c = compile_cpu(kProgram, "doc_causal");
  KernelInputs in = inputs_for(c, 277, 277, rng);
  GradientRequest request;
  request.dout = random_tensor(ScalarType::F32, {1, 2, 277, 64}, rng);
  KernelGradients want = run_cpu_backward(*c.ir, in, request, 2);
  KernelOutputs fwd = run_cpu_kernel(*c.ir, in, 2);
  Kernel backward = process_loader().get(cpu_kernel_request(generate_cpu_backward(*c.ir, host_cpu_target())));
  KernelGradients got = make_gradients(*c.ir, in, request);
  DLTensor q = host_view(in.q), k = host_view(in.k), v = host_view(in.v), out = host_view(fwd.out),
           lse = host_view(fwd.lse);
  DLTensor dout = host_view(request.dout), dq = host_view(got.dq), dk = host_view(got.dk),
           dv = host_view(got.dv);
  DLTensor doc = host_view(in.buffers.at("doc"));
  const DLTensor* buffers[] = {&doc};
  DLTensor* grads[] = {nullptr};
  char error[1024] = "";
  attn_backward_args args{};
  args.abi_version = ATTN_BACKWARD_ABI_VERSION;
  args.q = &q, args.k = &k, args.v = &v, args.out = &out, args.lse = &lse, args.dout = &dout;
  args.dq = &dq, args.dk = &dk, args.dv = &dv;
  args.buffers = buffers, args.buffer_grads = grads, args.num_buffers = 1;
  args.num_threads = 2, args.error = error, args.error_size = sizeof error;
  BOOST_REQUIRE_MESSAGE(reinterpret_cast<attn_backward_fn>(backward.entry())(&args) == 0, error);
  BOOST_TEST(max_abs_diff(got.dq, want.dq) == 0);
  BOOST_TEST(max_abs_diff(got.dk, want.dk) == 0);
  BOOST_TEST(max_abs_diff(got.dv, want.dv) == 0);
}

BOOST_AUTO_TEST_CASE(worker_threads_serve_every_caller) {
  // 22 tasks (11 query tiles, 2 heads): no split-KV at up to 4 threads, so every call gives the same
  // bits whatever its thread count, whichever threads run it.
  std::mt19937 rng(59);
  const CpuCompiled& c = compile_cpu(kProgram, "doc_causal");
  const KernelInputs in = inputs_for(c, 333, 333, rng);
  const CpuRun one = run_cpu(c, in, true, false, 1);
  BOOST_REQUIRE_MESSAGE(one.status == 0, one.error);
  auto same = [&](const CpuRun& r) {
    return r.status == 0 && max_abs_diff(r.outputs.out, one.outputs.out) == 0 &&
           max_abs_diff(r.outputs.lse, one.outputs.lse) == 0;
  };
  for (int threads : {2, 4, 3, 2})  // the pool grows to 3 workers, then serves fewer
    BOOST_TEST(same(run_cpu(c, in, true, false, threads)), threads << " threads");
  // Four callers at once: one has the workers, the others start their own threads.
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int i = 0; i < 3; ++i)
        if (!same(run_cpu(c, in, true, false, 2))) ++wrong;
    });
  for (std::thread& t : callers) t.join();
  BOOST_TEST(wrong.load() == 0);
  // A child after fork() has none of the parent's workers: its calls start their own threads (a
  // call that waited for the parent's would hang; the alarm ends it).
  const pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    alarm(60);
    _exit(same(run_cpu(c, in, true, false, 2)) ? 0 : 1);
  }
  int status = 0;
  BOOST_REQUIRE(waitpid(child, &status, 0) == child);
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0), "the child's call, status " << status);
}
