// Builds the Funcs of a fused attention from a kernel's mask and score expressions.
#include "backends/cpu/AttentionAlgorithm.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>

#include "backends/cpu/CheckedLoads.h"
#include "backends/cpu/RDomReductions.h"
#include "backends/cpu/ScheduleMath.h"
#include "codegen/TilePlan.h"
#include "backends/cpu/VectorMath.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Expr;
using Halide::Param;
using Halide::Argument;

namespace {

constexpr float kLog2e = 1.44269504088896341f;

int round_up(int x, int m) { return (x + m - 1) / m * m; }

bool is_identity_score(const KernelIR& ir) {
  return !ir.score.defined() || Internal::equal(ir.score, score_var());
}

}  // namespace

std::string fresh_name_prefix() {
  static std::atomic<int> next{0};
  char buf[16];
  snprintf(buf, sizeof buf, "k%06d_", next.fetch_add(1) % 1000000);
  return buf;
}

Geometry choose_geometry(const KernelIR& ir, const CpuTarget& target) {
  Geometry g;
  switch (target.isa) {
    // Chunks of 1024 keys: full attention ran 101 ms per call against 110 (512), 103 (2048) and
    // 142 (no chunks) in bench/cpu (L=4096, D=64, 2 threads, AVX-512).
    case CpuIsa::AVX512: g = {16, 32, 8, 16, 1024}; break;  // 32 zmm: 2x8 score accumulators
    // The bf16 matrix paths: tiles of 64 rows (each K and V row loaded from L2 serves twice as
    // many as at 32), blocks of 32 keys (an AMX tile's 16 rows x 2, a whole k-step of P·V).
    case CpuIsa::AMX:
    case CpuIsa::AVX512BF16: g = {16, 64, 32, 16, 512}; break;
    // 16 ymm: 3x4 score accumulators (24 rows x 4 keys: 12 FMAs take 3 loads of Q and 4 broadcasts
    // of K; with 2x4 each accumulator's FMA latency was exposed). PV in rows x at most 2 value
    // vectors (at D=64 a row of 8 value vectors took 9 loads for 8 FMAs); see below for fixed dims.
    case CpuIsa::AVX2: g = {8, 24, 4, 8, 1024, 2}; break;
    case CpuIsa::Portable: g = {4, 16, 2, 8, 1024}; break;  // 16 xmm-like registers: 4x2
  }
  g.head_dim = ir.options.head_dim;
  g.value_dim = ir.options.value_dim ? ir.options.value_dim : ir.options.head_dim;
  g.value_dim_padded = g.value_dim ? round_up(g.value_dim, g.vector_lanes) : 0;
  // AVX2's PV reads a quarter of each V row per pass (2 of 8 vectors at D=64): over the whole chunk
  // every pass fetched V from L2 again. Blocks of 64 keys stay in L1 for all the passes (V rows of
  // 16 KiB at Dv = 64, 32 KiB at 128), and each pass over a block sums in 6 rows x 2 vectors of
  // registers (12: as for the scores, 8 left the FMA latency exposed). AVX2 proxy, full f32,
  // L=4096, 1 thread: 48 -> 67 GFLOP/s with the 3x4 scores (bench/results/cpu-avx2.md). With
  // run-time head dims a pass sums into 12 rows x 1 vector (a V row's width is unknown).
  // AVX-512 the same way (4 rows x 4 zmm at D=64): each pass of its whole-chunk PV streamed V's
  // 256 KiB from L2 again too. Intel Xeon (AVX-512), 1x8x4096x64, 2 threads, best of 3-4 rounds:
  // clang++ full 146 -> 174 GFLOP/s, causal 154 -> 175; g++ full 147 -> 170, causal 144 -> 153.
  // The block does not depend on the head dims: a kernel that leaves them open and the same kernel
  // fixed to a call's (attnc run, the Python package: with_call_head_dims) sum P·V in the same
  // groups, so a direct call of `attnc compile`'s source gives attnc run's result bit for bit. 64
  // keys against 32: AVX2 proxy, 2 threads, D=64 full 85 vs 79 GFLOP/s; D=128 full 141 vs 129,
  // causal bf16 122 vs 119 (a Zen 3 core's 32 KiB L1 holds a whole block only at Dv <= 64).
  if (target.isa == CpuIsa::AVX2 || target.isa == CpuIsa::AVX512) g.pv_key_block = 64;
  g.matrix = is_matrix_isa(target.isa);
  if (target.isa == CpuIsa::AVX2) g.accumulators = 12;
  return g;
}

Geometry choose_backward_geometry(const KernelIR& ir, const CpuTarget& target) {
  Geometry g = choose_geometry(ir, target);
  // The backward's products were tuned on 16-row AVX2 tiles (ScheduleBackward.cpp: 2x4 ymm).
  if (target.isa == CpuIsa::AVX2) g.tile_q = 16, g.accumulators = 8;
  g.pv_key_block = 0;
  return g;
}

}  // namespace attn::cpu

namespace attn {

CpuTiles cpu_kernel_tiles(const CpuTarget& target) {
  KernelIR ir;
  // The run-time plan in AVX-512's tiles for the matrix paths too: their key blocks of 32 round
  // its ranges outwards, and the backward (on the avx512 path) reads the same plan.
  cpu::Geometry g = cpu::choose_geometry(ir, {effective_cpu_isa(target.isa, DType::F32, false)});
  return {g.tile_q, g.key_block};
}

}  // namespace attn

namespace attn::cpu {

namespace {

// What the steps of define_attention share besides the algorithm they fill in.
struct AttentionDefinition {
  AttentionDefinition(const KernelIR& ir, const Geometry& g, const std::string& prefix, AttentionAlgorithm& a)
      : ir(ir), g(g), prefix(prefix), a(a) {}

  const KernelIR& ir;
  const Geometry& g;
  const std::string& prefix;
  AttentionAlgorithm& a;
  Expr D;                   // the head dim: a constant, or the attn_d parameter
  Expr qi;                  // the query of row ii
  bool identity = false;    // no score modifier: scores stay in log2 units from the start
  Expr chunk_lo, chunk_hi;  // this call's keys
  Expr row_max;             // the row max, as the probabilities and the partial result read it
  Expr raw_scale;           // matrix paths: the scale of dot's raw products

  // Index variables of the IR -> this pipeline's coordinates.
  Expr bind(Expr e) const {
    e = Internal::substitute("q", qi, e);
    e = Internal::substitute("kv", Expr(a.j), e);
    e = Internal::substitute("b", Expr(a.batch), e);
    e = Internal::substitute("h", Expr(a.head), e);
    // The call's lengths: a paged sequence's num_queries is q0 + its queries, its key count.
    e = Internal::substitute("q_len", Expr(a.num_queries), e);
    e = Internal::substitute("kv_len", Expr(a.num_keys), e);
    return e;
  }
};

// The pipeline's inputs and coordinates: buffers, the call's scalars and their ranges, the head dims.
void declare_inputs(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  a.q = ImageParam(Float(32), 2, "attn_q");
  a.k = ImageParam(Float(32), 2, "attn_k");
  a.v = ImageParam(Float(32), 2, "attn_v");
  a.num_queries = Param<int>("attn_lq");
  a.num_keys = Param<int>("attn_lk");
  a.tile = Param<int>("attn_tile");
  a.rows = Param<int>("attn_rows");
  a.decoding = Param<int>("attn_decoding");
  a.q_step = Param<int>("attn_q_step");
  a.q0 = Param<int>("attn_q0");
  a.head = Param<int>("attn_head");
  a.batch = Param<int>("attn_batch");
  a.kv_lo = Param<int>("attn_kv_lo");
  a.kv_hi = Param<int>("attn_kv_hi");
  a.chunk_lo = Param<int>("attn_chunk_lo");
  // Ranges the wrapper guarantees; they also keep every parameter used in the emitted function.
  a.num_queries.set_range(1, Expr());
  a.num_keys.set_range(0, Expr());
  a.tile.set_range(0, Expr());
  a.rows.set_range(1, d.g.tile_q);
  a.decoding.set_range(0, 2);
  a.q_step.set_range(0, 1);
  a.q0.set_range(0, Expr());
  a.head.set_range(0, Expr());
  a.batch.set_range(0, Expr());
  a.c = Var("c"), a.j = Var("j"), a.ii = Var("ii");

  // Head dims known only at run time come as scalars: a constraint of a buffer in terms of its
  // own extent would make the ImageParam refer to itself (a reference cycle Halide never frees).
  a.head_dim = Param<int>("attn_d");
  a.value_dim_padded = Param<int>("attn_dv_pad");
  a.head_dim.set_range(1, Expr());
  a.value_dim_padded.set_range(1, Expr());
  d.D = d.g.head_dim ? Expr(d.g.head_dim) : Expr(a.head_dim);
  a.value_cols = d.g.value_dim_padded ? Expr(d.g.value_dim_padded) : Expr(a.value_dim_padded);
  // Row ii is query q0 + tile*T + ii, or (q_step 0: decoding with a group's heads packed in the
  // rows) query q0 + tile*T for every row. q0 is 0 but for a paged sequence, whose queries are its
  // last tokens (fixed/RaggedBatch.h, attend_paged): `num_queries` is then q0 + its query count.
  d.qi = a.q0 + a.tile * d.g.tile_q + a.ii * a.q_step;
}

// The scale of the raw scores (and log2(e) when no score modifier needs natural units).
Expr score_scale(AttentionDefinition& d) {
  d.identity = is_identity_score(d.ir);
  Expr scale = d.ir.options.scale ? Expr((float)*d.ir.options.scale) : 1.0f / sqrt(cast<float>(d.D));
  return d.identity ? scale * kLog2e : scale;
}

// Q·K^T of the tile's rows (qs, dot, the scale folded into Q): the raw scores.
void define_scores(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  const Var &c = a.c, &j = a.j, &ii = a.ii;
  a.qs = Func(d.prefix + "qs");
  a.qs(c, ii) = a.q(c, ii) * score_scale(d);

  a.rd = RDom(0, d.D, d.prefix + "rd");
  a.dot = Func(d.prefix + "dot");
  a.dot(j, ii) = 0.0f;
  // Key rows clamped to the buffer: score blocks are rounded up to whole blocks of keys. (The
  // buffer ends at Lk, or, for K converted piece by piece, at the piece's end: KernelWrapper.cpp.)
  // `likely`: Halide splits the loop over key blocks into the blocks wholly inside the buffer,
  // where the clamp is gone and a block's rows are one base and constant offsets, and the last one.
  Expr key_row = min(likely(j), a.k.dim(1).extent() - 1);
  a.dot(j, ii) += a.qs(a.rd, ii) * a.k(a.rd, key_row);
  a.scores = Func(d.prefix + "scores");
  a.scores(j, ii) = a.dot(j, ii);
  // The decoding layout: the same products for the first kDecodeRows rows only (ScheduleAttention.cpp
  // blocks them in narrower vectors). A tile of 32 rows decoding the 4 query heads of a group spent
  // 7/8 of its Q·Kᵀ on rows that hold no query.
  a.dec_keys = Func(d.prefix + "dec_keys");
  a.dec_keys(c, j) = a.k(c, key_row);
  a.dec_dot = Func(d.prefix + "dec_dot");
  a.dec_dot(j, ii) = 0.0f;
  a.dec_dot(j, ii) += a.qs(a.rd, ii) * a.dec_keys(a.rd, j);
  a.dec_scores = Func(d.prefix + "dec_scores");
  a.dec_scores(j, ii) = a.dec_dot(j, ii);
}

// The raw scores as the mask pass reads them: the f32 paths' decoding layout takes row ii's from
// dec_scores (rows past kDecodeRows read its last row: padding the wrapper ignores). Halide makes
// each Func's production conditional on the select's condition, so a call computes one of the two.
Expr raw_scores(const AttentionDefinition& d) {
  const AttentionAlgorithm& a = d.a;
  if (d.g.matrix) return a.scores(a.j, a.ii);
  return select(a.decoding != 0, a.dec_scores(a.j, min(a.ii, kDecodeRows - 1)), a.scores(a.j, a.ii));
}

// The bf16 matrix paths: Q·K^T is an extern stage (fixed/MatrixProducts.h: AMX tiles or
// vdpbf16ps) writing the tile's raw scores key by key, dot(ii, j); the scale is applied after the
// product, in f32, as PyTorch's bf16 attention does.
void define_matrix_scores(AttentionDefinition& d, const std::string& externs) {
  AttentionAlgorithm& a = d.a;
  const Var &j = a.j, &ii = a.ii;
  a.dot = Func(d.prefix + "dot");
  a.dot.define_extern(externs + "_qk", {a.q, a.k, a.rows, a.decoding}, Float(32), {ii, j}, NameMangling::C);
  d.raw_scale = score_scale(d);
  a.scores = Func(d.prefix + "scores");
  a.scores(j, ii) = a.dot(ii, j) * d.raw_scale;
}

// The scores with the score modifier and the mask applied (masked).
void define_masked(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  const KernelIR& ir = d.ir;
  const std::string& prefix = d.prefix;
  const Var &j = a.j, &ii = a.ii;

  // Buffer loads checked in the IR's own variables (q, kv), then bound to the pipeline's.
  Expr q_var = index_var(IndexVar::Q), kv_var = index_var(IndexVar::KV);
  Expr inactive = q_var >= a.num_queries || kv_var >= a.num_keys;
  auto checked = [&](const Expr& e) { return check_buffer_loads(e, inactive, a.num_queries, a.num_keys); };
  Expr mask = expand_erf(ir.mask.defined() ? ir.mask : Internal::const_true());
  Expr checked_mask = checked(mask);
  Expr bound_mask = lower_reductions_to_rdoms(d.bind(checked_mask), prefix + "mask_");
  // Raw scores first, then score modifier and mask in their own pass: a select inside the score
  // block makes Halide partition its loop by the mask and the accumulators leave registers.
  Expr s = raw_scores(d);
  if (!d.identity) {
    // The score is evaluated at kept keys only (docs/language.md): its loads are not checked
    // where the mask is false.
    Expr not_kept = is_const_one(mask) ? inactive : (inactive || !checked_mask);
    Expr mod = check_buffer_loads(vectorize_transcendentals(ir.score), not_kept, a.num_queries, a.num_keys);
    s = lower_reductions_to_rdoms(d.bind(Internal::substitute("score", s, mod)), prefix + "score_") * kLog2e;
  }
  a.masked = Func(prefix + "masked");
  // A masked key's score becomes -inf whatever it was (NaN and +Inf included: the mask decides
  // first), by bits rather than by select(mask, s, -inf): Halide narrows the region of a call inside
  // a select by its condition, and a mask-shaped region of `scores` is no longer a register block.
  // (An additive -inf bias would keep a masked NaN or +Inf score alive.)
  a.masked(j, ii) = is_const_one(bound_mask) ? s : mask_to_neg_inf(bound_mask, s);
  a.masked_is_scores = is_const_one(bound_mask) && d.identity;
}

// Keys this tile can see: the hull of the tile plan's key-tile runs (codegen/PlanTiles: Partial,
// Full, Partial, contiguous) intersected with the wrapper's window, in key blocks of KB so that
// score blocks start aligned. For masks that read buffers the closed-form hull comes from their
// index-only conjuncts and the window from the run-time plan. The wrapper calls the pipeline on
// runs of key blocks the mask may allow (KernelWrapper.cpp: its key-block test), one chunk of at
// most key_chunk keys at a time.
void define_key_window(AttentionDefinition& d, const TilePlan& plan) {
  AttentionAlgorithm& a = d.a;
  const int T = d.g.tile_q, KB = d.g.key_block;
  a.uses_kv_ranges = !plan.index_only;
  // The tile's queries [q0 + tile*T, q0 + tile*T + T) meet the plan's query tiles first_qt and
  // last_qt (the same one when q0 is a multiple of T, as it is but for paged sequences; rows past
  // the last query ask for nothing).
  Expr first_q = a.q0 + a.tile * T;
  Expr first_qt = first_q / T;
  Expr last_qt = min((first_q + (T - 1) * a.q_step) / T, (a.num_queries - 1) / T);
  auto plan_expr = [&](Expr e, Expr qt) {
    e = Internal::substitute("qt", qt, e);
    e = Internal::substitute("q_tiles", (a.num_queries + (T - 1)) / T, e);
    e = Internal::substitute("kv_tiles", (a.num_keys + (KB - 1)) / KB, e);
    e = Internal::substitute("q_len", Expr(a.num_queries), e);
    e = Internal::substitute("kv_len", Expr(a.num_keys), e);
    return d.bind(e);
  };
  Expr key_lo = 0, key_hi = 0;
  if (!plan.ranges.empty()) {
    key_lo = min(plan_expr(plan.ranges.front().begin, first_qt), plan_expr(plan.ranges.front().begin, last_qt)) * KB;
    key_hi = max(plan_expr(plan.ranges.back().end, first_qt), plan_expr(plan.ranges.back().end, last_qt)) * KB;
  }
  key_lo = max(key_lo, a.kv_lo / KB * KB);
  key_hi = min(key_hi, (a.kv_hi + (KB - 1)) / KB * KB);
  // An empty window has end == start, both within [0, Lk]: Halide sizes buffers from end - start of
  // the loop, and a start past the buffer would make that negative.
  key_lo = clamp(key_lo, 0, a.num_keys);
  key_hi = clamp(key_hi, key_lo, a.num_keys);
  // This call's chunk: at most key_chunk keys of the window from chunk_lo (rounded down to a
  // key block) on.
  d.chunk_lo = clamp(a.chunk_lo / KB * KB, key_lo, key_hi);
  d.chunk_hi = min(d.chunk_lo + d.g.key_chunk, key_hi);
  a.window_hi = key_hi;
  a.chunk_hi = d.chunk_hi;
  a.rk = RDom(d.chunk_lo, d.chunk_hi - d.chunk_lo, d.prefix + "rk");
}

// The softmax over the chunk's keys: row max, probabilities in log2 units, row sum.
void define_softmax(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  const Var &j = a.j, &ii = a.ii;
  const float inf = std::numeric_limits<float>::infinity();
  a.row_max = Func(d.prefix + "row_max");
  a.row_max(ii) = -inf;
  a.row_max(ii) = max(a.row_max(ii), a.masked(a.rk, ii));
  d.row_max = a.row_max(ii);
  // A fully masked row: every exp gives 0. A NaN score stays NaN through exp2_nonpositive and
  // reaches the row. A +Inf row max makes inf - inf = NaN too: the CPU gives such a row NaN, not
  // the mean of its +Inf keys (docs/language.md; every per-score fix tried cost 1.6x, AVX-512).
  Expr m_safe = select(d.row_max == -inf, 0.0f, d.row_max);

  a.probs = Func(d.prefix + "probs");
  a.probs(j, ii) = exp2_nonpositive(a.masked(j, ii) - m_safe);

  a.row_sum = Func(d.prefix + "row_sum");
  a.row_sum(ii) = 0.0f;
  a.row_sum(ii) += a.probs(a.rk, ii);
}

// P·V over the chunk's keys, whole key blocks first when the geometry asks for them.
void define_pv(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  const Var &c = a.c, &ii = a.ii;
  const std::string& prefix = d.prefix;
  a.pv = Func(prefix + "pv");
  if (d.g.pv_key_block) {
    // P·V block by block of pv_key_block keys (ScheduleAttention.cpp): each whole block's sums in
    // their own Func, so that a pass over a block accumulates in a constant-size box (registers);
    // then the keys past the last whole block.
    const int KBL = d.g.pv_key_block;
    Expr whole = (d.chunk_hi - d.chunk_lo) / KBL;
    a.kb = Var("kb");
    a.rki = RDom(0, KBL, prefix + "rki");
    Expr key = d.chunk_lo + a.kb * KBL + a.rki.x;
    a.pv_block = Func(prefix + "pv_block");
    a.pv_block(c, ii, a.kb) = 0.0f;
    a.pv_block(c, ii, a.kb) += a.probs(key, ii) * a.v(c, key);
    a.rkb = RDom(0, whole, prefix + "rkb");
    a.pv_blocks = Func(prefix + "pv_blocks");
    a.pv_blocks(c, ii) = 0.0f;
    a.pv_blocks(c, ii) += a.pv_block(c, ii, a.rkb.x);
    a.rkt = RDom(d.chunk_lo + whole * KBL, d.chunk_hi - d.chunk_lo - whole * KBL, prefix + "rkt");
    a.pv(c, ii) = a.pv_blocks(c, ii);
    a.pv(c, ii) += a.probs(a.rkt, ii) * a.v(c, a.rkt);
  } else {
    a.pv(c, ii) = 0.0f;
    a.pv(c, ii) += a.probs(a.rk, ii) * a.v(c, a.rk);
  }
}

// The chunk's partial result, merged across chunks and normalized by the wrapper (flash
// attention's rescaling): P·V in columns [0, Dv_pad), then the row max (log2 units; -inf when the
// chunk masks the whole row), the row sum, and the bits of two ints: where this chunk ended and
// where the window ends (the next call starts at the first). Then the buffers' layouts.
void define_output(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  const Var &c = a.c, &ii = a.ii;
  Expr Dvp = a.value_cols;
  // With P·V in key blocks (computed whole: ScheduleAttention.cpp), P·V of the rows that hold
  // queries only, in whole groups of the schedule's R rows: the rows past them read the last
  // group's last row (the wrapper ignores them). Decoding 4 heads of a group in a tile of 32 rows
  // computed 8 groups of P·V for 1 (docs/cpu.md, the decoding layout's section). The portable path
  // computes P·V per group of the output's rows, unrolled over a constant extent: all of them.
  const PvBox box = pv_box(d.g.value_dim_padded ? d.g.value_dim_padded / d.g.vector_lanes : 1, d.g.tile_q,
                           d.g.accumulators, d.g.pv_value_vectors);
  Expr pv_row = d.g.pv_key_block ? min(ii, (a.rows + (box.R - 1)) / box.R * box.R - 1) : Expr(ii);
  a.partial = Func(d.prefix + "partial");
  a.partial(c, ii) =
      select(likely(c < Dvp), a.pv(min(c, Dvp - 1), pv_row), c == Dvp, d.row_max, c == Dvp + 1, a.row_sum(ii),
             c == Dvp + 2, reinterpret(Float(32), a.chunk_hi), reinterpret(Float(32), a.window_hi));

  a.out = Func(d.prefix + "attn_out");
  a.out(c, ii) = a.partial(c, ii);

  // The wrapper stages dense, padded copies: say so, so that row offsets are constants (or at
  // least loop invariants) and the score loop's broadcasts need no index arithmetic.
  const int T = d.g.tile_q;
  Expr q_cols = d.D;
  a.q.dim(0).set_min(0).set_stride(1).set_extent(q_cols);
  a.q.dim(1).set_min(0).set_stride(q_cols).set_extent(T);
  a.k.dim(0).set_min(0).set_stride(1).set_extent(q_cols);
  a.k.dim(1).set_min(0).set_stride(q_cols);
  a.v.dim(0).set_min(0).set_stride(1).set_extent(Dvp);
  a.v.dim(1).set_min(0).set_stride(Dvp);
  Halide::OutputImageParam o = a.out.output_buffer();
  Expr out_cols = Dvp + d.g.vector_lanes;
  o.dim(0).set_min(0).set_stride(1).set_extent(out_cols);
  o.dim(1).set_min(0).set_stride(out_cols).set_extent(T);
}

// The matrix paths' inputs: the same parameters, with Q, K and V as the wrapper stages them in
// bf16 (fixed/MatrixStaging.h): Q pairs-interleaved [D_pad / 2][tile_q][2] (u16 [2 tile_q, D_pad / 2]),
// K rows [Lk][D_pad] (u16 [D_pad, Lk], rows of any stride), V transposed in blocks of 32 keys,
// [Lk_pad / 32][Dv_pad][32] (u16 [32 Dv_pad, Lk_pad / 32]). Only the extern stages read them.
void declare_matrix_inputs(AttentionDefinition& d) {
  declare_inputs(d);
  AttentionAlgorithm& a = d.a;
  a.q = ImageParam(UInt(16), 2, "attn_q");
  a.k = ImageParam(UInt(16), 2, "attn_k");
  a.v = ImageParam(UInt(16), 2, "attn_v");
}

// The matrix paths' softmax and P·V: one extern stage over the chunk's scores in log2 units (the
// masked ones, or the raw products and their scale when there is no mask and no score modifier),
// which is the pipeline's output: define_output's partial result, written whole (the chunk's
// unnormalized P·V in columns [0, Dv_pad), the row max, the row sum, the chunk's and the window's
// ends as int bits, zeros after them).
void define_matrix_softmax_pv(AttentionDefinition& d, const std::string& externs) {
  AttentionAlgorithm& a = d.a;
  const Var &c = a.c, &ii = a.ii;
  const bool raw = a.masked_is_scores;
  Func scores = raw ? a.dot : a.masked;
  Expr scale = raw ? d.raw_scale : Expr(1.0f);
  const int keys_dim = raw ? 1 : 0;  // dot(ii, j), masked(j, ii)
  a.out = Func(d.prefix + "attn_out");
  a.out.define_extern(externs + "_softmax_pv",
                      {scores, a.v, scale, d.chunk_lo, d.chunk_hi, a.window_hi, keys_dim, a.rows, a.decoding}, Float(32), {c, ii},
                      NameMangling::C);
  a.pv = a.partial = a.out;
  Halide::OutputImageParam o = a.out.output_buffer();
  Expr out_cols = a.value_cols + d.g.vector_lanes;
  o.dim(0).set_min(0).set_stride(1).set_extent(out_cols);
  o.dim(1).set_min(0).set_stride(out_cols).set_extent(d.g.tile_q);
}

// The pipeline's arguments in the wrapper's order: the call's inputs, then the kernel's own.
void list_arguments(AttentionDefinition& d) {
  AttentionAlgorithm& a = d.a;
  a.args = {a.q,    a.k,      a.v,    a.num_queries, a.num_keys, a.head_dim, a.value_dim_padded,
            a.tile, a.rows,   a.decoding, a.q_step,    a.q0,       a.head,     a.batch,    a.kv_lo, a.kv_hi, a.chunk_lo};
  for (const KernelArg& arg : d.ir.args) {
    Internal::Parameter p = arg.param;
    // Buffers arrive as DLPack views in declared dimension order with any strides; Halide's default
    // stride-1 constraint on dimension 0 would reject [heads, buckets] tables (last dim contiguous).
    if (arg.kind == KernelArg::Kind::Buffer) p.set_stride_constraint(0, Expr());
    if (arg.kind == KernelArg::Kind::Buffer)
      a.args.emplace_back(p.name(), Halide::Argument::InputBuffer, p.type(), p.dimensions(),
                          ArgumentEstimates{});
    else
      a.args.emplace_back(p.name(), Halide::Argument::InputScalar, p.type(), 0, ArgumentEstimates{});
  }
}

}  // namespace

AttentionAlgorithm define_attention(const KernelIR& ir, const Geometry& g, const TilePlan& plan,
                                    const std::string& prefix, const std::string& externs) {
  AttentionAlgorithm a;
  a.geometry = g;
  AttentionDefinition d(ir, g, prefix, a);
  if (g.matrix) {
    declare_matrix_inputs(d);
    define_matrix_scores(d, externs);
    define_masked(d);
    define_key_window(d, plan);
    define_matrix_softmax_pv(d, externs);
  } else {
    declare_inputs(d);
    define_scores(d);
    define_masked(d);
    define_key_window(d, plan);
    define_softmax(d);
    define_pv(d);
    define_output(d);
  }
  list_arguments(d);
  return a;
}

}  // namespace attn::cpu
