// The backward's compute shaders: one invocation per query row (dQ) or per key (dK, dV and its row
// of buffer-gradient partials), each recomputing the scores and P = exp(s' - LSE) of the pairs it
// owns, in a fixed order: no atomics, no shared memory, so two runs give the same bits.
#include "backends/spirv/SpirvBackward.h"

#include <cmath>

#include "backends/spirv/ShaderEmitter.h"
#include "backends/spirv/SpirvExpr.h"
#include "codegen/KernelIR.h"
#include "codegen/PlanTiles.h"
#include "codegen/ScoreGradient.h"
#include "codegen/TilePlan.h"

namespace attn::spirv {

using spv::Op;

namespace {

class BackwardEmitter : ShaderEmitter {
 public:
  /// `plan`: the tiles to visit (query-major: rows x block_kv, the key tiles of the workgroup's
  /// query tile; key-major: 64 x rows, the query tiles of the workgroup's key tile); null: all.
  BackwardEmitter(const KernelIR& ir, const SpirvConfig& c, bool key_major,
                  const std::vector<std::string>& grads, const TilePlan* plan)
      : ShaderEmitter(ir, c), key_major_(key_major), plan_(plan), grad_(differentiate_score(ir)) {
    for (const BufferGradient& r : grad_.reads)
      for (size_t i = 0; i < grads.size(); ++i)
        if (grads[i] == r.buffer) sites_.push_back({i, &r});
    grad_buffers_ = grads;
  }

  std::vector<uint32_t> run() {
    declare();
    Id fn = m_.begin_function(t_void_, m_.type_function(t_void_));
    body();
    m_.op_void(Op::OpReturn, {});
    m_.end_function();
    m_.entry_point(spv::ExecutionModel::GLCompute, fn, "main", interface_);
    m_.execution_mode(fn, spv::ExecutionMode::LocalSize, {static_cast<uint32_t>(c_.rows), 1, 1});
    m_.name(fn, "main");
    return m_.words();
  }

 private:
  struct Site {
    size_t buffer;  // position in grad_buffers_
    const BufferGradient* read;
  };

  void declare() {
    declare_types(false);
    q_ = ssbo(kQ, t_f32_, 4, "Q", true);
    k_ = ssbo(kK, t_f32_, 4, "K", true);
    v_ = ssbo(kV, t_f32_, 4, "V", true);
    dout_ = ssbo(kOut, t_f32_, 4, "dOut", true);
    lse_ = ssbo(kLse, t_f32_, 4, "LSE", true);
    declare_arguments();
    const uint32_t after = kFirstBuffer + static_cast<uint32_t>(bufs_.size());
    delta_ = ssbo(after + kDelta, t_f32_, 4, "Delta", true);
    ties_ = ssbo(after + kTies, t_f32_, 4, "Ties", key_major_);
    if (key_major_) {
      dk_ = ssbo(after + kDk, t_f32_, 4, "dK", false);
      dv_ = ssbo(after + kDv, t_f32_, 4, "dV", false);
      if (!sites_.empty()) partials_ = ssbo(after + kPartials, t_f32_, 4, "Partials", false);
    } else {
      dq_ = ssbo(after + kDq, t_f32_, 4, "dQ", false);
    }
    declare_builtins();
    declare_function_pointers();
  }

  Id wg(uint32_t k) {
    Id id = load(m_.type_vector(t_u32_, 3), wg_id_);
    return m_.op(Op::OpBitcast, t_i32_, {m_.op(Op::OpCompositeExtract, t_u32_, {id, k})});
  }

  // for (d = 0; d < n; ++d) body(d).
  void each(int n, const std::function<void(Id)>& body) { upto(ci(n), body); }

  // for (i = 0; i < n; ++i) body(i). Every id is made in a statement of its own: the module must not
  // depend on the C++ compiler's order of evaluating arguments.
  void upto(Id n, const std::function<void(Id)>& body) {
    Id zero = ci(0);
    Id one = ci(1);
    loop(zero, n, one, body);
  }

  // array[d] = 0.
  void zero(Id array, int n) {
    each(n, [&](Id d) {
      Id ptr = elem(array, d);
      store(ptr, cf(0));
    });
  }
  // dst[base + d] = array[d] for d < n.
  void write(const Ssbo& dst, Id base, Id array, int n) {
    each(n, [&](Id d) {
      Id at = iadd(base, d);
      Id x = load(t_f32_, elem(array, d));
      store(ssbo_ptr(dst, at), x);
    });
  }

  // Sum over d < n of a[d] * src[base + d], a a Function array.
  Id dot(Id a, const Ssbo& src, Id base, int n) {
    Id acc = var_f32(0);
    each(n, [&](Id d) {
      Id x = load(t_f32_, elem(a, d));
      Id at = iadd(base, d);
      Id y = load(t_f32_, ssbo_ptr(src, at));
      Id old = load(t_f32_, acc);
      store(acc, fadd(old, fmul(x, y)));
    });
    return load(t_f32_, acc);
  }

  Id elem(Id array, Id d) { return m_.op(Op::OpAccessChain, p_fn_f32_, {array, d}); }

  // array[d] = src[base + d] for d < n.
  void fill(Id array, const Ssbo& src, Id base, int n) {
    each(n, [&](Id d) {
      Id at = iadd(base, d);
      Id x = load(t_f32_, ssbo_ptr(src, at));
      store(elem(array, d), x);
    });
  }

  // array[d] += f * src[base + d] for d < n.
  void axpy(Id array, Id f, const Ssbo& src, Id base, int n) {
    each(n, [&](Id d) {
      Id at = iadd(base, d);
      Id y = load(t_f32_, ssbo_ptr(src, at));
      Id ptr = elem(array, d);
      Id old = load(t_f32_, ptr);
      store(ptr, fadd(old, fmul(f, y)));
    });
  }

  // P of modified score `s` in a row with log-sum-exp `lse` whose scores are finite: NaN in a row
  // with a NaN score; 0 in a row without a finite weight (all its keys at -Inf, or some at +Inf:
  // then the weights are locally constant, and nothing flows back through the scores).
  Id weight(Id s, Id lse) {
    Id p = ext(GLSLstd450Exp, t_f32_, {fsub(s, lse)});
    Id inf = m_.op(Op::OpIsInf, t_bool_, {lse});
    Id zero = cf(0);
    Id finite = sel(t_f32_, inf, zero, p);
    Id nan = m_.op(Op::OpIsNan, t_bool_, {lse});
    Id not_a_number = cf(NAN);
    return sel(t_f32_, nan, not_a_number, finite);
  }

  Id is_plus_inf(Id x) {
    Id inf = cf(INFINITY);
    return m_.op(Op::OpFOrdEqual, t_bool_, {x, inf});
  }

  // Runs `pair(s, s')` for the current (b, h, q, kv) when the mask keeps it. The raw score is the
  // scale times `row` (a Function array: the invocation's query or key row) dot `other`'s row at
  // `base`.
  void visit(const ExprEnv& env, Id row, const Ssbo& other, Id base,
             const std::function<void(Id s, Id m)>& pair) {
    auto body = [&] {
      Id dot_product = dot(row, other, base, c_.head_dim);
      Id s = fmul(dot_product, cf(c_.scale));
      ExprEnv senv = env;
      senv.score = s;
      pair(s, emit_expr(m_, senv, ir_.score));
    };
    if (Halide::Internal::is_const_one(ir_.mask)) return body();
    emit_if(m_, emit_expr(m_, env, ir_.mask), body);
  }

  // ds'/ds at raw score `s`.
  Id dscore(const ExprEnv& env, Id s) {
    if (!grad_.dscore.defined() || Halide::Internal::is_const_one(grad_.dscore)) return cf(1);
    ExprEnv senv = env;
    senv.score = s;
    return emit_expr(m_, senv, grad_.dscore);
  }

  ExprEnv environment() {
    ExprEnv env;
    env.glsl = glsl_;
    env.b = b_at_;
    env.h = h_;
    env.q = qi_;
    env.kv = kv_;
    env.q_len = q_len_;
    env.kv_len = kv_len_;
    env.load = [this](const std::string& n, const std::vector<Id>& idx) { return load_buffer(n, idx); };
    env.extent = [this](const std::string& n, int dim) { return buffer_extent(n, dim); };
    env.scalars = scalars_;
    return env;
  }

  void body() {
    Id lid = m_.op(Op::OpBitcast, t_i32_, {load(t_u32_, lid_)});
    Id Hq = shape(vk::kPushHq), Hkv = shape(vk::kPushHkv), Lq = shape(vk::kPushLq), Lkv = shape(vk::kPushLkv);
    Id group = idiv(Hq, Hkv);
    q_len_ = shape(vk::kPushQLen), kv_len_ = Lkv;
    b_ = wg(2);
    b_at_ = iadd(b_, shape(vk::kPushB0));  // the backward's queries start at position 0 (kPushQ0 is 0)
    Id tile = wg(0);
    Id first = imul(tile, ci(c_.rows));
    Id index = iadd(first, lid);
    declare_error_record();
    scalars_ = load_scalars();
    if (key_major_)
      key_major(tile, index, Hq, Hkv, Lq, Lkv, group);
    else
      query_major(tile, index, Hq, Hkv, Lq, Lkv, group);
    if (!bufs_.empty()) publish_error();
  }

  // One invocation per query row: dQ = scale * sum over keys of dS K.
  void query_major(Id tile, Id qi, Id Hq, Id Hkv, Id Lq, Id Lkv, Id group) {
    const int D = c_.head_dim, Dv = c_.value_dim;
    Id qarr = f32_array(D), doarr = f32_array(Dv);
    h_ = wg(1);
    qi_ = q_at_ = qi;
    kv_ = ci(0);
    Id hk = idiv(h_, group);
    Id dq = f32_array(D), ties = m_.local_variable(p_fn_f32_);
    emit_if(m_, ilt(qi_, Lq), [&] {
      Id bh = iadd(imul(b_, Hq), h_);
      Id row = iadd(imul(bh, Lq), qi_);
      Id qbase = imul(row, ci(D));
      Id dobase = imul(row, ci(Dv));
      fill(qarr, q_, qbase, D);
      fill(doarr, dout_, dobase, Dv);
      zero(dq, D);
      store(ties, cf(0));
      Id lse = load(t_f32_, ssbo_ptr(lse_, row));
      Id delta = load(t_f32_, ssbo_ptr(delta_, row));
      Id bhk = iadd(imul(b_, Hkv), hk);
      Id kv_base = imul(bhk, Lkv);
      // The key tiles the plan does not prove empty for this query tile (all without a plan).
      const int BK = c_.block_kv;
      Id padded = iadd(Lkv, ci(BK - 1));
      Id tiles = idiv(padded, ci(BK));
      Id lo = ci(0), hi = tiles;
      if (plan_) {
        ExprEnv penv = environment();
        penv.scalars[plan_->qt.as<Halide::Internal::Variable>()->name] = tile;
        penv.scalars[plan_->kv_tiles.as<Halide::Internal::Variable>()->name] = tiles;
        hi = lo;
        if (!plan_->ranges.empty()) {
          lo = emit_expr(m_, penv, plan_->ranges.front().begin);
          hi = emit_expr(m_, penv, plan_->ranges.back().end);
        }
      }
      Id one = ci(1);
      loop(lo, hi, one, [&](Id t) {
        Id k0 = imul(t, ci(BK));
        Id k1 = iadd(k0, ci(BK));
        Id k_end = ext(GLSLstd450SMin, t_i32_, {k1, Lkv});
        loop(k0, k_end, one, [&](Id j) {
          kv_ = j;
          ExprEnv env = environment();
          Id key = iadd(kv_base, j);
          Id kbase = imul(key, ci(D));
          visit(env, qarr, k_, kbase, [&](Id s, Id modified) {
            // The keys at +Inf, which share a row whose LSE is +Inf.
            Id tie = is_plus_inf(modified);
            Id count = load(t_f32_, ties);
            Id more = fadd(count, cf(1));
            store(ties, sel(t_f32_, tie, more, count));
            Id p = weight(modified, lse);
            Id zero = cf(0);
            emit_if(m_, m_.op(Op::OpFUnordNotEqual, t_bool_, {p, zero}), [&] {
              Id vbase = imul(key, ci(Dv));
              Id dp = dot(doarr, v_, vbase, Dv);
              Id dsp = fmul(p, fsub(dp, delta));
              Id chain = fmul(dsp, dscore(env, s));
              Id ds = fmul(chain, cf(c_.scale));
              axpy(dq, ds, k_, kbase, D);
            });
          });
        });
      });
      write(dq_, qbase, dq, D);
      Id count = load(t_f32_, ties);
      store(ssbo_ptr(ties_, row), count);
    });
  }

  // One invocation per key: dV = sum of P dO, dK = scale * sum of dS Q over the group's query heads
  // and the query rows, and this key's terms of the buffer gradients.
  // body(q) for the query rows q of head h_ whose query tile the plan does not rule out for key tile
  // `kt` (the workgroup's keys; plan tiles 64 x rows), in order; every row without a plan.
  void rows_of_key_tile(Id kt, Id Lq, Id Lkv, const std::function<void(Id)>& body) {
    if (!plan_) return upto(Lq, body);
    const int BQ = plan_->block_q, BK = plan_->block_kv;
    Id q_padded = iadd(Lq, ci(BQ - 1));
    Id q_tiles = idiv(q_padded, ci(BQ));
    Id kv_padded = iadd(Lkv, ci(BK - 1));
    Id kv_tiles = idiv(kv_padded, ci(BK));
    upto(q_tiles, [&](Id qt) {
      Id lo = ci(0), hi = ci(0);
      if (!plan_->ranges.empty()) {
        ExprEnv penv = environment();
        penv.scalars[plan_->qt.as<Halide::Internal::Variable>()->name] = qt;
        penv.scalars[plan_->kv_tiles.as<Halide::Internal::Variable>()->name] = kv_tiles;
        lo = emit_expr(m_, penv, plan_->ranges.front().begin);
        hi = emit_expr(m_, penv, plan_->ranges.back().end);
      }
      Id from_lo = m_.op(Op::OpSGreaterThanEqual, t_bool_, {kt, lo});
      Id below_hi = ilt(kt, hi);
      emit_if(m_, land(from_lo, below_hi), [&] {
        Id q0 = imul(qt, ci(BQ));
        Id q1 = iadd(q0, ci(BQ));
        Id q_end = ext(GLSLstd450SMin, t_i32_, {q1, Lq});
        Id one = ci(1);
        loop(q0, q_end, one, body);
      });
    });
  }

  void key_major(Id tile, Id j, Id Hq, Id Hkv, Id Lq, Id Lkv, Id group) {
    const int D = c_.head_dim, Dv = c_.value_dim;
    Id hk = wg(1);
    kv_ = j;
    h_ = ci(0);
    qi_ = q_at_ = ci(0);
    Id karr = f32_array(D), varr = f32_array(Dv), dk = f32_array(D), dv = f32_array(Dv);
    // Where each requested buffer's elements start in a partials row, and the row's length.
    std::vector<Id> offsets;
    Id stride = ci(0);
    for (const std::string& name : grad_buffers_) {
      offsets.push_back(stride);
      Id n = ci(1);
      const KernelArg* arg = nullptr;
      for (const KernelArg& a : ir_.args)
        if (a.name == name) arg = &a;
      for (size_t d = 0; d < arg->dims.size(); ++d) n = imul(n, buffer_extent(name, static_cast<int>(d)));
      stride = iadd(stride, n);
    }
    emit_if(m_, ilt(kv_, Lkv), [&] {
      Id bhk = iadd(imul(b_, Hkv), hk);
      Id key = iadd(imul(bhk, Lkv), kv_);
      Id kbase = imul(key, ci(D));
      Id vbase = imul(key, ci(Dv));
      Id partial_row = imul(key, stride);
      fill(karr, k_, kbase, D);
      fill(varr, v_, vbase, Dv);
      zero(dk, D);
      zero(dv, Dv);
      upto(group, [&](Id g) {
        Id hk_first = imul(hk, group);
        h_ = iadd(hk_first, g);
        rows_of_key_tile(tile, Lq, Lkv, [&](Id qi) {
          qi_ = q_at_ = qi;
          ExprEnv env = environment();
          Id bh = iadd(imul(b_, Hq), h_);
          Id row = iadd(imul(bh, Lq), qi_);
          Id qbase = imul(row, ci(D));
          Id dobase = imul(row, ci(Dv));
          Id lse = load(t_f32_, ssbo_ptr(lse_, row));
          visit(env, karr, q_, qbase, [&](Id s, Id modified) {
            // In a row whose LSE is +Inf the keys at +Inf share the weight and the scores pass no
            // gradient; elsewhere P = exp(s' - LSE). A key of weight 0 adds nothing, even where
            // ds'/ds is infinite.
            Id inf_row = is_plus_inf(lse);
            Id tie = is_plus_inf(modified);
            Id ties = load(t_f32_, ssbo_ptr(ties_, row));
            Id one = cf(1);
            Id share = m_.op(Op::OpFDiv, t_f32_, {one, ties});
            Id zero = cf(0);
            Id tied = sel(t_f32_, tie, share, zero);
            Id finite = weight(modified, lse);
            Id p = sel(t_f32_, inf_row, tied, finite);
            emit_if(m_, m_.op(Op::OpFUnordNotEqual, t_bool_, {p, zero}), [&] {
              axpy(dv, p, dout_, dobase, Dv);
              emit_if(m_, m_.op(Op::OpLogicalNot, t_bool_, {inf_row}), [&] {
                Id dp = dot(varr, dout_, dobase, Dv);
                Id delta = load(t_f32_, ssbo_ptr(delta_, row));
                Id dsp = fmul(p, fsub(dp, delta));
                Id chain = fmul(dsp, dscore(env, s));
                Id ds = fmul(chain, cf(c_.scale));
                axpy(dk, ds, q_, qbase, D);
                for (const Site& site : sites_)
                  buffer_term(env, site, s, dsp, partial_row, offsets[site.buffer]);
              });
            });
          });
        });
      });
      write(dk_, kbase, dk, D);
      write(dv_, vbase, dv, Dv);
    });
  }

  // Partials[row + offset + flat] += dS' * ds'/d buffer[index] for one read site. A read in a
  // select's untaken branch has derivative 0 and may be out of range: it adds nothing.
  void buffer_term(const ExprEnv& env, const Site& site, Id s, Id dsp, Id partial_row, Id offset) {
    ExprEnv senv = env;
    senv.score = s;
    Id partial = emit_expr(m_, senv, site.read->partial);
    Id zero = cf(0);
    emit_if(m_, m_.op(Op::OpFUnordNotEqual, t_bool_, {partial, zero}), [&] {
      std::vector<Id> idx;
      for (const Halide::Expr& e : site.read->index) idx.push_back(emit_expr(m_, senv, e));
      // Named locals, not a structured binding: C++17 lambdas cannot capture those (clang rejects it).
      const std::pair<Id, Id> flat_ok = buffer_index(site.read->buffer, idx);
      const Id flat = flat_ok.first, ok = flat_ok.second;
      emit_if(m_, ok, [&] {
        Id base = iadd(partial_row, offset);
        Id at = iadd(base, flat);
        Id term = fmul(dsp, partial);
        Id ptr = ssbo_ptr(partials_, at);
        Id old = load(t_f32_, ptr);
        store(ptr, fadd(old, term));
      });
    });
  }

  const bool key_major_;
  const TilePlan* plan_;
  const ScoreGradient grad_;
  std::vector<Site> sites_;
  std::vector<std::string> grad_buffers_;
  std::map<std::string, Id> scalars_;
  Ssbo q_, k_, v_, dout_, lse_, delta_, ties_, dq_, dk_, dv_, partials_;
};

}  // namespace

SpirvConfig choose_backward_config(const KernelIR& ir, const SpirvTarget& target, int head_dim,
                                   int value_dim) {
  SpirvTarget plain = target;
  plain.subgroup_size = 0;
  plain.f16_storage = false;
  SpirvConfig c = choose_config(ir, plain, head_dim, value_dim);
  c.rows = 64;
  c.shared_tiles = false;
  return c;
}

SpirvBackward compile_spirv_backward(const KernelIR& ir, const SpirvConfig& config,
                                     const std::vector<std::string>& grad_buffers) {
  SpirvBackward b;
  b.grad_buffers = grad_buffers;
  SpirvConfig c = config;
  std::vector<uint32_t> query_major;
  if (c.block_sparse) {
    try {
      auto plan = plan_tiles(ir, PlanTilesOptions{c.rows, c.block_kv});
      query_major = BackwardEmitter(ir, c, false, grad_buffers, plan.get()).run();
    } catch (const std::logic_error&) {
      // A range the printer cannot express: visit every tile instead (still correct).
      c.block_sparse = false;
    }
  }
  if (!c.block_sparse) query_major = BackwardEmitter(ir, c, false, grad_buffers, nullptr).run();
  b.query_major = optimize_spirv(ir, c, std::move(query_major));
  // The key-major module: the plan's tiles transposed (64 query rows x the workgroup's keys).
  SpirvConfig k = config;
  std::vector<uint32_t> key_major;
  if (k.block_sparse) {
    try {
      auto plan = plan_tiles(ir, PlanTilesOptions{64, k.rows});
      key_major = BackwardEmitter(ir, k, true, grad_buffers, plan.get()).run();
    } catch (const std::logic_error&) {
      k.block_sparse = false;
    }
  }
  if (!k.block_sparse) key_major = BackwardEmitter(ir, k, true, grad_buffers, nullptr).run();
  b.key_major = optimize_spirv(ir, k, std::move(key_major));
  return b;
}

}  // namespace attn::spirv
