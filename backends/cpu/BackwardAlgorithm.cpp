// Builds the Funcs of the fused backward from a kernel's mask, score and score derivatives.
#include "backends/cpu/BackwardAlgorithm.h"

#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "backends/cpu/CheckedLoads.h"
#include "backends/cpu/RDomReductions.h"
#include "backends/cpu/VectorMath.h"
#include "codegen/ScoreGradient.h"

namespace attn::cpu {

using namespace Halide;
// attn:: has its own Expr and Param (the AST's); these names mean Halide's here.
using Halide::Argument;
using Halide::Expr;
using Halide::Param;

namespace {

constexpr float kLog2e = 1.44269504088896341f;

bool is_identity_score(const KernelIR& ir) { return !ir.score.defined() || Internal::equal(ir.score, score_var()); }

}  // namespace

namespace {

// What the steps of define_backward share besides the algorithm they fill in.
struct BackwardDefinition {
  BackwardDefinition(const KernelIR& ir, const Geometry& g, const std::string& prefix, BackwardAlgorithm& a)
      : ir(ir), g(g), prefix(prefix), a(a) {}

  const KernelIR& ir;
  const Geometry& g;
  const std::string& prefix;
  BackwardAlgorithm& a;
  Expr scale;     // of Q·K^T
  Expr qi, key;   // the query of row ii, the key of column j
  Expr inactive;  // in the IR's own variables: a query or key past the end
  Expr allowed;   // the mask at (ii, j), in range
  Expr score;     // s at (ii, j), before the score modifier
  ScoreGradient grad;
  int lowered = 0;  // expressions whose reductions became RDoms so far

  // Index variables of the IR -> this pipeline's coordinates. Keys past Lk (the chunk rounded up to
  // whole vectors) are masked; the wrapper gives them rows of zeros, so K and V are read without a
  // clamp.
  Expr bind(Expr e) const {
    e = Internal::substitute("q", qi, e);
    e = Internal::substitute("kv", key, e);
    e = Internal::substitute("b", Expr(a.batch), e);
    e = Internal::substitute("h", Expr(a.head), e);
    e = Internal::substitute("q_len", Expr(a.num_queries), e);
    e = Internal::substitute("kv_len", Expr(a.num_keys), e);
    return e;
  }
  Expr checked(const Expr& e) const { return check_buffer_loads(e, inactive, a.num_queries, a.num_keys); }
  // Bounded reductions become inline RDom reductions, each expression with its own names.
  Expr loops(const Expr& e) {
    return lower_reductions_to_rdoms(e, prefix + "e" + std::to_string(lowered++) + "_");
  }
  // `e`, an expression of the score, at this pipeline's score.
  Expr at_score(const Expr& e) {
    return loops(bind(Internal::substitute("score", score, checked(vectorize_transcendentals(e)))));
  }
};

// The pipeline's inputs and coordinates: buffers, the call's scalars and their ranges, the head dims.
void declare_inputs(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  a.q = ImageParam(Float(32), 2, "attn_q");
  a.k = ImageParam(Float(32), 2, "attn_k");
  a.v = ImageParam(Float(32), 2, "attn_v");
  a.dout = ImageParam(Float(32), 2, "attn_dout");
  a.q_t = ImageParam(Float(32), 2, "attn_q_t");
  a.dout_t = ImageParam(Float(32), 2, "attn_dout_t");
  a.dq_sum = ImageParam(Float(32), 2, "attn_dq_sum");
  a.dk_sum = ImageParam(Float(32), 2, "attn_dk_sum");
  a.dv_sum = ImageParam(Float(32), 2, "attn_dv_sum");
  a.stats = ImageParam(Float(32), 2, "attn_stats");
  a.num_queries = Param<int>("attn_lq");
  a.num_keys = Param<int>("attn_lk");
  a.head_dim = Param<int>("attn_d");
  a.head_dim_padded = Param<int>("attn_d_pad");
  a.value_dim_padded = Param<int>("attn_dv_pad");
  a.tile = Param<int>("attn_tile");
  a.head = Param<int>("attn_head");
  a.batch = Param<int>("attn_batch");
  a.key_lo = Param<int>("attn_key_lo");
  a.key_count = Param<int>("attn_key_count");
  // Ranges the wrapper guarantees; they also keep every parameter used in the emitted function.
  a.num_queries.set_range(1, Expr());
  a.num_keys.set_range(1, Expr());
  a.head_dim.set_range(1, Expr());
  a.head_dim_padded.set_range(1, Expr());
  a.value_dim_padded.set_range(1, Expr());
  a.tile.set_range(0, Expr());
  a.head.set_range(0, Expr());
  a.batch.set_range(0, Expr());
  a.key_lo.set_range(0, Expr());
  a.key_count.set_range(1, kBackwardCallKeys);
  a.c = Var("c"), a.j = Var("j"), a.ii = Var("ii"), a.r = Var("r");

  const Geometry& g = d.g;
  const int pad = g.vector_lanes;
  auto padded = [&](int n) { return (n + pad - 1) / pad * pad; };
  a.head_cols = g.head_dim ? Expr(padded(g.head_dim)) : Expr(a.head_dim_padded);
  a.value_cols = g.value_dim_padded ? Expr(g.value_dim_padded) : Expr(a.value_dim_padded);
  Expr D = g.head_dim ? Expr(g.head_dim) : Expr(a.head_dim);
  d.scale = d.ir.options.scale ? Expr((float)*d.ir.options.scale) : 1.0f / sqrt(cast<float>(D));
  d.qi = a.tile * g.tile_q + a.ii;
  d.key = a.key_lo + a.j;
}

// Where the mask allows a score: in range, and the kernel's mask (its loads checked).
void define_allowed(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  Expr q_var = index_var(IndexVar::Q), kv_var = index_var(IndexVar::KV);
  d.inactive = q_var >= a.num_queries || kv_var >= a.num_keys;
  Expr mask = expand_erf(d.ir.mask.defined() ? d.ir.mask : Internal::const_true());
  d.allowed = d.qi < a.num_queries && d.key < a.num_keys;
  if (!is_const_one(mask)) d.allowed = d.allowed && d.loops(d.bind(d.checked(mask)));
}

// S = scale * Q K^T, recomputed as the forward computed it (in natural units here), and the
// probabilities P. The score and dP blocks read Q and dO transposed (a vector of rows per load, not
// a gather).
void define_probs(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  const Var &j = a.j, &ii = a.ii;
  const std::string& prefix = d.prefix;
  a.rd = RDom(0, a.head_cols, prefix + "rd");
  a.dot = Func(prefix + "dot");
  a.dot(j, ii) = 0.0f;
  a.dot(j, ii) += a.q_t(ii, a.rd) * a.k(a.rd, d.key);
  a.scores = Func(prefix + "scores");
  a.scores(j, ii) = a.dot(j, ii) * d.scale;

  const bool identity = is_identity_score(d.ir);
  d.grad = differentiate_score(d.ir);
  d.score = a.scores(j, ii);
  Expr modified = identity ? d.score : d.at_score(d.ir.score);

  // P = exp(s' - LSE): the forward's probabilities without its running max.
  Expr lse = a.stats(ii, 0);
  a.probs = Func(prefix + "probs");
  a.probs(j, ii) = mask_to_zero(d.allowed, exp2_nonpositive((modified - lse) * kLog2e));
}

// dP = dO V^T, and dS, the gradient of the scores.
void define_dscores(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  const Var &j = a.j, &ii = a.ii;
  const std::string& prefix = d.prefix;
  a.rdv = RDom(0, a.value_cols, prefix + "rdv");
  a.dp_dot = Func(prefix + "dp_dot");
  a.dp_dot(j, ii) = 0.0f;
  a.dp_dot(j, ii) += a.dout_t(ii, a.rdv) * a.v(a.rdv, d.key);
  a.dprobs = Func(prefix + "dprobs");
  a.dprobs(j, ii) = a.dp_dot(j, ii);

  // dS' = P (dP - delta) is the gradient of s'; dS = dS' ds'/ds that of s, here times the scale of
  // both dQ and dK (one multiply per score rather than per product term). Masked positions give 0
  // whatever the derivative is there (it may be NaN where the score is not finite).
  Expr delta = a.stats(ii, 1);
  a.ds_raw = Func(prefix + "ds_raw");
  a.ds_raw(j, ii) = a.probs(j, ii) * (a.dprobs(j, ii) - delta);
  a.ds = Func(prefix + "ds");
  Expr dscore = d.grad.dscore.defined() ? d.grad.dscore : Expr(1.0f);
  if (is_const_one(dscore))
    a.ds(j, ii) = a.ds_raw(j, ii) * d.scale;
  else
    a.ds(j, ii) = mask_to_zero(d.allowed, a.ds_raw(j, ii) * d.at_score(dscore) * d.scale);
}

// dQ, dK and dV continue the sums over the calls so far (dq_sum, dk_sum, dv_sum): the wrapper
// passes the memory of its running sums as both those inputs and these outputs. Each row group
// reads its own rows into the accumulators before it writes them, so the aliasing is safe, and
// the running sums are not read and written again outside the pipeline.
void define_input_gradients(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  const Var &c = a.c, &j = a.j, &ii = a.ii;
  const std::string& prefix = d.prefix;
  a.rj = RDom(0, a.key_count, prefix + "rj");
  a.ri = RDom(0, d.g.tile_q, prefix + "ri");
  a.dq_acc = Func(prefix + "dq_acc");
  a.dq_acc(c, ii) = a.dq_sum(c, ii);
  a.dq_acc(c, ii) += a.ds(a.rj, ii) * a.k(c, a.key_lo + a.rj);
  a.dq = Func(prefix + "dq");
  a.dq(c, ii) = a.dq_acc(c, ii);

  a.dk_acc = Func(prefix + "dk_acc");
  a.dk_acc(c, j) = a.dk_sum(c, j);
  a.dk_acc(c, j) += a.ds(j, a.ri) * a.q(c, a.ri);
  a.dk = Func(prefix + "dk");
  a.dk(c, j) = a.dk_acc(c, j);

  a.dv_acc = Func(prefix + "dv_acc");
  a.dv_acc(c, j) = a.dv_sum(c, j);
  a.dv_acc(c, j) += a.probs(j, a.ri) * a.dout(c, a.ri);
  a.dv = Func(prefix + "dv");
  a.dv(c, j) = a.dv_acc(c, j);

  a.outputs = {a.dq, a.dk, a.dv};
}

// Buffer gradients per read site: dS' times d s'/d buffer[index], and the index, per position.
void define_buffer_gradients(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  const Var &j = a.j, &ii = a.ii;
  std::map<std::string, int> buffer_index;
  for (const KernelArg& arg : d.ir.args)
    if (arg.kind == KernelArg::Kind::Buffer) buffer_index.emplace(arg.name, (int)buffer_index.size());
  if (d.grad.reads.empty()) return;
  a.grad = Func(d.prefix + "grad");
  a.index = Func(d.prefix + "index");
  a.grad(j, ii, a.r) = 0.0f;
  a.index(j, ii, a.r) = 0;
  int read = 0;
  for (const BufferGradient& bg : d.grad.reads) {
    auto found = buffer_index.find(bg.buffer);
    if (found == buffer_index.end())
      throw std::logic_error("internal error: the score's gradient reads '" + bg.buffer +
                             "', no buffer of the kernel");
    bool uniform = true;
    for (const Expr& e : bg.index)
      for (const char* var : {"q", "kv", "score"}) uniform = uniform && !Internal::expr_uses_var(e, var);
    a.reads.push_back({found->second, (int)bg.index.size(), a.index_slots, uniform});
    a.grad(j, ii, read++) = mask_to_zero(d.allowed, a.ds_raw(j, ii) * d.at_score(bg.partial));
    for (const Expr& e : bg.index)
      a.index(j, ii, a.index_slots++) = d.loops(d.bind(d.checked(expand_erf(e))));
  }
  a.outputs.push_back(a.grad);
  a.outputs.push_back(a.index);
}

// The wrapper stages dense, padded copies (as for the forward): the buffers' layouts.
void set_layouts(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  const int T = d.g.tile_q;
  Expr Dp = a.head_cols, Dvp = a.value_cols;
  a.q.dim(0).set_min(0).set_stride(1).set_extent(Dp);
  a.q.dim(1).set_min(0).set_stride(Dp).set_extent(T);
  // K and V start at the call's first key: their addresses are then the key's offset in the call
  // times the row stride, with no per-load index arithmetic in dQ's inner loop.
  a.k.dim(0).set_min(0).set_stride(1).set_extent(Dp);
  a.k.dim(1).set_min(a.key_lo).set_stride(Dp);
  a.v.dim(0).set_min(0).set_stride(1).set_extent(Dvp);
  a.v.dim(1).set_min(a.key_lo).set_stride(Dvp);
  a.dout.dim(0).set_min(0).set_stride(1).set_extent(Dvp);
  a.dout.dim(1).set_min(0).set_stride(Dvp).set_extent(T);
  a.q_t.dim(0).set_min(0).set_stride(1).set_extent(T);
  a.q_t.dim(1).set_min(0).set_stride(T).set_extent(Dp);
  a.dout_t.dim(0).set_min(0).set_stride(1).set_extent(T);
  a.dout_t.dim(1).set_min(0).set_stride(T).set_extent(Dvp);
  a.stats.dim(0).set_min(0).set_stride(1).set_extent(T);
  a.stats.dim(1).set_min(0).set_stride(T).set_extent(2);
  using Sum = std::tuple<ImageParam, Expr, Expr>;
  for (auto [in, cols, rows] :
       {Sum{a.dq_sum, Dp, T}, Sum{a.dk_sum, Dp, a.key_count}, Sum{a.dv_sum, Dvp, a.key_count}}) {
    in.dim(0).set_min(0).set_stride(1).set_extent(cols);
    in.dim(1).set_min(0).set_stride(cols).set_extent(rows);
  }
  auto dense2 = [](Func f, Expr cols, Expr rows) {
    OutputImageParam o = f.output_buffer();
    o.dim(0).set_min(0).set_stride(1).set_extent(cols);
    o.dim(1).set_min(0).set_stride(cols).set_extent(rows);
  };
  dense2(a.dq, Dp, T);
  dense2(a.dk, Dp, a.key_count);
  dense2(a.dv, Dvp, a.key_count);
  if (!a.reads.empty()) {
    // Rows innermost, as the tile's P and dP are stored.
    for (auto [f, n] : {std::pair<Func, int>{a.grad, (int)a.reads.size()}, {a.index, a.index_slots}}) {
      OutputImageParam o = f.output_buffer();
      o.dim(0).set_min(0).set_stride(T).set_extent(a.key_count);
      o.dim(1).set_min(0).set_stride(1).set_extent(T);
      o.dim(2).set_min(0).set_stride(a.key_count * T).set_extent(n);
    }
  }
}

// The pipeline's arguments in the wrapper's order: the call's inputs, then the kernel's own.
void list_arguments(BackwardDefinition& d) {
  BackwardAlgorithm& a = d.a;
  a.args = {a.q, a.q_t, a.k, a.v, a.dout, a.dout_t, a.stats, a.dq_sum, a.dk_sum, a.dv_sum};
  for (const Param<int>& p : {a.num_queries, a.num_keys, a.head_dim, a.head_dim_padded, a.value_dim_padded,
                              a.tile, a.head, a.batch, a.key_lo, a.key_count})
    a.args.push_back(p);
  for (const KernelArg& arg : d.ir.args) {
    Internal::Parameter p = arg.param;
    if (arg.kind == KernelArg::Kind::Buffer) p.set_stride_constraint(0, Expr());
    if (arg.kind == KernelArg::Kind::Buffer)
      a.args.emplace_back(p.name(), Argument::InputBuffer, p.type(), p.dimensions(), ArgumentEstimates{});
    else
      a.args.emplace_back(p.name(), Argument::InputScalar, p.type(), 0, ArgumentEstimates{});
  }
}

}  // namespace

BackwardAlgorithm define_backward(const KernelIR& ir, const Geometry& g, const std::string& prefix) {
  BackwardAlgorithm a;
  a.geometry = g;
  BackwardDefinition d(ir, g, prefix, a);
  declare_inputs(d);
  define_allowed(d);
  define_probs(d);
  define_dscores(d);
  define_input_gradients(d);
  define_buffer_gradients(d);
  set_layouts(d);
  list_arguments(d);
  return a;
}

}  // namespace attn::cpu
