// The flash-attention compute shader: one workgroup per (query tile, head, batch); `lanes`
// invocations (one subgroup slice) per query row split the head dimension; K/V tiles are staged
// in workgroup memory; online softmax in f32; the mask and score come from emit_expr.
#include "backends/spirv/SpirvKernel.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "backends/io/KernelIO.h"
#include "backends/spirv/ShaderEmitter.h"
#include "backends/spirv/SpirvExpr.h"
#include "codegen/KernelIR.h"
#include "codegen/PlanTiles.h"
#include "codegen/TilePlan.h"

namespace attn::spirv {

using spv::Op;
using spv::StorageClass;

namespace {

class KernelEmitter : ShaderEmitter {
 public:
  KernelEmitter(const KernelIR& ir, const SpirvConfig& c, const TilePlan* plan)
      : ShaderEmitter(ir, c), plan_(plan) {}

  std::vector<uint32_t> run() {
    declare();
    Id fn = m_.begin_function(t_void_, m_.type_function(t_void_));
    body();
    m_.op_void(Op::OpReturn, {});
    m_.end_function();
    m_.entry_point(spv::ExecutionModel::GLCompute, fn, "main", interface_);
    m_.execution_mode(fn, spv::ExecutionMode::LocalSize, {static_cast<uint32_t>(c_.workgroup_size()), 1, 1});
    m_.name(fn, "main");
    return m_.words();
  }

 private:
  void declare() {
    declare_types(c_.lanes > 1);
    Id io = c_.f16_io ? m_.type_float(16) : t_f32_;
    uint32_t io_stride = c_.f16_io ? 2 : 4;
    q_ = ssbo(kQ, io, io_stride, "Q", true);
    k_ = ssbo(kK, io, io_stride, "K", true);
    v_ = ssbo(kV, io, io_stride, "V", true);
    out_ = ssbo(kOut, io, io_stride, "Out", false);
    lse_ = ssbo(kLse, t_f32_, 4, "LSE", false);
    declare_arguments();
    if (c_.row_max) max_ = ssbo(kFirstBuffer + static_cast<uint32_t>(bufs_.size()), t_f32_, 4, "Max", false);
    declare_builtins();
    if (c_.lanes > 1) {
      sg_size_ = m_.global_variable(m_.type_pointer(StorageClass::Input, t_u32_), StorageClass::Input);
      m_.decorate(sg_size_, spv::Decoration::BuiltIn, {w(spv::BuiltIn::SubgroupSize)});
      interface_.push_back(sg_size_);
    }

    p_wg_f32_ = m_.type_pointer(StorageClass::Workgroup, t_f32_);
    auto shared = [&](uint32_t n, const char* name) {
      Id var = m_.global_variable(m_.type_pointer(StorageClass::Workgroup, m_.type_array(t_f32_, n)),
                                  StorageClass::Workgroup);
      m_.name(var, name);
      if (lists_all_globals()) interface_.push_back(var);
      return var;
    };
    if (c_.shared_tiles) {
      ks_ = shared(static_cast<uint32_t>(c_.block_kv * c_.head_dim), "Ktile");
      vs_ = shared(static_cast<uint32_t>(c_.block_kv * c_.value_dim), "Vtile");
    }
    declare_function_pointers();
  }

  Id shared_ptr(Id var, Id index) { return m_.op(Op::OpAccessChain, p_wg_f32_, {var, index}); }
  void barrier() {
    const uint32_t sem =
        w(spv::MemorySemanticsMask::AcquireRelease) | w(spv::MemorySemanticsMask::WorkgroupMemory);
    m_.op_void(Op::OpControlBarrier, {m_.const_uint(w(spv::Scope::Workgroup)),
                                      m_.const_uint(w(spv::Scope::Workgroup)), m_.const_uint(sem)});
  }

  // Sum over the `lanes` invocations of a row (they sit in one subgroup): a butterfly of shuffles.
  Id row_sum(Id x) {
    for (int off = c_.lanes / 2; off >= 1; off /= 2) {
      Id other =
          m_.op(Op::OpGroupNonUniformShuffleXor, t_f32_,
                {m_.const_uint(w(spv::Scope::Subgroup)), x, m_.const_uint(static_cast<uint32_t>(off))});
      x = fadd(x, other);
    }
    return x;
  }

  // The shader's body: the row this invocation works on, its query slice, the key tiles to visit,
  // each tile's scores and online softmax, and the row's output.
  void body() {
    enter_row();
    load_query_slice();
    plan_key_tiles();
    loop(r_.lo, r_.hi, ci(1), [&](Id t) {
      if (!r_.test_tiles) return visit_key_tile(t);
      ExprEnv tenv = r_.penv;
      tenv.scalars[plan_->kt.as<Halide::Internal::Variable>()->name] = t;
      Id empty = land(r_.planned, emit_expr(m_, tenv, plan_->tile_empty));
      emit_if(m_, m_.op(Op::OpLogicalNot, t_bool_, {empty}), [&] { visit_key_tile(t); });
    });
    write_row();
    if (!bufs_.empty()) publish_error();
  }

  // Component `k` of the workgroup id, as an int.
  Id workgroup_index(uint32_t k) {
    return m_.op(Op::OpBitcast, t_i32_, {m_.op(Op::OpCompositeExtract, t_u32_, {r_.wg, k})});
  }

  // Which row and lane this invocation is, the shapes, and the environment of the mask and score.
  void enter_row() {
    const int R = c_.lanes;
    r_.wg = load(m_.type_vector(t_u32_, 3), wg_id_);
    Id lid = m_.op(Op::OpBitcast, t_i32_, {load(t_u32_, lid_)});
    r_.lid = lid;
    Id row = idiv(lid, ci(R));
    r_.lane = irem(lid, ci(R));
    if (sg_size_) {
      // A row's lanes must share a subgroup: a device running this pipeline with smaller
      // subgroups than it reported gets code kSubgroupTooSmall, and the host runs without them.
      Id small =
          m_.op(Op::OpULessThan, t_bool_, {load(t_u32_, sg_size_), m_.const_uint(static_cast<uint32_t>(R))});
      emit_if(m_, small, [&] { store(ssbo_ptr(err_, ci(0)), ci(kSubgroupTooSmall)); });
    }
    r_.Hq = shape(vk::kPushHq);
    r_.Hkv = shape(vk::kPushHkv);
    r_.Lq = shape(vk::kPushLq);
    r_.Lkv = shape(vk::kPushLkv);
    b_ = workgroup_index(2);
    h_ = workgroup_index(1);
    qi_ = iadd(imul(workgroup_index(0), ci(c_.rows)), row);
    b_at_ = iadd(b_, shape(vk::kPushB0));
    r_.q0 = shape(vk::kPushQ0);
    q_at_ = iadd(qi_, r_.q0);
    r_.row_ok = ilt(qi_, r_.Lq);
    r_.hk = idiv(h_, idiv(r_.Hq, r_.Hkv));

    declare_error_record();

    ExprEnv& env = r_.env;
    env.glsl = glsl_;
    env.b = b_at_;
    env.h = h_;
    env.q = q_at_;
    env.q_len = shape(vk::kPushQLen);
    env.kv_len = r_.Lkv;
    env.load = [this](const std::string& n, const std::vector<Id>& idx) { return load_buffer(n, idx); };
    env.extent = [this](const std::string& n, int dim) { return buffer_extent(n, dim); };
    env.scalars = load_scalars();
  }

  // Chunks d = lane + i * R of a row: unrolled with constant i on GPUs (registers), a loop on
  // CPU devices (llvmpipe's JIT time grows with the code). `partial`: d may pass `dim`.
  void chunks(int n, int dim, const std::function<void(Id i, Id d, bool partial)>& body) {
    const int R = c_.lanes;
    if (c_.unroll_chunks) {
      for (int i = 0; i < n; ++i) body(ci(i), iadd(r_.lane, ci(i * R)), (i + 1) * R > dim);
    } else {
      loop(ci(0), ci(n), ci(1), [&](Id i) { body(i, iadd(r_.lane, imul(i, ci(R))), dim % R != 0); });
    }
  }
  Id qreg(Id i) { return m_.op(Op::OpAccessChain, p_fn_f32_, {r_.qarr, i}); }
  Id acc(Id i) { return m_.op(Op::OpAccessChain, p_fn_f32_, {r_.accarr, i}); }
  Id score_ptr(Id j) { return m_.op(Op::OpAccessChain, p_fn_f32_, {r_.scores, j}); }
  int query_chunks() const { return (c_.head_dim + c_.lanes - 1) / c_.lanes; }
  int value_chunks() const { return (c_.value_dim + c_.lanes - 1) / c_.lanes; }

  // This lane's slice of the query row (d = lane + i * R) into registers, the accumulators zeroed,
  // and the row's running max, sum and scores.
  void load_query_slice() {
    const int D = c_.head_dim, Dv = c_.value_dim, NQ = query_chunks(), NV = value_chunks();
    const float neg_inf = -INFINITY;
    r_.row_base = imul(iadd(imul(b_, r_.Hq), h_), r_.Lq);
    Id q_base = imul(iadd(r_.row_base, qi_), ci(D));
    r_.qarr = f32_array(NQ);
    r_.accarr = f32_array(NV);
    chunks(NQ, D, [&](Id i, Id d, bool partial) {
      Id ok = partial ? land(r_.row_ok, ilt(d, ci(D))) : r_.row_ok;
      Id x = load_io(q_, sel(t_i32_, ok, iadd(q_base, d), ci(0)));
      store(qreg(i), sel(t_f32_, ok, x, cf(0)));
    });
    chunks(NV, Dv, [&](Id i, Id, bool) { store(acc(i), cf(0)); });
    r_.partial_dot = m_.local_variable(p_fn_f32_);
    r_.m = var_f32(neg_inf);
    r_.l = var_f32(0);
    r_.tile_max = var_f32(neg_inf);
    r_.sv = var_f32(neg_inf);
    // 1 once an allowed key scored NaN: the row's Out and LSE are then NaN (docs/language.md,
    // "Non-finite values"). The key itself is kept out of the max and the sums, where GLSL's FMax
    // and Exp leave NaN undefined.
    r_.nan_seen = var_f32(0);
    Id p_fn_scores =
        m_.type_pointer(StorageClass::Function, m_.type_array(t_f32_, static_cast<uint32_t>(c_.block_kv)));
    r_.scores = m_.local_variable(p_fn_scores);
  }

  // Element d of key/value row j of the current tile: from the staged tile, or in place (the
  // row clamped into range: rows past the end are masked anyway).
  Id key_at(Id j, Id d, const Ssbo& src, Id tile, int dim) {
    if (c_.shared_tiles) return load(t_f32_, shared_ptr(tile, iadd(imul(j, ci(dim)), d)));
    Id kv = ext(GLSLstd450SMin, t_i32_, {iadd(r_.k0, j), m_.op(Op::OpISub, t_i32_, {r_.Lkv, ci(1)})});
    return load_io(src, iadd(imul(iadd(r_.kv_base, kv), ci(dim)), d));
  }

  // The key tiles to visit, [lo, hi), and those proven full, [full_lo, full_hi): the plan's
  // closed forms for this query tile (uniform over the workgroup, as the barriers require).
  void plan_key_tiles() {
    const int BK = c_.block_kv;
    r_.kv_base = imul(iadd(imul(b_, r_.Hkv), r_.hk), r_.Lkv);
    r_.tiles = idiv(iadd(r_.Lkv, ci(BK - 1)), ci(BK));
    r_.has_mask = !Halide::Internal::is_const_one(ir_.mask);
    r_.lo = ci(0);
    r_.hi = r_.tiles;
    r_.full_lo = ci(0);
    r_.full_hi = ci(0);
    r_.penv = r_.env;
    if (plan_) {
      r_.penv.scalars[plan_->qt.as<Halide::Internal::Variable>()->name] = workgroup_index(0);
      r_.penv.scalars[plan_->kv_tiles.as<Halide::Internal::Variable>()->name] = r_.tiles;
      Id lo = ci(0), hi = ci(0), full_lo = ci(0), full_hi = ci(0);
      for (size_t i = 0; i < plan_->ranges.size(); ++i) {
        const KeyTileRange& r = plan_->ranges[i];
        Id begin = emit_expr(m_, r_.penv, r.begin), end = emit_expr(m_, r_.penv, r.end);
        if (i == 0) lo = begin;
        if (i + 1 == plan_->ranges.size()) hi = end;
        if (r.kind == TileKind::Full) full_lo = begin, full_hi = end;
      }
      // The plan's query tiles start at position 0: queries placed further on (a paged sequence's
      // last tokens) visit every key tile and test every key.
      r_.planned = m_.op(Op::OpIEqual, t_bool_, {r_.q0, ci(0)});
      r_.lo = sel(t_i32_, r_.planned, lo, ci(0));
      r_.hi = sel(t_i32_, r_.planned, hi, r_.tiles);
      r_.full_lo = sel(t_i32_, r_.planned, full_lo, ci(0));
      r_.full_hi = sel(t_i32_, r_.planned, full_hi, ci(0));
    }
    r_.allowed = m_.local_variable(p_fn_i32_);
    // Inside runs the closed form could not narrow (natten, longformer, sinks), a tile that interval
    // analysis proves empty for this query tile is skipped; the test is uniform over the workgroup
    // (query tile, key tile, b, h, scalars), as the barriers in the body require.
    r_.test_tiles =
        plan_ && r_.has_mask && !plan_->ranges_exact && !Halide::Internal::is_const_zero(plan_->tile_empty);
  }

  // Key tile t: staged into workgroup memory, scored, and folded into the row's online softmax.
  void visit_key_tile(Id t) {
    const int BK = c_.block_kv;
    r_.k0 = imul(t, ci(BK));
    Id full = land(m_.op(Op::OpSGreaterThanEqual, t_bool_, {t, r_.full_lo}), ilt(t, r_.full_hi));
    if (c_.shared_tiles) stage_key_tile();
    score_key_tile(full);
    accumulate_key_tile();
  }

  // The K and V rows of the tile into workgroup memory (zeros past the end), between barriers.
  void stage_key_tile() {
    const int BK = c_.block_kv, WG = c_.workgroup_size();
    barrier();
    auto stage = [&](const Ssbo& src, Id dst, int dim) {
      loop(r_.lid, ci(BK * dim), ci(WG), [&](Id idx) {
        Id kv = iadd(r_.k0, idiv(idx, ci(dim)));
        Id ok = ilt(kv, r_.Lkv);
        Id at = iadd(imul(iadd(r_.kv_base, kv), ci(dim)), irem(idx, ci(dim)));
        Id x = load_io(src, sel(t_i32_, ok, at, ci(0)));
        store(shared_ptr(dst, idx), sel(t_f32_, ok, x, cf(0)));
      });
    };
    stage(k_, ks_, c_.head_dim);
    stage(v_, vs_, c_.value_dim);
    barrier();
  }

  // The row's scores against the tile's keys (masked ones -inf, NaN ones noted), and their max.
  void score_key_tile(Id full) {
    const int D = c_.head_dim, NQ = query_chunks();
    const float neg_inf = -INFINITY;
    store(r_.tile_max, cf(neg_inf));
    loop(ci(0), ci(c_.block_kv), ci(1), [&](Id j) {
      store(r_.partial_dot, cf(0));
      chunks(NQ, D, [&](Id i, Id d, bool partial) {
        if (partial) d = ext(GLSLstd450SMin, t_i32_, {d, ci(D - 1)});
        Id kx = key_at(j, d, k_, ks_, D);
        store(r_.partial_dot, fadd(load(t_f32_, r_.partial_dot), fmul(load(t_f32_, qreg(i)), kx)));
      });
      Id s = fmul(row_sum(load(t_f32_, r_.partial_dot)), cf(c_.scale));
      kv_ = iadd(r_.k0, j);
      r_.env.kv = kv_;
      store(r_.sv, cf(neg_inf));
      emit_if(m_, land(r_.row_ok, ilt(kv_, r_.Lkv)), [&] {
        auto score = [&] {
          ExprEnv senv = r_.env;
          senv.score = s;
          store(r_.sv, emit_expr(m_, senv, ir_.score));
        };
        if (!r_.has_mask) return score();
        // Tiles the plan proves full skip the mask (and its buffer reads).
        store(r_.allowed, sel(t_i32_, full, ci(1), ci(0)));
        emit_if(m_, m_.op(Op::OpLogicalNot, t_bool_, {full}),
                [&] { store(r_.allowed, sel(t_i32_, emit_expr(m_, r_.env, ir_.mask), ci(1), ci(0))); });
        emit_if(m_, m_.op(Op::OpINotEqual, t_bool_, {load(t_i32_, r_.allowed), ci(0)}), score);
      });
      Id x = load(t_f32_, r_.sv);
      Id is_nan = m_.op(Op::OpIsNan, t_bool_, {x});
      store(r_.nan_seen, sel(t_f32_, is_nan, cf(1), load(t_f32_, r_.nan_seen)));
      x = sel(t_f32_, is_nan, cf(neg_inf), x);
      store(score_ptr(j), x);
      store(r_.tile_max, ext(GLSLstd450FMax, t_f32_, {load(t_f32_, r_.tile_max), x}));
    });
  }

  // Online softmax: rescale by exp(m_old - m_new) and accumulate this tile. A row whose keys in
  // this tile are all masked skips the tile. A score equal to the max weighs exp(0) = 1 exactly,
  // also when both are +Inf (where the difference would be NaN): the keys scoring +Inf then share
  // the row.
  void accumulate_key_tile() {
    const int Dv = c_.value_dim, NV = value_chunks();
    const float neg_inf = -INFINITY;
    Id m_old = load(t_f32_, r_.m);
    Id m_new = ext(GLSLstd450FMax, t_f32_, {m_old, load(t_f32_, r_.tile_max)});
    auto weight = [&](Id x) {
      return sel(t_f32_, m_.op(Op::OpFOrdEqual, t_bool_, {x, m_new}), cf(1),
                 ext(GLSLstd450Exp, t_f32_, {fsub(x, m_new)}));
    };
    emit_if(m_, m_.op(Op::OpFOrdGreaterThan, t_bool_, {m_new, cf(neg_inf)}), [&] {
      Id corr = weight(m_old);
      store(r_.l, fmul(load(t_f32_, r_.l), corr));
      chunks(NV, Dv, [&](Id i, Id, bool) { store(acc(i), fmul(load(t_f32_, acc(i)), corr)); });
      loop(ci(0), ci(c_.block_kv), ci(1), [&](Id j) {
        Id p = weight(load(t_f32_, score_ptr(j)));
        store(r_.l, fadd(load(t_f32_, r_.l), p));
        chunks(NV, Dv, [&](Id i, Id d, bool partial) {
          if (partial) d = ext(GLSLstd450SMin, t_i32_, {d, ci(Dv - 1)});
          Id vx = key_at(j, d, v_, vs_, Dv);
          store(acc(i), fadd(load(t_f32_, acc(i)), fmul(p, vx)));
        });
      });
      store(r_.m, m_new);
    });
  }

  // Out = acc / l; a fully masked row (l == 0) gives 0 and LSE -inf; a NaN score NaN. The sink
  // (kernel option `sink`) is one more key of value 0, folded in once here: with logit t,
  // m' = max(m, t), l' = l e^(m - m') + e^(t - m'), acc e^(m - m') (t = -inf: nothing).
  void write_row() {
    const int Dv = c_.value_dim, NV = value_chunks();
    const float neg_inf = -INFINITY;
    emit_if(m_, r_.row_ok, [&] {
      Id lv = load(t_f32_, r_.l);
      Id kept_max = c_.row_max ? load(t_f32_, r_.m) : 0;  // the kept keys' (return_max), before the sink
      Id corr = cf(1), sink_nan = 0;
      if (ir_.sink.defined()) {
        kv_ = ci(-1);  // an out-of-range read of the sink's names no key (the loop's kv is out of scope)
        Id t = emit_expr(m_, r_.env, ir_.sink);
        sink_nan = m_.op(Op::OpIsNan, t_bool_, {t});
        Id m_old = load(t_f32_, r_.m);
        Id m_new = ext(GLSLstd450FMax, t_f32_, {m_old, t});
        // e^(x - m') as 1 where x == m' (both may be +inf), and 0 for a sink of -inf.
        auto weight = [&](Id x) {
          return sel(t_f32_, m_.op(Op::OpFOrdEqual, t_bool_, {x, m_new}), cf(1),
                     ext(GLSLstd450Exp, t_f32_, {fsub(x, m_new)}));
        };
        Id none = m_.op(Op::OpFOrdEqual, t_bool_, {t, cf(neg_inf)});
        corr = sel(t_f32_, none, cf(1), weight(m_old));
        lv = sel(t_f32_, none, lv, fadd(fmul(lv, corr), weight(t)));
        store(r_.m, sel(t_f32_, none, m_old, m_new));
      }
      Id has = m_.op(Op::OpFOrdGreaterThan, t_bool_, {lv, cf(0)});
      Id key_nan = m_.op(Op::OpFOrdNotEqual, t_bool_, {load(t_f32_, r_.nan_seen), cf(0)});
      Id row_nan = sink_nan ? m_.op(Op::OpLogicalOr, t_bool_, {key_nan, sink_nan}) : key_nan;
      Id inv = sel(t_f32_, has, m_.op(Op::OpFDiv, t_f32_, {corr, lv}), cf(0));
      Id o_base = imul(iadd(r_.row_base, qi_), ci(Dv));
      chunks(NV, Dv, [&](Id i, Id d, bool partial) {
        auto write = [&] {
          Id x = sel(t_f32_, row_nan, cf(NAN), fmul(load(t_f32_, acc(i)), inv));
          if (c_.f16_io) x = m_.op(Op::OpFConvert, out_.elem, {x});
          store(ssbo_ptr(out_, iadd(o_base, d)), x);
        };
        if (partial)
          emit_if(m_, ilt(d, ci(Dv)), write);
        else
          write();
      });
      if (c_.lse || c_.row_max)
        emit_if(m_, m_.op(Op::OpIEqual, t_bool_, {r_.lane, ci(0)}), [&] {
          if (c_.lse) {
            Id lse = fadd(load(t_f32_, r_.m), ext(GLSLstd450Log, t_f32_, {lv}));
            store(ssbo_ptr(lse_, iadd(r_.row_base, qi_)),
                  sel(t_f32_, row_nan, cf(NAN), sel(t_f32_, has, lse, cf(neg_inf))));
          }
          // The row maxima: -inf for a row that kept no key, NaN for a NaN score (not the sink's).
          if (c_.row_max)
            store(ssbo_ptr(max_, iadd(r_.row_base, qi_)), sel(t_f32_, key_nan, cf(NAN), kept_max));
        });
    });
  }

  // What body()'s steps hand on to the later ones: the row's ids and environments.
  struct Row {
    Id wg = 0, lid = 0, lane = 0, row_ok = 0;
    Id Hq = 0, Hkv = 0, Lq = 0, Lkv = 0, hk = 0, row_base = 0;
    Id qarr = 0, accarr = 0, partial_dot = 0, m = 0, l = 0, tile_max = 0, sv = 0, nan_seen = 0, scores = 0;
    Id kv_base = 0, tiles = 0, k0 = 0, allowed = 0;
    Id lo = 0, hi = 0, full_lo = 0, full_hi = 0;
    Id q0 = 0, planned = 0;  // the call's first query position; whether the plan's tiles apply (q0 == 0)
    ExprEnv env, penv;       // of the mask and score; of the plan's closed forms
    bool has_mask = false, test_tiles = false;
  };

  Row r_;
  const TilePlan* plan_;
  Ssbo q_, k_, v_, out_, lse_, max_;
  Id sg_size_ = 0, ks_ = 0, vs_ = 0, p_wg_f32_ = 0;
};

}  // namespace

SpirvConfig choose_config(const KernelIR& ir, const SpirvTarget& target, int head_dim, int value_dim) {
  require_no_fp8(ir, "vulkan");
  SpirvConfig c;
  const KernelOptions& o = ir.options;
  c.head_dim = o.head_dim ? o.head_dim : head_dim ? head_dim : kSpirvDefaultHeadDim;
  c.value_dim = o.value_dim ? o.value_dim : value_dim ? value_dim : c.head_dim;
  c.lanes = 1;
  if (target.subgroup_size > 1)
    while (c.lanes * 2 <= std::min(target.subgroup_size, 32)) c.lanes *= 2;
  c.rows = c.lanes == 1 ? 64 : 8;
  const int budget = std::min(target.shared_bytes, 32768) - 512;
  c.block_kv = o.block_kv ? o.block_kv : std::clamp(budget / ((c.head_dim + c.value_dim) * 4), 1, 32);
  if (c.block_kv * (c.head_dim + c.value_dim) * 4 > target.shared_bytes)
    throw KernelLimitError(ir, "head_dim " + std::to_string(c.head_dim) + " + value_dim " +
                                   std::to_string(c.value_dim) + " do not fit the device's shared memory (" +
                                   std::to_string(target.shared_bytes) + " bytes)");
  c.shared_tiles = !target.cpu;
  c.unroll_chunks = !target.cpu;
  c.f16_io = o.dtype == DType::F16 && target.f16_storage;
  c.lse = o.lse;
  c.row_max = o.return_max;
  c.scale = static_cast<float>(o.scale ? *o.scale : 1.0 / std::sqrt(static_cast<double>(c.head_dim)));
  c.spirv_version = target.vulkan_minor >= 2 ? 0x00010500 : 0x00010300;
  return c;
}

std::vector<uint32_t> emit_spirv_unchecked(const KernelIR& ir, SpirvConfig& config) {
  if (config.block_sparse) {
    try {
      auto plan = plan_tiles(ir, PlanTilesOptions{config.rows, config.block_kv});
      return KernelEmitter(ir, config, plan.get()).run();
    } catch (const std::logic_error&) {
      // A range the printer cannot express: visit every tile instead (still correct).
      config.block_sparse = false;
    }
  }
  return KernelEmitter(ir, config, nullptr).run();
}

}  // namespace attn::spirv
