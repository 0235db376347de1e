// The decoding layout: calls whose tasks have at most 8 query rows (one token of a group of heads,
// a few tokens of one head). The bf16 matrix paths (fixed/MatrixDecode.h, head dims multiples of
// 32) read K and V in place, the head dimension or the value columns on the vector lanes; the f32
// paths compute the scores of those 8 rows only (AttentionAlgorithm.cpp, dec_scores), on every
// path (avx512, avx2, portable). Against the reference: GQA groups of 1 to 8 heads (4- and 8-row
// products), 1 to 8 query rows, keys that are not multiples of a block (1 to 2049, split-KV on 2
// threads), D 4, 40, 64 and 128, a mask over keys ahead of and behind the query, a score modifier,
// sinks, fully masked rows, and a mask that reads `h` (no head packing). The bf16 cases are
// skipped, never failed, where the CPU has no matrix path.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"

using namespace attn;
using namespace attn::test;

namespace {

// DTYPE: each case's element type.
const char* kDecodeProgram = R"attn(
kernel plain_lse { dtype = DTYPE; lse = true; }
// A band of keys set by scalars, the same for every query row (keys ahead of the query too).
kernel band(last: int, back: int) {
  mask = kv <= last && kv > last - back;
  score = tanh(score / 8.0) * 8.0;
  dtype = DTYPE;
  lse = true;
}
kernel sinks_per_head(sinks: tensor<f32>[heads]) { sink = sinks[h]; dtype = DTYPE; lse = true; }
// Reads h: each head keeps its own stride of keys (the heads are not packed into one tile).
kernel per_head(stride: int) { mask = kv % stride == h % stride; dtype = DTYPE; lse = true; }
)attn";

/// A path the decoding layout is checked on: an element type, a target (the host's best when
/// unset), the tolerance against the reference.
struct PathCase {
  ScalarType type;
  std::optional<CpuTarget> target;
  double tolerance;
  std::string name;
  std::string program() const {
    std::string text = kDecodeProgram;
    const std::string dtype = type == ScalarType::BF16 ? "bf16" : "f32";
    for (size_t at; (at = text.find("DTYPE")) != std::string::npos;) text.replace(at, 5, dtype);
    return text;
  }
};

/// The host's paths: bf16 on its matrix path (where it has one) and f32 on its best; or
/// (`other_paths`) f32 on avx2 and portable, where the host runs them.
std::vector<PathCase> path_cases(bool other_paths) {
  std::vector<PathCase> cases;
  if (other_paths) {
    if (host_cpu_target().isa != CpuIsa::Portable)
      cases.push_back({ScalarType::F32, CpuTarget{CpuIsa::AVX2}, 1e-4, "f32 avx2"});
    cases.push_back({ScalarType::F32, CpuTarget{CpuIsa::Portable}, 1e-4, "f32 portable"});
    return cases;
  }
  if (is_matrix_isa(host_cpu_target().isa))
    cases.push_back({ScalarType::BF16, std::nullopt, 2e-2, "bf16"});
  else
    BOOST_TEST_MESSAGE("no amx or avx512bf16 path on this CPU: bf16 skipped");
  cases.push_back({ScalarType::F32, std::nullopt, 1e-4, "f32"});
  return cases;
}

struct Shape {
  int64_t Hq, Hkv, Lq, Lk, D;
};

KernelInputs decode_inputs(const Shape& s, ScalarType type, std::mt19937& rng) {
  KernelInputs in;
  in.q = random_tensor(type, {2, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(type, {2, s.Hkv, s.Lk, s.D}, rng);
  in.v = random_tensor(type, {2, s.Hkv, s.Lk, s.D}, rng);
  return in;
}

bool finite(const HostTensor& t) {
  for (int64_t i = 0; i < t.numel(); ++i)
    if (std::isnan(t.get(i))) return false;
  return true;
}

/// Kernel `name` on the case's path against the reference: 1 thread with dense tensors, 2 threads
/// (split-KV where there are few tasks) with rows and heads strided (K and V read in place so).
void check(const PathCase& pc, const std::string& name, const KernelInputs& in, const std::string& what) {
  const CpuCompiled& c = compile_cpu(pc.program(), name, pc.target);
  const KernelOutputs want = run_reference(*c.ir, in, 2);
  for (int threads : {1, 2}) {
    const CpuRun got = run_cpu(c, in, true, threads == 2, threads);
    const std::string where = pc.name + " " + what + " q " + in.q.shape_string() + " k " +
                              in.k.shape_string() + " threads=" + std::to_string(threads);
    BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
    BOOST_TEST(max_abs_diff(got.outputs.out, want.out) < pc.tolerance, where);
    BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) < pc.tolerance, where);
    BOOST_TEST(finite(got.outputs.out), where);
  }
}

const Shape kShapes[] = {
    {32, 8, 1, 2049, 128},  // Llama-3 decoding: 4 heads a group
    {16, 2, 1, 700, 64},    // 8 heads a group
    {6, 1, 1, 33, 128},     // 6 heads: the 8-row products, two padding rows
    {12, 4, 1, 1, 64},      // a single key
    {4, 4, 3, 515, 64},     // no groups: 3 query rows of one head
    {2, 1, 8, 96, 128},     // 8 query rows of one head, GQA not packed (Lq > 1)
    {4, 2, 5, 1030, 64},    // split across chunks of keys
    {8, 2, 1, 301, 40},     // a head dim that is no multiple of a vector (bf16: not the layout)
    {4, 1, 1, 50, 4},       // a head dim narrower than a vector
    {2, 2, 9, 70, 64},      // 9 query rows: not the layout, beside it
};

}  // namespace

BOOST_AUTO_TEST_CASE(decoding_layout_matches_the_reference) {
  // Every kernel on the host's paths; the mask and the score modifier (the first two) on the others.
  for (bool other_paths : {false, true})
    for (const PathCase& pc : path_cases(other_paths)) {
      std::mt19937 rng(11);
      for (const Shape& s : kShapes) {
        const KernelInputs in = decode_inputs(s, pc.type, rng);
        check(pc, "plain_lse", in, "plain_lse");
        KernelInputs banded = in;
        banded.scalars["last"] = double(s.Lk - 1), banded.scalars["back"] = double(s.Lk / 2 + 1);
        check(pc, "band", banded, "band");
        if (other_paths) continue;
        KernelInputs sunk = in;
        sunk.buffers["sinks"] = random_tensor(ScalarType::F32, {s.Hq}, rng);
        check(pc, "sinks_per_head", sunk, "sinks_per_head");
      }
    }
}

BOOST_AUTO_TEST_CASE(decoding_rows_nothing_reaches_are_empty) {
  // `last` before every key: every row is fully masked (Out 0, LSE -inf, no NaN); a sink then
  // takes the whole row.
  for (const PathCase& pc : path_cases(false)) {
    std::mt19937 rng(12);
    KernelInputs in = decode_inputs({32, 8, 1, 300, 128}, pc.type, rng);
    in.scalars["last"] = -1.0, in.scalars["back"] = 5.0;
    check(pc, "band", in, "band, every key masked");
    const CpuRun got = run_cpu(compile_cpu(pc.program(), "band"), in, true);
    BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
    const HostTensor& out = got.outputs.out;
    BOOST_TEST(max_abs_diff(out, HostTensor(out.type, out.shape)) == 0.0, pc.name);
    for (int64_t i = 0; i < got.outputs.lse.numel(); ++i)
      BOOST_TEST(std::isinf(got.outputs.lse.get(i)), pc.name);
  }
}

BOOST_AUTO_TEST_CASE(decoding_with_a_mask_that_reads_the_head) {
  for (const PathCase& pc : path_cases(false)) {
    std::mt19937 rng(13);
    for (const Shape& s : {Shape{8, 2, 1, 777, 64}, Shape{4, 1, 4, 130, 128}}) {
      KernelInputs in = decode_inputs(s, pc.type, rng);
      in.scalars["stride"] = 3.0;
      check(pc, "per_head", in, "per_head");
    }
  }
}
