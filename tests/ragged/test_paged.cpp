// Paged KV caches (docs/guide.md, "Paged KV caches"): packed queries (cu_seqlens_q), K/V pages
// [pages, page_size, Hkv, D], an i32 page table [N, max_pages] and kv_lens [N]; a sequence's queries
// are its last tokens. The reference against itself on each sequence's keys gathered into a dense
// batch; the CPU kernels against the reference with pages out of order, a page shared between two
// sequences, page sizes 5, 8 and 64, chunked prefill starting mid-page, decoding (split-KV) and every
// row past kv_len and every unused page NaN (never read); the vulkan target likewise (a dispatch
// per sequence, its keys gathered); and the errors, on the host and in the kernel's own checks.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <tuple>

#include "backends/Backend.h"
#include "backends/io/RaggedBatch.h"
#include "backends/reference/Reference.h"
#include "runtime/KernelCallArgs.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/ragged/RaggedSupport.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kPagedProgram = R"attn(
import std.masks;
kernel causal_lse { mask = causal; lse = true; return_max = true; }
// A mask that reads a buffer at query and key positions (planned per sequence), a score reading `b`.
kernel windowed_docs(doc: tensor<i32>[len], bias: tensor<f32>[batch]) {
  mask = doc[q] == doc[kv] && abs(q - kv) < 40;
  score = score + bias[b];
  lse = true;
}
kernel sinks_per_head(sinks: tensor<f32>[heads]) { mask = kv <= q - 3; sink = sinks[h]; lse = true; }
kernel causal_bf16 { mask = causal; dtype = bf16; lse = true; }
kernel all_keys { lse = true; }
// The call's lengths are the sequence's own (a paged sequence's queries are its last tokens of a
// batch of one with q_len = kv_len): causal_from_end, a score and a sink that read them.
kernel from_end { mask = causal_from_end; score = score + float(kv_len - q_len) * 0.01; sink = float(q_len % 5) - 2.0; lse = true; }
kernel from_end_bf16 { mask = causal_from_end && kv >= kv_len - 300; dtype = bf16; lse = true; }
)attn";

struct PagedBatch {
  std::vector<int64_t> q_lens, kv_lens;
  int64_t page_size;
};
// Chunked prefill from mid-page and mid-tile, a whole prompt, a sequence with no queries, a one-key
// sequence; decoding over 1-2049 keys (split-KV); a page size that is not a multiple of 8.
const PagedBatch kPagedBatches[] = {
    {{5, 37, 1, 0, 100, 1}, {5, 77, 300, 9, 100, 1}, 8},
    {{1, 1, 1, 1}, {1, 700, 33, 2049}, 64},
    {{16, 3}, {130, 67}, 5},
};

/// Random queries, and a cache whose used rows are random and every other row NaN: pages in a
/// shuffled order with spare pages between them, sequence 1's first page shared with sequence 0's
/// (a common prefix), table entries past a sequence's last page -1.
KernelInputs paged_inputs(const KernelIR& ir, const PagedBatch& batch, ScalarType t, int Hq, int Hkv, int D,
                          std::mt19937& rng) {
  const int64_t N = int64_t(batch.q_lens.size()), ps = batch.page_size;
  int64_t needed = 0, max_pages = 1, longest = 1;
  for (int64_t len : batch.kv_lens) {
    needed += (len + ps - 1) / ps;
    max_pages = std::max(max_pages, (len + ps - 1) / ps + 1);
    longest = std::max(longest, len);
  }
  const int64_t P = needed + 3;
  std::vector<int32_t> order(static_cast<size_t>(P));
  for (int64_t i = 0; i < P; ++i) order[size_t(i)] = int32_t(i);
  std::shuffle(order.begin(), order.end(), rng);
  KernelInputs in;
  in.q = random_tensor(t, {total(batch.q_lens), Hq, D}, rng);
  in.cu_seqlens_q = boundaries(batch.q_lens);
  in.kv_lens = HostTensor(ScalarType::I32, {N});
  in.page_table = HostTensor(ScalarType::I32, {N, max_pages});
  const HostTensor k_rand = random_tensor(t, {P, ps, Hkv, D}, rng),
                   v_rand = random_tensor(t, {P, ps, Hkv, D}, rng);
  in.k = HostTensor(t, {P, ps, Hkv, D}), in.v = HostTensor(t, {P, ps, Hkv, D});
  for (int64_t i = 0; i < in.k.numel(); ++i) in.k.set(i, NAN), in.v.set(i, NAN);
  size_t next = 0;
  for (int64_t b = 0; b < N; ++b) {
    in.kv_lens.set(b, double(batch.kv_lens[size_t(b)]));
    const int64_t used = (batch.kv_lens[size_t(b)] + ps - 1) / ps;
    for (int64_t p = 0; p < max_pages; ++p) {
      int64_t page = -1;
      if (p < used)
        page = b == 1 && p == 0 && in.page_table.get(0) >= 0 ? in.page_table.get(0) : order[next++];
      in.page_table.set(b * max_pages + p, double(page));
    }
    for (int64_t j = 0; j < batch.kv_lens[size_t(b)]; ++j) {
      const int64_t page = int64_t(in.page_table.get(b * max_pages + j / ps));
      for (int64_t i = ((page * ps + j % ps) * Hkv) * D; i < ((page * ps + j % ps + 1) * Hkv) * D; ++i)
        in.k.set(i, k_rand.get(i)), in.v.set(i, v_rand.get(i));
    }
  }
  std::uniform_int_distribution<int> doc(0, 2);
  std::normal_distribution<double> n(0.0, 1.0);
  for (const KernelArg& a : ir.args) {
    const int64_t count = a.name == "doc" ? longest : a.name == "sinks" ? Hq : N;
    HostTensor buf(a.name == "doc" ? ScalarType::I32 : ScalarType::F32, {count});
    for (int64_t i = 0; i < count; ++i) buf.set(i, a.name == "doc" ? double(i / 23 + doc(rng) / 2) : n(rng));
    in.buffers[a.name] = buf;
  }
  return in;
}

/// Sequence b of a paged call as a dense batch of one over all its kv_len positions: its keys
/// gathered from the pages, its queries in the last q_len rows (random rows before them), its
/// buffers as it sees them (`bias` moved so that entry 0 is entry b).
KernelInputs gathered(const KernelInputs& in, const Sequence& s, int64_t b, std::mt19937& rng) {
  const int64_t Hq = in.q.shape[1], D = in.q.shape[2], ps = in.k.shape[1], Hkv = in.k.shape[2];
  KernelInputs one;
  one.q = random_tensor(in.q.type, {1, Hq, s.kv_len, D}, rng);
  for (int64_t h = 0; h < Hq; ++h)
    for (int64_t i = 0; i < s.q_len; ++i)
      for (int64_t d = 0; d < D; ++d)
        one.q.set((h * s.kv_len + s.q_pos + i) * D + d, in.q.get(((s.q_first + i) * Hq + h) * D + d));
  one.k = HostTensor(in.k.type, {1, Hkv, s.kv_len, D});
  one.v = HostTensor(in.v.type, {1, Hkv, s.kv_len, D});
  for (int64_t h = 0; h < Hkv; ++h)
    for (int64_t j = 0; j < s.kv_len; ++j)
      for (int64_t d = 0; d < D; ++d) {
        const int64_t from = ((s.pages[size_t(j / ps)] * ps + j % ps) * Hkv + h) * D + d;
        one.k.set((h * s.kv_len + j) * D + d, in.k.get(from));
        one.v.set((h * s.kv_len + j) * D + d, in.v.get(from));
      }
  one.scalars = in.scalars;
  one.buffers = in.buffers;
  if (one.buffers.count("bias")) one.buffers.at("bias").set(0, in.buffers.at("bias").get(b));
  return one;
}

/// Rows (q_first + i, h) of a packed output [Tq, Hq, C] against rows (0, h, q_pos + i) of the
/// gathered dense one [1, Hq, kv_len, C].
double last_rows_diff(const HostTensor& packed, const HostTensor& dense, const Sequence& s) {
  const int64_t H = packed.shape[1], C = packed.shape.size() == 3 ? packed.shape[2] : 1;
  double worst = 0;
  for (int64_t h = 0; h < H; ++h)
    for (int64_t i = 0; i < s.q_len; ++i)
      for (int64_t c = 0; c < C; ++c) {
        const double a = packed.get(((s.q_first + i) * H + h) * C + c),
                     b = dense.get((h * s.kv_len + s.q_pos + i) * C + c);
        if (a == b) continue;  // equal infinities
        worst = std::max(worst, std::isnan(a) || std::isnan(b) ? INFINITY : std::fabs(a - b));
      }
  return worst;
}

}  // namespace

BOOST_AUTO_TEST_CASE(reference_pages_are_the_gathered_sequence) {
  std::mt19937 rng(11);
  for (const char* name : {"causal_lse", "windowed_docs", "sinks_per_head", "from_end"}) {
    auto ir = lower_text(kPagedProgram, name);
    for (const PagedBatch& batch : kPagedBatches) {
      KernelInputs in = paged_inputs(*ir, batch, ScalarType::F32, 4, 2, 16, rng);
      const KernelOutputs got = run_reference(*ir, in, 2);
      BOOST_TEST(got.out.shape == (std::vector<int64_t>{in.q.shape[0], 4, 16}));
      const std::vector<Sequence> seqs = ragged_sequences(in);
      for (size_t b = 0; b < seqs.size(); ++b) {
        if (seqs[b].q_len == 0) continue;
        BOOST_TEST(seqs[b].q_pos == seqs[b].kv_len - seqs[b].q_len);
        const KernelOutputs want = run_reference(*ir, gathered(in, seqs[b], int64_t(b), rng), 1);
        BOOST_TEST(last_rows_diff(got.out, want.out, seqs[b]) == 0.0, name << " sequence " << b);
        BOOST_TEST(last_rows_diff(got.lse, want.lse, seqs[b]) == 0.0, name << " sequence " << b);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(cpu_matches_the_reference_on_pages) {
  std::mt19937 rng(12);
  check_cpu_against_reference(kPagedProgram,
                              std::vector<PagedBatch>(std::begin(kPagedBatches), std::end(kPagedBatches)),
                              [&](const KernelIR& ir, const auto& batch, ScalarType type, int Hq, int Hkv,
                                  int D) { return paged_inputs(ir, batch, type, Hq, Hkv, D, rng); });
}

BOOST_AUTO_TEST_CASE(vulkan_matches_the_reference_on_pages) {
  std::mt19937 rng(15);
  check_vulkan_against_reference(kPagedProgram,
                                 std::vector<PagedBatch>(std::begin(kPagedBatches), std::end(kPagedBatches)),
                                 [&](const KernelIR& ir, const auto& batch, ScalarType type, int Hq, int Hkv,
                                     int D) { return paged_inputs(ir, batch, type, Hq, Hkv, D, rng); });
}

BOOST_AUTO_TEST_CASE(bad_pages_are_errors_everywhere) {
  std::mt19937 rng(13);
  auto ir = lower_text(kPagedProgram, "causal_lse");
  const KernelInputs good = paged_inputs(*ir, kPagedBatches[0], ScalarType::F32, 2, 1, 16, rng);
  const int64_t max_pages = good.page_table.shape[1], pages = good.k.shape[0];
  struct Case {
    const char* what;
    std::function<void(KernelInputs&)> spoil;
    const char* message;
    bool kernel_checks;  // also reaches the kernel's own checks (a direct call)
  };
  const Case cases[] = {
      {"page out of range", [&](KernelInputs& in) { in.page_table.set(2 * max_pages + 1, double(pages)); },
       "outside the cache's", true},
      {"negative page", [&](KernelInputs& in) { in.page_table.set(0, -1); }, "outside the cache's", true},
      {"more keys than pages", [&](KernelInputs& in) { in.kv_lens.set(1, double(max_pages * 8 + 1)); },
       "hold", true},
      {"more queries than keys", [](KernelInputs& in) { in.kv_lens.set(1, 20); }, "queries but 20 keys",
       true},
      {"cu_seqlens_k too",
       [](KernelInputs& in) {
         in.cu_seqlens_k = boundaries({5, 77, 300, 9, 100, 1});
       },
       "cu_seqlens_k", true},
      {"kv_lens of another length", [](KernelInputs& in) { in.kv_lens = HostTensor(ScalarType::I32, {3}); },
       "kv_lens", true},
      {"f32 page table", [](KernelInputs& in) { in.page_table.type = ScalarType::F32; }, "i32", true},
      {"no kv_lens", [](KernelInputs& in) { in.kv_lens = HostTensor(); }, "kv_lens", true},
  };
  const CpuCompiled& compiled = compile_cpu(kPagedProgram, "causal_lse");
  for (const Case& c : cases) {
    KernelInputs in = good;
    c.spoil(in);
    for (const char* target : {"reference", "cpu", "vulkan"}) {
      const std::string message = message_of([&] { find_backend(target, Capability::Run).run(*ir, in, 2); });
      BOOST_TEST(message.find(c.message) != std::string::npos,
                 target << " " << c.what << ": '" << message << "'");
    }
    if (!c.kernel_checks) continue;
    // The generated kernel's own checks, past the host's: a direct call through the C ABI.
    KernelOutputs out = make_outputs(*ir, good);
    KernelCallTensors tensors = call_tensors(*ir, good, out);
    auto given = [](const HostTensor& t) { return t.shape.empty() ? nullptr : &t; };
    tensors.page_table = given(in.page_table), tensors.kv_lens = given(in.kv_lens);
    tensors.cu_seqlens_k = given(in.cu_seqlens_k);
    KernelCallArgs call(tensors);
    call.args().num_threads = 2;
    BOOST_TEST(compiled.kernel->run(call.args()) != 0, c.what);
    BOOST_TEST(std::string(call.error()).find(c.message) != std::string::npos,
               "kernel " << c.what << ": '" << call.error() << "'");
  }
}

BOOST_AUTO_TEST_CASE(pages_have_no_backward) {
  std::mt19937 rng(14);
  auto ir = lower_text(kPagedProgram, "all_keys");
  KernelInputs in = paged_inputs(*ir, kPagedBatches[2], ScalarType::F32, 2, 2, 16, rng);
  GradientRequest r;
  r.dout = random_tensor(ScalarType::F32, {in.q.shape[0], 2, 16}, rng);
  for (const char* target : {"reference", "cpu", "vulkan"}) {
    const std::string message =
        message_of([&] { find_backend(target, Capability::Backward).backward(*ir, in, r, 1); });
    BOOST_TEST(message.find("a paged KV cache (page_table, kv_lens) serves inference and has none") !=
                   std::string::npos,
               target << ": " << message);
  }
}
