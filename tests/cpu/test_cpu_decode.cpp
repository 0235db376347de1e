// The bf16 matrix paths' decoding layout (fixed/MatrixDecode.h): calls whose tasks have at most 8
// query rows (one token of a group of heads, a few tokens of one head) with head dims that are
// multiples of 32 read K and V in place, the head dimension or the value columns on the vector
// lanes. Against the reference: GQA groups of 1 to 8 heads (4- and 8-row products), 1 to 8 query
// rows, keys that are not multiples of a block (1 to 2049, split-KV on 2 threads), D 64 and 128,
// a mask over keys ahead of and behind the query, a score modifier, sinks, fully masked rows, and a
// mask that reads `h` (no head packing). Skipped, never failed, where the CPU has no matrix path.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>
#include <tuple>

#include "backends/cpu/CpuBackend.h"
#include "backends/reference/Reference.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"

using namespace attn;
using namespace attn::test;

namespace {

const char* kDecodeProgram = R"attn(
kernel plain_lse { dtype = bf16; lse = true; }
// A band of keys set by scalars, the same for every query row (keys ahead of the query too).
kernel band(last: int, back: int) {
  mask = kv <= last && kv > last - back;
  score = tanh(score / 8.0) * 8.0;
  dtype = bf16;
  lse = true;
}
kernel sinks_per_head(sinks: tensor<f32>[heads]) { sink = sinks[h]; dtype = bf16; lse = true; }
// Reads h: each head keeps its own stride of keys (the heads are not packed into one tile).
kernel per_head(stride: int) { mask = kv % stride == h % stride; dtype = bf16; lse = true; }
)attn";

/// Whether the loader's kernels take a matrix path here; the tests say so when they skip.
bool has_matrix_path() {
  if (is_matrix_isa(host_cpu_target().isa)) return true;
  BOOST_TEST_MESSAGE("no amx or avx512bf16 path on this CPU: skipped");
  return false;
}

struct Shape {
  int64_t Hq, Hkv, Lq, Lk, D;
};

KernelInputs decode_inputs(const Shape& s, std::mt19937& rng) {
  KernelInputs in;
  in.q = random_tensor(ScalarType::BF16, {2, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(ScalarType::BF16, {2, s.Hkv, s.Lk, s.D}, rng);
  in.v = random_tensor(ScalarType::BF16, {2, s.Hkv, s.Lk, s.D}, rng);
  return in;
}

bool finite(const HostTensor& t) {
  for (int64_t i = 0; i < t.numel(); ++i)
    if (std::isnan(t.get(i))) return false;
  return true;
}

/// Kernel `name` on the host's path against the reference: 1 thread with dense tensors, 2 threads
/// (split-KV where there are few tasks) with rows and heads strided (K and V read in place so).
void check(const std::string& name, const KernelInputs& in, const std::string& what) {
  const CpuCompiled& c = compile_cpu(kDecodeProgram, name);
  const KernelOutputs want = run_reference(*c.ir, in, 2);
  for (int threads : {1, 2}) {
    const CpuRun got = run_cpu(c, in, true, threads == 2, threads);
    const std::string where = what + " q " + in.q.shape_string() + " k " + in.k.shape_string() +
                              " threads=" + std::to_string(threads);
    BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
    BOOST_TEST(max_abs_diff(got.outputs.out, want.out) < 2e-2, where);
    BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) < 2e-2, where);
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
};

}  // namespace

BOOST_AUTO_TEST_CASE(decoding_layout_matches_the_reference) {
  if (!has_matrix_path()) return;
  std::mt19937 rng(11);
  for (const Shape& s : kShapes) {
    const KernelInputs in = decode_inputs(s, rng);
    check("plain_lse", in, "plain_lse");
    KernelInputs banded = in;
    banded.scalars["last"] = double(s.Lk - 1), banded.scalars["back"] = double(s.Lk / 2 + 1);
    check("band", banded, "band");
    KernelInputs sunk = in;
    sunk.buffers["sinks"] = random_tensor(ScalarType::F32, {s.Hq}, rng);
    check("sinks_per_head", sunk, "sinks_per_head");
  }
}

BOOST_AUTO_TEST_CASE(decoding_rows_nothing_reaches_are_empty) {
  // `last` before every key: every row is fully masked (Out 0, LSE -inf, no NaN); a sink then
  // takes the whole row.
  if (!has_matrix_path()) return;
  std::mt19937 rng(12);
  KernelInputs in = decode_inputs({32, 8, 1, 300, 128}, rng);
  in.scalars["last"] = -1.0, in.scalars["back"] = 5.0;
  check("band", in, "band, every key masked");
  const CpuRun got = run_cpu(compile_cpu(kDecodeProgram, "band"), in, true);
  BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
  const HostTensor& out = got.outputs.out;
  BOOST_TEST(max_abs_diff(out, HostTensor(out.type, out.shape)) == 0.0);
  for (int64_t i = 0; i < got.outputs.lse.numel(); ++i) BOOST_TEST(std::isinf(got.outputs.lse.get(i)));
}

BOOST_AUTO_TEST_CASE(decoding_with_a_mask_that_reads_the_head) {
  if (!has_matrix_path()) return;
  std::mt19937 rng(13);
  for (const Shape& s : {Shape{8, 2, 1, 777, 64}, Shape{4, 1, 4, 130, 128}}) {
    KernelInputs in = decode_inputs(s, rng);
    in.scalars["stride"] = 3.0;
    check("per_head", in, "per_head");
  }
}
