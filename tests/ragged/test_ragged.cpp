// Ragged batches (docs/guide.md, "Ragged batches"): packed Q [Tq, Hq, D], K/V [Tk, Hkv, D] and i32
// boundaries cu_seqlens_q/_k. The reference against itself run on each sequence as a dense batch
// (the definition), the CPU kernels against the reference on batches with empty and one-row
// sequences, Lq != Lk both ways, GQA, masks that read buffers, kernels that read `b`, sinks, bf16
// and decoding, the vulkan target likewise (a dispatch per sequence), and bad boundaries.
#define BOOST_TEST_MODULE ragged
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <tuple>

#include "backends/Backend.h"
#include "backends/io/RaggedBatch.h"
#include "backends/reference/Reference.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/ragged/RaggedSupport.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/MesaCache.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

BOOST_TEST_GLOBAL_FIXTURE(MesaCache);

const char* kProgram = R"attn(
import std.masks;
kernel causal_lse { mask = causal; lse = true; return_max = true; }
// A mask that reads a buffer (the kernel plans its own key ranges per sequence) and a score that
// reads `b`, the sequence's index.
kernel windowed_docs(doc: tensor<i32>[len], bias: tensor<f32>[batch]) {
  mask = doc[q] == doc[kv] && abs(q - kv) < 40;
  score = score + bias[b];
  lse = true;
}
kernel sinks_per_head(sinks: tensor<f32>[heads]) { mask = kv <= q + 2; sink = sinks[h]; lse = true; }
kernel causal_bf16 { mask = causal; dtype = bf16; lse = true; }
kernel all_keys { lse = true; }
// The call's lengths are the sequence's own (a paged sequence's queries are its last tokens of a
// batch of one with q_len = kv_len): causal_from_end, a score and a sink that read them.
kernel from_end { mask = causal_from_end; score = score + float(kv_len - q_len) * 0.01; sink = float(q_len % 5) - 2.0; lse = true; }
kernel from_end_bf16 { mask = causal_from_end && kv >= kv_len - 300; dtype = bf16; lse = true; }
)attn";

struct Batch {
  std::vector<int64_t> q_lens, kv_lens;
};
// Empty sequences and one-row ones, Lq != Lk both ways, lengths that are not tile multiples,
// and a decoding batch (one query row over many keys: split-KV).
const Batch kBatches[] = {
    {{5, 0, 1, 77, 130}, {5, 3, 300, 77, 129}},
    {{1, 1, 1, 1}, {1, 700, 33, 2049}},
    {{0, 200}, {0, 333}},
    {{64}, {64}},
};

KernelInputs ragged_inputs(const KernelIR& ir, const Batch& batch, ScalarType t, int Hq, int Hkv, int D,
                           std::mt19937& rng) {
  KernelInputs in;
  const int64_t Tq = total(batch.q_lens), Tk = total(batch.kv_lens);
  in.q = random_tensor(t, {Tq, Hq, D}, rng);
  in.k = random_tensor(t, {Tk, Hkv, D}, rng);
  in.v = random_tensor(t, {Tk, Hkv, D}, rng);
  in.cu_seqlens_q = boundaries(batch.q_lens);
  in.cu_seqlens_k = boundaries(batch.kv_lens);
  int64_t longest = 1;
  for (size_t b = 0; b < batch.q_lens.size(); ++b)
    longest = std::max({longest, batch.q_lens[b], batch.kv_lens[b]});
  std::uniform_int_distribution<int> doc(0, 2);
  std::normal_distribution<double> n(0.0, 1.0);
  for (const KernelArg& a : ir.args) {
    const int64_t n_elems = a.name == "doc" ? longest : a.name == "sinks" ? Hq : int64_t(batch.q_lens.size());
    HostTensor buf(a.name == "doc" ? ScalarType::I32 : ScalarType::F32, {n_elems});
    for (int64_t i = 0; i < n_elems; ++i)
      buf.set(i, a.name == "doc" ? double(i / 23 + doc(rng) / 2) : n(rng));
    in.buffers[a.name] = buf;
  }
  return in;
}

/// Sequence b of a ragged batch as a dense batch of one, its buffers as sequence b sees them (a
/// buffer indexed by `b` moved so that entry 0 is entry b).
KernelInputs sequence(const KernelInputs& in, const Sequence& s, int64_t b) {
  auto rows = [](const HostTensor& t, int64_t first, int64_t len) {  // [T, H, D] rows -> [1, H, len, D]
    const int64_t H = t.shape[1], D = t.shape[2];
    HostTensor out(t.type, {1, H, len, D});
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < len; ++i)
        for (int64_t d = 0; d < D; ++d) out.set((h * len + i) * D + d, t.get(((first + i) * H + h) * D + d));
    return out;
  };
  KernelInputs one;
  one.q = rows(in.q, s.q_first, s.q_len);
  one.k = rows(in.k, s.kv_first, s.kv_len);
  one.v = rows(in.v, s.kv_first, s.kv_len);
  one.scalars = in.scalars;
  one.buffers = in.buffers;
  if (one.buffers.count("bias")) {
    HostTensor& bias = one.buffers.at("bias");
    bias.set(0, in.buffers.at("bias").get(b));
  }
  return one;
}

/// Row (s, h, i) of a ragged output [Tq, Hq, C] against row (0, h, i) of a dense one [1, Hq, L, C].
double sequence_diff(const HostTensor& ragged, const HostTensor& dense, const Sequence& s) {
  const int64_t H = ragged.shape[1], C = ragged.shape.size() == 3 ? ragged.shape[2] : 1;
  double worst = 0;
  for (int64_t h = 0; h < H; ++h)
    for (int64_t i = 0; i < s.q_len; ++i)
      for (int64_t c = 0; c < C; ++c) {
        const double a = ragged.get(((s.q_first + i) * H + h) * C + c),
                     b = dense.get((h * s.q_len + i) * C + c);
        if (a == b) continue;  // equal infinities
        worst = std::max(worst, std::isnan(a) || std::isnan(b) ? INFINITY : std::fabs(a - b));
      }
  return worst;
}

}  // namespace

BOOST_AUTO_TEST_CASE(reference_is_each_sequence_as_a_dense_batch) {
  std::mt19937 rng(1);
  for (const char* name : {"causal_lse", "windowed_docs", "sinks_per_head", "from_end"}) {
    auto ir = lower_text(kProgram, name);
    for (const Batch& batch : {kBatches[0], kBatches[1]}) {
      KernelInputs in = ragged_inputs(*ir, batch, ScalarType::F32, 4, 2, 16, rng);
      const KernelOutputs got = run_reference(*ir, in, 2);
      BOOST_TEST(got.out.shape == (std::vector<int64_t>{in.q.shape[0], 4, 16}));
      BOOST_TEST(got.lse.shape == (std::vector<int64_t>{in.q.shape[0], 4}));
      const std::vector<Sequence> seqs = ragged_sequences(in);
      for (size_t b = 0; b < seqs.size(); ++b) {
        if (seqs[b].q_len == 0) continue;
        const KernelOutputs want = run_reference(*ir, sequence(in, seqs[b], int64_t(b)), 1);
        BOOST_TEST(sequence_diff(got.out, want.out, seqs[b]) == 0.0, name << " sequence " << b);
        BOOST_TEST(sequence_diff(got.lse, want.lse, seqs[b]) == 0.0, name << " sequence " << b);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(cpu_matches_the_reference) {
  std::mt19937 rng(2);
  check_cpu_against_reference(kProgram, std::vector<Batch>(std::begin(kBatches), std::end(kBatches)),
                              [&](const KernelIR& ir, const auto& batch, ScalarType type, int Hq, int Hkv,
                                  int D) { return ragged_inputs(ir, batch, type, Hq, Hkv, D, rng); });
}

BOOST_AUTO_TEST_CASE(vulkan_matches_the_reference) {
  std::mt19937 rng(5);
  check_vulkan_against_reference(kProgram, std::vector<Batch>(std::begin(kBatches), std::end(kBatches)),
                                 [&](const KernelIR& ir, const auto& batch, ScalarType type, int Hq, int Hkv,
                                     int D) { return ragged_inputs(ir, batch, type, Hq, Hkv, D, rng); });
}

BOOST_AUTO_TEST_CASE(bad_boundaries_are_errors_everywhere) {
  std::mt19937 rng(3);
  auto ir = lower_text(kProgram, "causal_lse");
  const KernelInputs good = ragged_inputs(*ir, kBatches[0], ScalarType::F32, 2, 1, 16, rng);
  struct Case {
    const char* what;
    std::function<void(KernelInputs&)> spoil;
    const char* message;
  };
  const Case cases[] = {
      {"not from 0", [](KernelInputs& in) { in.cu_seqlens_q.set(0, 1); }, "cu_seqlens_q"},
      {"decreasing", [](KernelInputs& in) { in.cu_seqlens_k.set(2, 1); }, "cu_seqlens_k decreases"},
      {"short of T", [](KernelInputs& in) { in.cu_seqlens_q.set(5, 200); }, "cu_seqlens_q ends at 200"},
      {"past T", [](KernelInputs& in) { in.cu_seqlens_k.set(5, 10000); }, "cu_seqlens_k ends at 10000"},
      {"lengths differ",
       [](KernelInputs& in) {
         in.cu_seqlens_k = boundaries({5, 3, 300, 206});
       },
       "entries"},
      {"f32", [](KernelInputs& in) { in.cu_seqlens_q.type = ScalarType::F32; }, "i32"},
  };
  for (const Case& c : cases) {
    KernelInputs in = good;
    c.spoil(in);
    for (const char* target : {"reference", "cpu", "vulkan"}) {
      std::string message;
      try {
        find_backend(target, Capability::Run).run(*ir, in, 2);
      } catch (const std::exception& e) {
        message = e.what();
      }
      BOOST_TEST(message.find(c.message) != std::string::npos,
                 target << " " << c.what << ": '" << message << "'");
    }
  }
}
