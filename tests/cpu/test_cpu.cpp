// The CPU backend against the reference on random inputs and shapes (lengths 1..600, head dims
// 16..256, GQA, value_dim != head_dim, strided views, f32/f16/bf16) for every kind of mask and
// score; fully masked rows; buffer index errors; deterministic and warning-free emitted C++
// (tests/golden/ holds the golden emitted C++).
#define BOOST_TEST_MODULE cpu
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <map>
#include <random>

#include "frontend/Program.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/GuardedReads.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/StdlibKernels.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

// One program, many kernels: each is compiled once and reused across shapes.
const char* kProgram = R"attn(
import std.masks;
mask sliding(window: int) = causal && q - kv < window;
score softcap(cap: float) = cap * tanh(score / cap);
score alibi(slopes: tensor<f32>[heads]) = score + slopes[h] * (kv - q);

kernel dense { lse = true; }
kernel causal_lse { mask = causal; lse = true; }
kernel window37 { mask = sliding(37); lse = true; }
kernel prefix50 { mask = kv < 50 || causal; }
kernel documents(doc: tensor<i32>[len]) { mask = causal && doc[q] == doc[kv]; lse = true; }
kernel alibi_causal(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); }
kernel softcap_causal { mask = causal; score = softcap(20.0); lse = true; }
kernel exp2_score { score = exp2(score) * 0.5; }
kernel decode(offset: int) { mask = kv <= q + offset; }
kernel first_rows { mask = q < 3 && causal; lse = true; }
kernel dense_f16 { dtype = f16; lse = true; }
kernel causal_bf16 { mask = causal; dtype = bf16; }
kernel window_f16 { mask = sliding(100); dtype = f16; }
kernel fixed64 { mask = causal; head_dim = 64; lse = true; }
kernel fixed128_v32 { mask = sliding(300); head_dim = 128; value_dim = 32; }
kernel sinks_scalar(sinks: int) { mask = sinks_window(sinks, 130); lse = true; }
kernel longformer_2 { mask = longformer(70, 2); lse = true; }
kernel natten_20 { mask = natten(20, 5, 3, 30); lse = true; }
kernel sinks_bf16(sinks: int) { mask = sinks_window(sinks, 130); dtype = bf16; lse = true; }
kernel documents_f16(doc: tensor<i32>[len]) { mask = doc[q] == doc[kv]; dtype = f16; }
kernel morton_bits(shift: int) {
  mask = natten_morton(16, 5, 3, 16) || ((q ^ kv) >> (shift + 30) & 1) == 1;
  score = score + float(~q & 0xF0 | kv << 2 ^ 0x7) * 0.001;
  lse = true;
}
kernel elementwise {
  // No trunc or sign here: a jump at a boundary would turn rounding differences into errors.
  score = erf(score) + 0.1 * pow(abs(score), 0.7) + atan(score) * sign(2.0);
  lse = true;
}
kernel erf_lse { mask = kv == 0; score = erf(float(q - 300) * 0.0078125) * 4.0; lse = true; }
// The bf16 matrix paths' kernels (amx, avx512bf16): no mask and no score (the raw products reach
// the softmax stage), a buffer mask, score modifiers, decoding, fixed dims with Dv = 48 (a P·V
// block of 16 rows), rows no key reaches.
kernel dense_bf16 { dtype = bf16; lse = true; }
kernel documents_bf16(doc: tensor<i32>[len]) { mask = causal && doc[q] == doc[kv]; dtype = bf16; lse = true; }
kernel alibi_bf16(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes); dtype = bf16; }
kernel softcap_bf16 { mask = sliding(300); score = softcap(20.0); dtype = bf16; lse = true; }
kernel decode_bf16(offset: int) { mask = kv <= q + offset; dtype = bf16; }
kernel fixed_bf16 { mask = causal; head_dim = 128; value_dim = 48; dtype = bf16; lse = true; }
kernel first_rows_bf16 { mask = q < 3 && causal; dtype = bf16; lse = true; }
// The call's lengths: bottom-right causal, a window from the end (its key-block test reads them),
// a score and a sink that read them.
kernel from_end { mask = causal_from_end; score = score + float(kv_len - 2 * q_len) * 0.01; lse = true; }
kernel from_end_window { mask = causal_from_end && q + kv_len - q_len - kv < 100; sink = float(q_len % 7) - 3.0; lse = true; }
kernel from_end_bf16 { mask = causal_from_end; dtype = bf16; lse = true; }
)attn";

struct Shape {
  int64_t B, Hq, Hkv, Lq, Lkv, D, Dv;
};

double tolerance(ScalarType t) { return t == ScalarType::F32 ? 2e-4 : t == ScalarType::F16 ? 1e-2 : 6e-2; }

ScalarType io_type(const KernelIR& ir) { return io_scalar_type(ir.options.dtype); }

Shape random_shape(std::mt19937& rng, int64_t max_len, const KernelIR& ir) {
  static const int64_t dims[] = {16, 24, 40, 64, 100, 128, 256};
  std::uniform_int_distribution<int64_t> len(1, max_len), heads(1, 2), group(1, 3), batch(1, 2);
  std::uniform_int_distribution<size_t> dim(0, 6);
  Shape s;
  s.B = batch(rng), s.Hkv = heads(rng), s.Hq = s.Hkv * group(rng);
  s.Lq = len(rng), s.Lkv = len(rng);
  s.D = ir.options.head_dim ? ir.options.head_dim : dims[dim(rng)];
  s.Dv = ir.options.value_dim ? ir.options.value_dim : ir.options.head_dim ? s.D : dims[dim(rng)];
  return s;
}

KernelInputs random_inputs(const KernelIR& ir, const Shape& s, std::mt19937& rng) {
  KernelInputs in;
  ScalarType t = io_type(ir);
  in.q = random_tensor(t, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(t, {s.B, s.Hkv, s.Lkv, s.D}, rng);
  in.v = random_tensor(t, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
  for (const KernelArg& a : ir.args) {
    if (a.name == "slopes") {
      HostTensor slopes(ScalarType::F32, {s.Hq});
      for (int64_t h = 0; h < s.Hq; ++h) slopes.set(h, std::exp2(-8.0 * double(h + 1) / double(s.Hq)));
      in.buffers["slopes"] = slopes;
    } else if (a.name == "doc") {
      // Documents of random lengths covering max(Lq, Lkv) positions.
      int64_t n = std::max(s.Lq, s.Lkv);
      HostTensor doc(ScalarType::I32, {n});
      std::uniform_int_distribution<int> cut(0, 40);
      int d = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (cut(rng) == 0) ++d;
        doc.set(i, d);
      }
      in.buffers["doc"] = doc;
    } else if (a.name == "offset") {
      in.scalars["offset"] = double(s.Lkv - s.Lq);
    } else if (a.name == "sinks") {
      in.scalars["sinks"] = 5;
    } else if (a.name == "shift") {
      in.scalars["shift"] = 3;  // a count of 33: taken modulo 32
    }
  }
  return in;
}

// Runs kernel `name` on `shape` on the CPU and the reference; checks Out (and LSE).
void check(const std::string& name, const Shape& s, std::mt19937& rng, bool strided = false,
           std::optional<CpuTarget> target = std::nullopt) {
  const CpuCompiled& c = compile_cpu(kProgram, name, target);
  KernelInputs in = random_inputs(*c.ir, s, rng);
  KernelOutputs want = run_reference(*c.ir, in, 2);
  CpuRun got = run_cpu(c, in, c.ir->options.lse, strided);
  std::string where = name + " B=" + std::to_string(s.B) + " Hq=" + std::to_string(s.Hq) +
                      " Hkv=" + std::to_string(s.Hkv) + " Lq=" + std::to_string(s.Lq) +
                      " Lkv=" + std::to_string(s.Lkv) + " D=" + std::to_string(s.D) +
                      " Dv=" + std::to_string(s.Dv);
  BOOST_REQUIRE_MESSAGE(got.status == 0, where << ": " << got.error);
  double tol = tolerance(io_type(*c.ir));
  double d = max_abs_diff(got.outputs.out, want.out);
  BOOST_TEST(d <= tol, where << ": out differs by " << d);
  if (c.ir->options.lse) {
    double dl = max_abs_diff(got.outputs.lse, want.lse);
    BOOST_TEST(dl <= 5 * tol, where << ": lse differs by " << dl);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_kernel_on_random_shapes) {
  std::mt19937 rng(11);
  for (const char* name :
       {"dense", "causal_lse", "window37", "prefix50", "documents", "alibi_causal", "softcap_causal",
        "exp2_score", "decode", "fixed64", "fixed128_v32", "morton_bits", "elementwise"})
    for (int i = 0; i < 5; ++i)
      check(name, random_shape(rng, i == 0 ? 600 : 160, *compile_cpu(kProgram, name).ir), rng);
}

// One allowed key per row: the LSE is the score, erf of an exact input, within a few ulps of
// libm's (the vector code uses Halide's erf polynomial).
BOOST_AUTO_TEST_CASE(erf_is_accurate) {
  const CpuCompiled& c = compile_cpu(kProgram, "erf_lse");
  std::mt19937 rng(3);
  KernelInputs in = random_inputs(*c.ir, Shape{1, 1, 1, 600, 3, 16, 16}, rng);
  CpuRun got = run_cpu(c, in, true);
  BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
  for (int q = 0; q < 600; ++q) {
    const double want = 4.0 * std::erf((q - 300) * 0.0078125), lse = got.outputs.lse.get(q);
    BOOST_TEST(std::fabs(lse - want) <= 2e-6 * std::fabs(want) + 1e-9, "q=" << q << ": " << lse);
  }
}

BOOST_AUTO_TEST_CASE(documents_with_planned_key_ranges) {
  // The run-time plan's key ranges and runs (what run_cpu_kernel passes) on random layouts, sorted
  // and with unsorted ids (a tile then meets several documents: several runs, gaps skipped),
  // against the reference. Older callers get less: a version-2 caller the hull only (the kernel must
  // not read the runs, so they would drop every key), a version-1 caller the closed-form hull (the
  // fields after error_size hold ranges that would drop every key).
  std::mt19937 rng(23);
  const CpuCompiled& c = compile_cpu(kProgram, "documents");
  for (int i = 0; i < 8; ++i) {
    Shape s = random_shape(rng, i < 2 ? 700 : 200, *c.ir);
    KernelInputs in = random_inputs(*c.ir, s, rng);
    HostTensor& doc = in.buffers["doc"];
    if (i % 3 == 1) {
      std::uniform_int_distribution<int> id(0, 1 + i);
      for (int64_t j = 0; j < doc.numel(); ++j) doc.set(j, id(rng));
    } else if (i % 3 == 2) {  // two interleaved sequences of 40-token pieces: gaps between runs
      for (int64_t j = 0; j < doc.numel(); ++j) doc.set(j, int(j / 40 % 2));
    }
    TilePlanInputs plan;
    plan.q_len = s.Lq, plan.kv_len = s.Lkv;
    plan.buffers["doc"] = tile_buffer_view(doc);
    CpuKeyRanges ranges = cpu_key_ranges(*c.ir, plan);
    BOOST_REQUIRE_EQUAL(ranges.ranges.size(), size_t(2 * ((s.Lq + ranges.block_q - 1) / ranges.block_q)));
    BOOST_REQUIRE_EQUAL(ranges.run_starts.size(), ranges.ranges.size() / 2 + 1);
    CpuKeyRanges nothing{ranges.block_q,
                         std::vector<int64_t>(ranges.ranges.size(), 0),
                         std::vector<int64_t>(ranges.run_starts.size(), 0),
                         {0, 0}};
    CpuKeyRanges hull_only = ranges;
    hull_only.run_starts = nothing.run_starts, hull_only.runs = nothing.runs;
    KernelOutputs want = run_reference(*c.ir, in, 2);
    std::string where =
        "documents #" + std::to_string(i) + " Lq=" + std::to_string(s.Lq) + " Lkv=" + std::to_string(s.Lkv);
    for (int version : {3, 2, 1}) {
      const CpuKeyRanges* given = version == 3 ? &ranges : version == 2 ? &hull_only : &nothing;
      CpuRun got = run_cpu(c, in, true, false, 2, given, version);
      BOOST_REQUIRE_MESSAGE(got.status == 0, where << ": " << got.error);
      double d = max_abs_diff(got.outputs.out, want.out), dl = max_abs_diff(got.outputs.lse, want.lse);
      BOOST_TEST(d <= 2e-4, where << " v" << version << ": out differs by " << d);
      BOOST_TEST(dl <= 1e-3, where << " v" << version << ": lse differs by " << dl);
    }
    KernelOutputs end_to_end = run_cpu_kernel(*c.ir, in, 2);
    BOOST_TEST(max_abs_diff(end_to_end.out, want.out) <= 2e-4, where << ": run_cpu_kernel");
    CpuKeyRanges bad = ranges;
    bad.run_starts[0] = 1;
    CpuRun refused = run_cpu(c, in, true, false, 2, &bad, 3);
    BOOST_TEST(refused.status != 0);
    BOOST_TEST(refused.error.find("kv_run_starts is not non-decreasing from 0") != std::string::npos,
               refused.error);
  }
  // Sorted documents of 64 tokens: the last query tile's range starts at its document.
  const int64_t n = 512;
  HostTensor doc(ScalarType::I32, {n});
  for (int64_t j = 0; j < n; ++j) doc.set(j, int(j / 64));
  TilePlanInputs plan;
  plan.q_len = plan.kv_len = n;
  plan.buffers["doc"] = tile_buffer_view(doc);
  CpuKeyRanges ranges = cpu_key_ranges(*c.ir, plan);
  BOOST_TEST(ranges.ranges[ranges.ranges.size() - 2] == n - 64);
  BOOST_TEST(ranges.ranges.back() == n);
}

BOOST_AUTO_TEST_CASE(avx2_and_portable_schedules) {
  // The other ISAs' schedules (vector width 8 and 4, other tiles), run on this host: run-time and
  // fixed head dims (AVX2's key-blocked P·V sums 12x1 or 6x2 vectors per pass), a buffer mask, rows
  // no key reaches, a scalar argument.
  std::mt19937 rng(18);
  for (CpuIsa isa : {CpuIsa::AVX2, CpuIsa::Portable}) {
    if (isa == CpuIsa::AVX2 && host_cpu_target().isa == CpuIsa::Portable) continue;
    for (const char* name :
         {"window37", "alibi_causal", "fixed128_v32", "fixed64", "documents", "first_rows", "decode"})
      for (int i = 0; i < 2; ++i)
        check(name, random_shape(rng, 150, *compile_cpu(kProgram, name).ir), rng, false, CpuTarget{isa});
    // Past one chunk of 1024 keys, neither length a multiple of a tile or of a P·V key block.
    check("fixed64", Shape{1, 2, 1, 1300, 1107, 64, 64}, rng, false, CpuTarget{isa});
  }
}

BOOST_AUTO_TEST_CASE(bf16_matrix_paths) {
  // Q·Kᵀ and P·V in bf16 (amx: AMX tiles; avx512bf16: vdpbf16ps), each path this host runs (the
  // others are skipped, never failed): random shapes (head dims that are not a k-step of 32 take
  // K through a padded copy), past one chunk of 1024 keys with lengths that are not multiples of 32,
  // decoding (V transposed piece by piece), GQA, strided views, rows no key reaches.
  std::mt19937 rng(31);
  for (CpuIsa isa : {CpuIsa::AMX, CpuIsa::AVX512BF16}) {
    if (int(isa) < int(host_cpu_target().isa)) {
      BOOST_TEST_MESSAGE("bf16_matrix_paths: this CPU does not run " << cpu_isa_name(isa) << "; skipped");
      continue;
    }
    const CpuTarget t{isa};
    for (const char* name : {"dense_bf16", "documents_bf16", "alibi_bf16", "softcap_bf16", "decode_bf16",
                             "fixed_bf16", "first_rows_bf16", "causal_bf16", "sinks_bf16"})
      for (int i = 0; i < 3; ++i)
        check(name, random_shape(rng, i == 0 ? 300 : 120, *compile_cpu(kProgram, name, t).ir), rng, false, t);
    check("fixed_bf16", Shape{1, 2, 1, 1300, 1107, 128, 48}, rng, false, t);
    check("dense_bf16", Shape{1, 1, 1, 33, 2085, 40, 100}, rng, false, t);
    check("decode_bf16", Shape{2, 8, 2, 1, 1500, 64, 64}, rng, false, t);
    check("decode_bf16", Shape{1, 4, 4, 1, 777, 40, 24}, rng, false, t);
    check("documents_bf16", Shape{1, 2, 2, 250, 250, 64, 64}, rng, true, t);
    check("first_rows_bf16", Shape{1, 2, 1, 70, 70, 32, 32}, rng, false, t);
  }
}

BOOST_AUTO_TEST_CASE(open_head_dims_are_fixed_per_call) {
  // run_cpu_kernel (attnc run/bench) compiles a kernel that leaves head_dim open for each call's
  // D and Dv; the results match the reference for several in one process, Dv != D included.
  const CpuCompiled& c = compile_cpu(kProgram, "causal_lse");
  KernelIR fixed = with_call_head_dims(*c.ir, 40, 24);
  BOOST_TEST(fixed.options.head_dim == 40);
  BOOST_TEST(fixed.options.value_dim == 24);
  BOOST_TEST(with_call_head_dims(*c.ir, 64, 64).options.value_dim == 0);  // Dv = D: left implied
  BOOST_TEST(with_call_head_dims(fixed, 64, 64).options.head_dim == 40);  // fixed stays fixed
  BOOST_TEST(with_call_head_dims(*c.ir, 0, 64).options.head_dim == 0);
  std::mt19937 rng(23);
  for (Shape s :
       {Shape{1, 2, 1, 70, 301, 40, 24}, Shape{1, 1, 1, 130, 97, 64, 64}, Shape{2, 2, 2, 33, 33, 24, 40}}) {
    KernelInputs in = random_inputs(*c.ir, s, rng);
    KernelOutputs want = run_reference(*c.ir, in, 2);
    KernelOutputs got = run_cpu_kernel(*c.ir, in, 2);
    BOOST_TEST(max_abs_diff(got.out, want.out) <= 2e-4, "D=" << s.D << " Dv=" << s.Dv);
    BOOST_TEST(max_abs_diff(got.lse, want.lse) <= 1e-3, "D=" << s.D << " Dv=" << s.Dv);
  }
}

BOOST_AUTO_TEST_CASE(half_precision_io) {
  std::mt19937 rng(12);
  for (const char* name : {"dense_f16", "causal_bf16", "window_f16"})
    for (int i = 0; i < 3; ++i)
      check(name, random_shape(rng, i == 0 ? 400 : 90, *compile_cpu(kProgram, name).ir), rng);
}

BOOST_AUTO_TEST_CASE(tile_edges_and_many_lengths) {
  // Lengths around the query tile (32) and key block (8) sizes, one compiled kernel for all.
  std::mt19937 rng(13);
  for (int64_t L : {1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 257})
    check("causal_lse", Shape{1, 2, 1, L, L + (L % 3), 16, 24}, rng);
}

BOOST_AUTO_TEST_CASE(long_rows_span_several_key_chunks) {
  // Rows longer than a pipeline call's chunk of keys (1024): the wrapper merges the chunks' row max,
  // row sum and P·V. Rows masked in whole chunks (first_rows, unsorted documents), LSE, half I/O.
  std::mt19937 rng(17);
  check("dense", Shape{1, 2, 1, 45, 2600, 64, 64}, rng);
  check("causal_lse", Shape{1, 1, 1, 2200, 2200, 16, 24}, rng);
  check("window37", Shape{1, 1, 1, 1500, 2100, 24, 16}, rng);
  check("first_rows", Shape{1, 1, 1, 40, 2100, 16, 16}, rng);
  check("window_f16", Shape{1, 2, 2, 33, 2300, 40, 40}, rng);
  const CpuCompiled& c = compile_cpu(kProgram, "documents");
  for (bool sorted : {true, false}) {
    Shape s{1, 2, 1, 2300, 2300, 16, 16};
    KernelInputs in = random_inputs(*c.ir, s, rng);
    HostTensor& doc = in.buffers["doc"];
    std::uniform_int_distribution<int> id(0, 3);
    for (int64_t j = 0; j < doc.numel(); ++j) doc.set(j, sorted ? int(j / 700) : id(rng));
    KernelOutputs want = run_reference(*c.ir, in, 2), got = run_cpu_kernel(*c.ir, in, 2);
    BOOST_TEST(max_abs_diff(got.out, want.out) <= 2e-4, "documents, sorted " << sorted);
    BOOST_TEST(max_abs_diff(got.lse, want.lse) <= 1e-3, "documents, sorted " << sorted);
  }
}

BOOST_AUTO_TEST_CASE(key_blocks_ruled_out_by_the_mask_are_skipped) {
  // Masks whose closed-form hull is wide but whose key blocks interval analysis rules out for a
  // whole query tile (sinks + window, longformer, 2-D neighbourhoods): the wrapper computes runs
  // of blocks, several per tile; lengths not multiples of its 64-key blocks; a scalar argument
  // in the test. Against the reference; and the generated wrapper has the test where it applies.
  std::mt19937 rng(19);
  for (int64_t L : {600, 1337})
    for (const char* name : {"sinks_scalar", "longformer_2", "natten_20"})
      check(name, Shape{1, 2, 1, L, L, 16, 16}, rng);
  const CpuCompiled& c = compile_cpu(kProgram, "longformer_2");
  BOOST_TEST(c.source.source.find("constexpr bool kHasKeyTest = true;") != std::string::npos);
  const CpuCompiled& d = compile_cpu(kProgram, "dense");
  BOOST_TEST(d.source.source.find("constexpr bool kHasKeyTest = false;") != std::string::npos);
}

// q_len and kv_len are the call's: fewer queries than keys (chunked prefill, decoding), as many,
// more (the first rows see no key), lengths that are not tile or key-block multiples.
BOOST_AUTO_TEST_CASE(call_lengths_against_the_reference) {
  std::mt19937 rng(29);
  for (const char* name : {"from_end", "from_end_window", "from_end_bf16"})
    for (auto [Lq, Lkv] : {std::pair<int64_t, int64_t>{37, 1337}, {1, 700}, {130, 130}, {200, 75}, {5, 3}})
      check(name, Shape{1, 4, 2, Lq, Lkv, 64, 64}, rng);
  const CpuCompiled& c = compile_cpu(kProgram, "from_end_window");
  BOOST_TEST(c.source.source.find("constexpr bool kHasKeyTest = true;") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(decoding_packs_the_heads_of_a_group) {
  // One query row with grouped heads: the query heads sharing a key/value head fill one tile
  // (kPackHeads; groups of 4, and of 40 = two tiles), the mask seeing query 0 on every row. A kernel
  // whose score reads the head (ALiBi) keeps one head per tile. Against the reference, with LSE.
  std::mt19937 rng(20);
  for (const char* name :
       {"dense", "causal_lse", "decode", "window37", "documents", "alibi_causal", "dense_f16"})
    for (int64_t groups : {4, 40}) check(name, Shape{2, 2 * groups, 2, 1, 700, 32, 24}, rng);
  BOOST_TEST(compile_cpu(kProgram, "dense").source.source.find("constexpr bool kPackHeads = true;") !=
             std::string::npos);
  BOOST_TEST(compile_cpu(kProgram, "alibi_causal").source.source.find("constexpr bool kPackHeads = false;") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(streamed_half_precision_keys) {
  // Half-precision K/V read by at most two tasks per key/value plane (decoding, short prompts) are
  // converted by each task, piece by piece (at most one 1024-key chunk from a 64-key block start),
  // never as a whole tensor: rows of several pieces, runs of key blocks that start mid-block (the
  // sinks window), packed heads, a buffer mask with its run-time key runs, value_dim padding.
  std::mt19937 rng(23);
  check("causal_bf16", Shape{1, 1, 1, 40, 2500, 64, 64}, rng);
  check("window_f16", Shape{2, 8, 2, 1, 3100, 32, 40}, rng);
  check("dense_f16", Shape{1, 32, 4, 1, 2200, 40, 24}, rng);
  check("sinks_bf16", Shape{1, 2, 2, 64, 2600, 16, 16}, rng);
  const CpuCompiled& c = compile_cpu(kProgram, "documents_f16");
  Shape s{1, 2, 1, 30, 2300, 16, 24};
  KernelInputs in = random_inputs(*c.ir, s, rng);
  HostTensor& doc = in.buffers["doc"];
  for (int64_t j = 0; j < doc.numel(); ++j) doc.set(j, int(j % 3));  // documents interleaved
  KernelOutputs want = run_reference(*c.ir, in, 2), got = run_cpu_kernel(*c.ir, in, 2);
  BOOST_TEST(max_abs_diff(got.out, want.out) <= 1e-2);
}

BOOST_AUTO_TEST_CASE(decoding_splits_keys_across_threads) {
  // Fewer tasks than threads (decoding one packed group, or one head): each task's keys are cut
  // into shares of at least one 1024-key chunk, computed in parallel and merged. Shares with no
  // allowed key (causal at query 0), a buffer mask, a score that reads the head (not packed), half
  // precision, LSE; 2 and 4 threads.
  std::mt19937 rng(29);
  struct Case {
    const char* name;
    Shape shape;
  };
  for (const Case& c :
       {Case{"dense", Shape{1, 4, 1, 1, 3000, 32, 24}}, Case{"causal_lse", Shape{1, 2, 1, 1, 5000, 16, 16}},
        Case{"window37", Shape{1, 1, 1, 3, 4100, 16, 16}}, Case{"dense_f16", Shape{1, 8, 1, 1, 4500, 40, 24}},
        Case{"documents", Shape{1, 2, 1, 1, 3300, 16, 16}},
        Case{"alibi_causal", Shape{1, 1, 1, 1, 2500, 16, 16}}})
    for (int threads : {2, 4}) {
      const CpuCompiled& k = compile_cpu(kProgram, c.name);
      KernelInputs in = random_inputs(*k.ir, c.shape, rng);
      KernelOutputs want = run_reference(*k.ir, in, 2);
      CpuRun got = run_cpu(k, in, k.ir->options.lse, false, threads);
      BOOST_REQUIRE_MESSAGE(got.status == 0, c.name << ": " << got.error);
      BOOST_TEST(max_abs_diff(got.outputs.out, want.out) <= tolerance(io_type(*k.ir)),
                 c.name << " threads " << threads);
      if (k.ir->options.lse)
        BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) <= 5 * tolerance(io_type(*k.ir)),
                   c.name << " LSE");
    }
  // A row no share reaches (kv <= q - 10 at query 0): Out 0, LSE -inf, no NaN from the merge.
  const CpuCompiled& k = compile_cpu(kProgram, "decode");
  KernelInputs in = random_inputs(*k.ir, Shape{1, 4, 1, 1, 3000, 16, 16}, rng);
  in.scalars["offset"] = -10;
  CpuRun got = run_cpu(k, in, true, false, 4);
  BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
  for (int64_t i = 0; i < got.outputs.out.numel(); ++i) BOOST_REQUIRE(got.outputs.out.get(i) == 0.0);
  for (int64_t i = 0; i < got.outputs.lse.numel(); ++i)
    BOOST_REQUIRE(std::isinf(got.outputs.lse.get(i)) && got.outputs.lse.get(i) < 0);
}

BOOST_AUTO_TEST_CASE(no_keys_gives_zero_and_minus_infinity) {
  // Lkv = 0: every row is fully masked, in every dtype path (the wrapper answers without tasks).
  std::mt19937 rng(16);
  for (const char* name : {"causal_lse", "dense_f16"}) {
    const CpuCompiled& c = compile_cpu(kProgram, name);
    Shape s{1, 2, 1, 37, 0, 16, 16};
    KernelInputs in = random_inputs(*c.ir, s, rng);
    CpuRun got = run_cpu(c, in, true);
    BOOST_REQUIRE_MESSAGE(got.status == 0, name << ": " << got.error);
    for (int64_t i = 0; i < got.outputs.out.numel(); ++i) BOOST_TEST(got.outputs.out.get(i) == 0.0);
    for (int64_t i = 0; i < got.outputs.lse.numel(); ++i) BOOST_TEST(got.outputs.lse.get(i) == -INFINITY);
    check(name, s, rng);
  }
}

BOOST_AUTO_TEST_CASE(strided_views) {
  std::mt19937 rng(14);
  check("window37", Shape{2, 4, 2, 77, 90, 40, 24}, rng, true);
  check("causal_bf16", Shape{1, 2, 2, 45, 45, 64, 64}, rng, true);
}

BOOST_AUTO_TEST_CASE(fully_masked_rows_give_zero_and_minus_infinity) {
  std::mt19937 rng(15);
  const CpuCompiled& c = compile_cpu(kProgram, "first_rows");
  Shape s{1, 2, 1, 70, 70, 32, 32};
  KernelInputs in = random_inputs(*c.ir, s, rng);
  CpuRun got = run_cpu(c, in, true);
  BOOST_REQUIRE_MESSAGE(got.status == 0, got.error);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t q = 3; q < 70; ++q) {
      BOOST_TEST(got.outputs.lse.get(h * 70 + q) == -INFINITY);
      for (int64_t d = 0; d < 32; ++d) BOOST_TEST(got.outputs.out.get((h * 70 + q) * 32 + d) == 0.0);
    }
  check("first_rows", s, rng);
}

BOOST_AUTO_TEST_CASE(buffer_index_out_of_range_is_an_error) {
  std::mt19937 rng(16);
  const CpuCompiled& c = compile_cpu(kProgram, "documents");
  Shape s{1, 1, 1, 50, 50, 16, 16};
  KernelInputs in = random_inputs(*c.ir, s, rng);
  in.buffers["doc"] = HostTensor(ScalarType::I32, {40});  // shorter than the sequence
  CpuRun got = run_cpu(c, in, true);
  BOOST_TEST(got.status != 0);
  BOOST_TEST(got.error.find("'doc'") != std::string::npos, got.error);
  BOOST_TEST(got.error.find("index") != std::string::npos, got.error);
}

// Guarded reads (tests/support/GuardedReads.h): neither made nor reported where the guard rules
// them out, also in a tile or key block that holds both kinds of positions; unguarded, an error.
BOOST_AUTO_TEST_CASE(guarded_reads_are_not_reported) {
  std::mt19937 rng(61);
  for (int64_t len : {75, 150}) {
    for (const std::string name : kGuardedReadsKernels) {
      const CpuCompiled& c = compile_cpu(kGuardedReadsProgram, name);
      KernelInputs in = random_inputs(*c.ir, Shape{1, 2, 1, len, len, 32, 32}, rng);
      in.buffers = guarded_reads_buffers(*c.ir, len);
      CpuRun got = run_cpu(c, in, true);
      if (name == "unguarded") {
        BOOST_TEST(got.status != 0, name);
        BOOST_TEST(got.error.find("buffer 'start': index -1") != std::string::npos, got.error);
        continue;
      }
      BOOST_REQUIRE_MESSAGE(got.status == 0, name << " L=" << len << ": " << got.error);
      KernelOutputs want = run_reference(*c.ir, in, 2);
      BOOST_TEST(max_abs_diff(got.outputs.out, want.out) <= 2e-4, name << " L=" << len);
      BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) <= 1e-3, name << " L=" << len);
    }
  }
}

// Bounded reductions: over a buffer's dimension (its extent changes between two calls of one
// compiled kernel), over a scalar (zero-length included), nested, in the mask and in the score.
BOOST_AUTO_TEST_CASE(bounded_reductions_against_the_reference) {
  static const char* kReductions = R"(
kernel vsa(topk: tensor<i32>[batch, heads, tiles, top_k]) {
  mask = any(j < top_k: topk[b, h, q // 16, j] == kv // 16);
  lse = true;
}
kernel rope(rq: tensor<f32>[len, rope], rk: tensor<f32>[len, rope], n: int) {
  score = score + 0.25 * sum(d < rope: rq[q, d] * rk[kv, d]) + float(max(i < n: (q + i) % 3)) * 0.1
          + float(sum(i < n: i)) + min(i < n + 1: float(i)) * 0.5;
  lse = true;
}
kernel nested(n: int) {
  mask = all(i < n: any(j < n: (q + i + j) % 5 != kv % 5)) || q == kv;
  lse = true;
}
kernel renamed(_topk: tensor<i32>[batch, heads, tiles, top_k], _n: int) {
  mask = any(j < top_k: _topk[b, h, q // 16, j] == kv // 16) || kv < _n;
  lse = true;
}
)";
  std::mt19937 rng(23);
  const Shape s{2, 2, 1, 70, 90, 16, 16};
  auto run = [&](const std::string& name, const std::map<std::string, HostTensor>& buffers,
                 const std::map<std::string, double>& scalars) {
    const CpuCompiled& c = compile_cpu(kReductions, name);
    KernelInputs in;
    in.q = random_tensor(ScalarType::F32, {s.B, s.Hq, s.Lq, s.D}, rng);
    in.k = random_tensor(ScalarType::F32, {s.B, s.Hkv, s.Lkv, s.D}, rng);
    in.v = random_tensor(ScalarType::F32, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
    in.buffers = buffers;
    in.scalars = scalars;
    KernelOutputs want = run_reference(*c.ir, in, 2);
    CpuRun got = run_cpu(c, in, true);
    BOOST_REQUIRE_MESSAGE(got.status == 0, name << ": " << got.error);
    BOOST_TEST(max_abs_diff(got.outputs.out, want.out) <= 2e-4, name);
    BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) <= 1e-3, name);
  };
  auto ints = [&](std::vector<int64_t> shape, int hi) {
    HostTensor t(ScalarType::I32, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, int(rng() % static_cast<unsigned>(hi)));
    return t;
  };
  for (int64_t top_k : {3, 1, 6}) run("vsa", {{"topk", ints({s.B, s.Hq, 5, top_k}, 6)}}, {});
  for (int64_t rope : {8, 3}) {
    HostTensor rq = random_tensor(ScalarType::F32, {90, rope}, rng),
               rk = random_tensor(ScalarType::F32, {90, rope}, rng);
    for (double n : {0.0, 4.0}) run("rope", {{"rq", rq}, {"rk", rk}}, {{"n", n}});
  }
  for (double n : {0.0, 1.0, 3.0}) run("nested", {}, {{"n", n}});
  // Names that start with `_` are `u_`-prefixed in the emitted C++ (emitted_name): the reduction's
  // bound, the run-time plan's buffer and scalar tables follow (the plan's tables failed with an
  // internal error before 2026-12-07).
  run("renamed", {{"_topk", ints({s.B, s.Hq, 5, 2}, 6)}}, {{"_n", 3.0}});
  // A read out of range inside a reduction is the kernel's error, as anywhere.
  const CpuCompiled& c = compile_cpu(kReductions, "vsa");
  KernelInputs in;
  in.q = random_tensor(ScalarType::F32, {s.B, s.Hq, s.Lq, s.D}, rng);
  in.k = random_tensor(ScalarType::F32, {s.B, s.Hkv, s.Lkv, s.D}, rng);
  in.v = random_tensor(ScalarType::F32, {s.B, s.Hkv, s.Lkv, s.Dv}, rng);
  in.buffers["topk"] = ints({s.B, s.Hq, 2, 3}, 6);  // 2 tiles of 16 rows: q // 16 reaches 4
  CpuRun got = run_cpu(c, in, true);
  BOOST_TEST(got.status != 0);
  BOOST_TEST(got.error.find("'topk'") != std::string::npos, got.error);
}

BOOST_AUTO_TEST_CASE(argument_errors_are_messages) {
  std::mt19937 rng(17);
  const CpuCompiled& c = compile_cpu(kProgram, "fixed64");
  KernelInputs in = random_inputs(*c.ir, Shape{1, 3, 2, 8, 8, 64, 64}, rng);  // 3 heads over 2
  CpuRun got = run_cpu(c, in, true);
  BOOST_TEST(got.status != 0);
  BOOST_TEST(got.error.find("multiple") != std::string::npos, got.error);
  KernelInputs in2 = random_inputs(*c.ir, Shape{1, 2, 2, 8, 8, 64, 64}, rng);
  in2.q = random_tensor(ScalarType::F32, {1, 2, 8, 32}, rng);
  got = run_cpu(c, in2, true);
  BOOST_TEST(got.status != 0);
  BOOST_TEST(!got.error.empty());
}

BOOST_AUTO_TEST_CASE(cpp_vector_classes_give_what_native_vectors_give) {
  // Halide's portable vector classes (CppVector: lane counts without a native vector), forced with
  // HALIDE_CPP_ALWAYS_USE_CPP_VECTORS: their comparisons must give 0/1 lanes as the native ones
  // do, for a mask that compares two masks and for one that selects with a comparison.
  const char* program = R"attn(
kernel halves(n: int) { mask = (q < n) == (kv < n); lse = true; }
kernel documents(doc: tensor<i32>[len]) { mask = kv <= q && doc[q] == doc[kv]; lse = true; }
)attn";
  std::mt19937 rng(23);
  for (const char* name : {"halves", "documents"}) {
    CpuCompiled c = compile_cpu(program, name);
    c.source.source = "#define HALIDE_CPP_ALWAYS_USE_CPP_VECTORS 1\n" + c.source.source;
    c.kernel = compile_cpu_kernel(c.source);
    KernelInputs in = random_inputs(*c.ir, Shape{1, 2, 1, 70, 90, 16, 16}, rng);
    if (std::string(name) == "halves") in.scalars["n"] = 40;
    KernelOutputs want = run_reference(*c.ir, in, 2);
    CpuRun got = run_cpu(c, in, true);
    BOOST_REQUIRE_MESSAGE(got.status == 0, name << ": " << got.error);
    BOOST_TEST(max_abs_diff(got.outputs.out, want.out) <= 2e-4, name);
    BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) <= 1e-3, name);
  }
}

BOOST_AUTO_TEST_CASE(emitted_source_is_deterministic_and_warning_free) {
  // alibi_causal: closed-form key ranges; documents: also the run-time ranges' wrapper code; the
  // bf16 ones: the matrix paths too, with a mask pass and without one (a pipeline with no vectors).
  for (const char* name : {"alibi_causal", "documents", "documents_bf16", "dense_bf16"}) {
    auto ir = lower_text(kProgram, name);
    // Every vector path, built without -m flags: the paths' target pragmas select their ISAs.
    CpuKernelSource a = generate_cpu_kernel(*ir, all_cpu_paths());
    CpuKernelSource b = generate_cpu_kernel(*ir, all_cpu_paths());
    BOOST_TEST((a.source == b.source && a.header == b.header));
    if (a.source != b.source) {
      write_file("/tmp/attnc_det_a.cpp", a.source);
      write_file("/tmp/attnc_det_b.cpp", b.source);
    }
    check_compiles_warning_free(a, name);
  }
}

namespace {

// Inputs for a sample kernel's own arguments, sized from their declared dimension names.
void sample_arguments(const KernelIR& ir, const Shape& s, KernelInputs& in, std::mt19937& rng) {
  int64_t len = std::max(s.Lq, s.Lkv);
  std::vector<int> doc(static_cast<size_t>(len));
  std::vector<int> starts;
  for (int64_t i = 0, d = -1; i < len; ++i) {
    if (i % 37 == 0) {
      ++d;
      starts.push_back(int(i));
    }
    doc[size_t(i)] = int(d);
  }
  auto extent = [&](const std::string& dim) -> int64_t {
    if (dim == "len") return len;
    if (dim == "heads") return s.Hq;
    if (dim == "docs") return int64_t(starts.size());
    return 32;
  };
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      in.scalars[a.name] = a.name == "offset" ? double(s.Lkv - s.Lq) : 1.0;
      continue;
    }
    std::vector<int64_t> shape;
    for (const std::string& d : a.dims) shape.push_back(extent(d));
    ScalarType t = a.elem == ElemType::F32   ? ScalarType::F32
                   : a.elem == ElemType::I32 ? ScalarType::I32
                                             : ScalarType::Bool;
    HostTensor buf(t, shape);
    for (int64_t i = 0; i < buf.numel(); ++i) {
      if (a.name == "doc")
        buf.set(i, doc[size_t(i)]);
      else if (a.name == "start")
        buf.set(i, starts[size_t(i)]);
      else if (t == ScalarType::Bool)
        buf.set(i, unit(rng) < 0.1 ? 1 : 0);
      else if (t == ScalarType::I32)
        buf.set(i, int(unit(rng) * 4));
      else
        buf.set(i, unit(rng) - 0.5);
    }
    in.buffers[a.name] = buf;
  }
}

}  // namespace

// Every kernel of each (origin, .attn text) against the reference; an input the reference rejects
// must fail here too.
static void check_kernel_programs(const std::vector<std::pair<std::string, std::string>>& programs,
                                  std::mt19937& rng) {
  for (const auto& [origin, text] : programs) {
    auto program = load_program_text(origin, text);
    BOOST_REQUIRE_MESSAGE(!program->diags.has_errors(), render_diagnostics(program->diags, program->sources));
    for (const Decl* k : program->kernels()) {
      const CpuCompiled& c = compile_cpu(text, k->name);
      const KernelOptions& o = c.ir->options;
      bool decode = k->name.find("decode") != std::string::npos;
      Shape s{1, 2, 1, decode ? 3 : 90, 130, o.head_dim ? o.head_dim : 32, 0};
      s.Dv = o.value_dim ? o.value_dim : s.D;
      KernelInputs in = random_inputs(*c.ir, s, rng);
      sample_arguments(*c.ir, s, in, rng);
      std::string where = origin + ":" + k->name;
      KernelOutputs want;
      bool reference_failed = false;
      try {
        want = run_reference(*c.ir, in, 2);
      } catch (const std::exception& e) {
        reference_failed = true;
      }
      CpuRun got = run_cpu(c, in, o.lse);
      if (reference_failed) {
        BOOST_TEST(got.status != 0, where << ": the reference rejected the inputs, the CPU kernel did not");
        continue;
      }
      BOOST_REQUIRE_MESSAGE(got.status == 0, where << ": " << got.error);
      double d = max_abs_diff(got.outputs.out, want.out);
      BOOST_TEST(d <= tolerance(io_type(*c.ir)), where << ": out differs by " << d);
      if (o.lse)
        BOOST_TEST(max_abs_diff(got.outputs.lse, want.lse) <= 5 * tolerance(io_type(*c.ir)),
                   where << ": lse");
    }
  }
}

BOOST_AUTO_TEST_CASE(every_sample_kernel) {
  std::mt19937 rng(19);
  std::vector<std::pair<std::string, std::string>> samples;
  for (const auto& f : files_under(source_dir() / "samples", ".attn"))
    samples.emplace_back(f.filename().string(), read_file(f));
  check_kernel_programs(samples, rng);
}

// One generated kernel per stdlib definition.
BOOST_AUTO_TEST_CASE(every_stdlib_definition) {
  std::mt19937 rng(23);
  std::vector<std::pair<std::string, std::string>> programs;
  for (const StdlibKernelProgram& p : stdlib_kernel_programs(StdlibKernelOptions{}))
    programs.emplace_back(p.path, p.text);
  check_kernel_programs(programs, rng);
}
