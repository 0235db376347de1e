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

  void body() {
    const int R = c_.lanes, D = c_.head_dim, Dv = c_.value_dim, BK = c_.block_kv, WG = c_.workgroup_size();
    const int NQ = (D + R - 1) / R, NV = (Dv + R - 1) / R;
    const float neg_inf = -INFINITY;
    Id wg = load(m_.type_vector(t_u32_, 3), wg_id_);
    auto wg_i = [&](uint32_t k) {
      return m_.op(Op::OpBitcast, t_i32_, {m_.op(Op::OpCompositeExtract, t_u32_, {wg, k})});
    };
    Id lid = m_.op(Op::OpBitcast, t_i32_, {load(t_u32_, lid_)});
    Id row = idiv(lid, ci(R)), lane = irem(lid, ci(R));
    if (sg_size_) {
      // A row's lanes must share a subgroup: a device running this pipeline with smaller
      // subgroups than it reported gets code kSubgroupTooSmall, and the host runs without them.
      Id small =
          m_.op(Op::OpULessThan, t_bool_, {load(t_u32_, sg_size_), m_.const_uint(static_cast<uint32_t>(R))});
      emit_if(m_, small, [&] { store(ssbo_ptr(err_, ci(0)), ci(kSubgroupTooSmall)); });
    }
    Id Hq = shape(1), Hkv = shape(2), Lq = shape(3), Lkv = shape(4);
    b_ = wg_i(2);
    h_ = wg_i(1);
    qi_ = iadd(imul(wg_i(0), ci(c_.rows)), row);
    Id row_ok = ilt(qi_, Lq);
    Id hk = idiv(h_, idiv(Hq, Hkv));

    declare_error_record();

    ExprEnv env;
    env.glsl = glsl_;
    env.b = b_;
    env.h = h_;
    env.q = qi_;
    env.load = [this](const std::string& n, const std::vector<Id>& idx) { return load_buffer(n, idx); };
    env.extent = [this](const std::string& n, int dim) { return buffer_extent(n, dim); };
    env.scalars = load_scalars();

    // This lane's slice of the query row: d = lane + i * R.
    Id row_base = imul(iadd(imul(b_, Hq), h_), Lq);
    Id q_base = imul(iadd(row_base, qi_), ci(D));
    // Chunks d = lane + i * R of a row: unrolled with constant i on GPUs (registers), a loop on
    // CPU devices (llvmpipe's JIT time grows with the code). `partial`: d may pass `dim`.
    auto chunks = [&](int n, int dim, const std::function<void(Id i, Id d, bool partial)>& body) {
      if (c_.unroll_chunks) {
        for (int i = 0; i < n; ++i) body(ci(i), iadd(lane, ci(i * R)), (i + 1) * R > dim);
      } else {
        loop(ci(0), ci(n), ci(1), [&](Id i) { body(i, iadd(lane, imul(i, ci(R))), dim % R != 0); });
      }
    };
    Id qarr = f32_array(NQ), accarr = f32_array(NV);
    auto qreg = [&](Id i) { return m_.op(Op::OpAccessChain, p_fn_f32_, {qarr, i}); };
    auto acc = [&](Id i) { return m_.op(Op::OpAccessChain, p_fn_f32_, {accarr, i}); };
    chunks(NQ, D, [&](Id i, Id d, bool partial) {
      Id ok = partial ? land(row_ok, ilt(d, ci(D))) : row_ok;
      Id x = load_io(q_, sel(t_i32_, ok, iadd(q_base, d), ci(0)));
      store(qreg(i), sel(t_f32_, ok, x, cf(0)));
    });
    chunks(NV, Dv, [&](Id i, Id, bool) { store(acc(i), cf(0)); });
    Id partial_dot = m_.local_variable(p_fn_f32_);
    Id m = var_f32(neg_inf), l = var_f32(0), tile_max = var_f32(neg_inf), sv = var_f32(neg_inf);
    // 1 once an allowed key scored NaN: the row's Out and LSE are then NaN (docs/language.md,
    // "Non-finite values"). The key itself is kept out of the max and the sums, where GLSL's FMax
    // and Exp leave NaN undefined.
    Id nan_seen = var_f32(0);
    Id p_fn_scores =
        m_.type_pointer(StorageClass::Function, m_.type_array(t_f32_, static_cast<uint32_t>(BK)));
    Id scores = m_.local_variable(p_fn_scores);
    auto score_ptr = [&](Id j) { return m_.op(Op::OpAccessChain, p_fn_f32_, {scores, j}); };

    Id kv_base = imul(iadd(imul(b_, Hkv), hk), Lkv);
    Id tiles = idiv(iadd(Lkv, ci(BK - 1)), ci(BK));
    const bool has_mask = !Halide::Internal::is_const_one(ir_.mask);
    // Element d of key/value row j of the current tile: from the staged tile, or in place (the
    // row clamped into range: rows past the end are masked anyway).
    Id k0 = 0;
    auto key_at = [&](Id j, Id d, const Ssbo& src, Id tile, int dim) {
      if (c_.shared_tiles) return load(t_f32_, shared_ptr(tile, iadd(imul(j, ci(dim)), d)));
      Id kv = ext(GLSLstd450SMin, t_i32_, {iadd(k0, j), m_.op(Op::OpISub, t_i32_, {Lkv, ci(1)})});
      return load_io(src, iadd(imul(iadd(kv_base, kv), ci(dim)), d));
    };
    // The key tiles to visit, [lo, hi), and those proven full, [full_lo, full_hi): the plan's
    // closed forms for this query tile (uniform over the workgroup, as the barriers require).
    Id lo = ci(0), hi = tiles, full_lo = ci(0), full_hi = ci(0);
    ExprEnv penv = env;
    if (plan_) {
      penv.scalars[plan_->qt.as<Halide::Internal::Variable>()->name] = wg_i(0);
      penv.scalars[plan_->kv_tiles.as<Halide::Internal::Variable>()->name] = tiles;
      lo = hi = ci(0);
      for (size_t i = 0; i < plan_->ranges.size(); ++i) {
        const KeyTileRange& r = plan_->ranges[i];
        Id begin = emit_expr(m_, penv, r.begin), end = emit_expr(m_, penv, r.end);
        if (i == 0) lo = begin;
        if (i + 1 == plan_->ranges.size()) hi = end;
        if (r.kind == TileKind::Full) {
          full_lo = begin;
          full_hi = end;
        }
      }
    }
    Id allowed = m_.local_variable(p_fn_i32_);
    // Inside runs the closed form could not narrow (natten, longformer, sinks), a tile that interval
    // analysis proves empty for this query tile is skipped; the test is uniform over the workgroup
    // (query tile, key tile, b, h, scalars), as the barriers in the body require.
    const bool test_tiles =
        plan_ && has_mask && !plan_->ranges_exact && !Halide::Internal::is_const_zero(plan_->tile_empty);
    loop(lo, hi, ci(1), [&](Id t) {
      auto tile = [&] {
        k0 = imul(t, ci(BK));
        Id full = land(m_.op(Op::OpSGreaterThanEqual, t_bool_, {t, full_lo}), ilt(t, full_hi));
        if (c_.shared_tiles) {
          barrier();
          // Stage the K and V tiles (zeros past the end).
          auto stage = [&](const Ssbo& src, Id dst, int dim) {
            loop(lid, ci(BK * dim), ci(WG), [&](Id idx) {
              Id kv = iadd(k0, idiv(idx, ci(dim)));
              Id ok = ilt(kv, Lkv);
              Id at = iadd(imul(iadd(kv_base, kv), ci(dim)), irem(idx, ci(dim)));
              Id x = load_io(src, sel(t_i32_, ok, at, ci(0)));
              store(shared_ptr(dst, idx), sel(t_f32_, ok, x, cf(0)));
            });
          };
          stage(k_, ks_, D);
          stage(v_, vs_, Dv);
          barrier();
        }

        store(tile_max, cf(neg_inf));
        loop(ci(0), ci(BK), ci(1), [&](Id j) {
          store(partial_dot, cf(0));
          chunks(NQ, D, [&](Id i, Id d, bool partial) {
            if (partial) d = ext(GLSLstd450SMin, t_i32_, {d, ci(D - 1)});
            Id kx = key_at(j, d, k_, ks_, D);
            store(partial_dot, fadd(load(t_f32_, partial_dot), fmul(load(t_f32_, qreg(i)), kx)));
          });
          Id s = fmul(row_sum(load(t_f32_, partial_dot)), cf(c_.scale));
          kv_ = iadd(k0, j);
          env.kv = kv_;
          store(sv, cf(neg_inf));
          emit_if(m_, land(row_ok, ilt(kv_, Lkv)), [&] {
            auto score = [&] {
              ExprEnv senv = env;
              senv.score = s;
              store(sv, emit_expr(m_, senv, ir_.score));
            };
            if (!has_mask) return score();
            // Tiles the plan proves full skip the mask (and its buffer reads).
            store(allowed, sel(t_i32_, full, ci(1), ci(0)));
            emit_if(m_, m_.op(Op::OpLogicalNot, t_bool_, {full}),
                    [&] { store(allowed, sel(t_i32_, emit_expr(m_, env, ir_.mask), ci(1), ci(0))); });
            emit_if(m_, m_.op(Op::OpINotEqual, t_bool_, {load(t_i32_, allowed), ci(0)}), score);
          });
          Id x = load(t_f32_, sv);
          Id is_nan = m_.op(Op::OpIsNan, t_bool_, {x});
          store(nan_seen, sel(t_f32_, is_nan, cf(1), load(t_f32_, nan_seen)));
          x = sel(t_f32_, is_nan, cf(neg_inf), x);
          store(score_ptr(j), x);
          store(tile_max, ext(GLSLstd450FMax, t_f32_, {load(t_f32_, tile_max), x}));
        });

        // Online softmax: rescale by exp(m_old - m_new) and accumulate this tile. A row whose keys
        // in this tile are all masked skips the tile. A score equal to the max weighs exp(0) = 1
        // exactly, also when both are +Inf (where the difference would be NaN): the keys scoring
        // +Inf then share the row.
        Id m_old = load(t_f32_, m);
        Id m_new = ext(GLSLstd450FMax, t_f32_, {m_old, load(t_f32_, tile_max)});
        auto weight = [&](Id x) {
          return sel(t_f32_, m_.op(Op::OpFOrdEqual, t_bool_, {x, m_new}), cf(1),
                     ext(GLSLstd450Exp, t_f32_, {fsub(x, m_new)}));
        };
        emit_if(m_, m_.op(Op::OpFOrdGreaterThan, t_bool_, {m_new, cf(neg_inf)}), [&] {
          Id corr = weight(m_old);
          store(l, fmul(load(t_f32_, l), corr));
          chunks(NV, Dv, [&](Id i, Id, bool) { store(acc(i), fmul(load(t_f32_, acc(i)), corr)); });
          loop(ci(0), ci(BK), ci(1), [&](Id j) {
            Id p = weight(load(t_f32_, score_ptr(j)));
            store(l, fadd(load(t_f32_, l), p));
            chunks(NV, Dv, [&](Id i, Id d, bool partial) {
              if (partial) d = ext(GLSLstd450SMin, t_i32_, {d, ci(Dv - 1)});
              Id vx = key_at(j, d, v_, vs_, Dv);
              store(acc(i), fadd(load(t_f32_, acc(i)), fmul(p, vx)));
            });
          });
          store(m, m_new);
        });
      };
      if (!test_tiles) return tile();
      ExprEnv tenv = penv;
      tenv.scalars[plan_->kt.as<Halide::Internal::Variable>()->name] = t;
      emit_if(m_, m_.op(Op::OpLogicalNot, t_bool_, {emit_expr(m_, tenv, plan_->tile_empty)}), tile);
    });

    // Out = acc / l; a fully masked row (l == 0) gives 0 and LSE -inf; a NaN score NaN.
    emit_if(m_, row_ok, [&] {
      Id lv = load(t_f32_, l);
      Id has = m_.op(Op::OpFOrdGreaterThan, t_bool_, {lv, cf(0)});
      Id row_nan = m_.op(Op::OpFOrdNotEqual, t_bool_, {load(t_f32_, nan_seen), cf(0)});
      Id inv = sel(t_f32_, has, m_.op(Op::OpFDiv, t_f32_, {cf(1), lv}), cf(0));
      Id o_base = imul(iadd(row_base, qi_), ci(Dv));
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
      if (c_.lse)
        emit_if(m_, m_.op(Op::OpIEqual, t_bool_, {lane, ci(0)}), [&] {
          Id lse = fadd(load(t_f32_, m), ext(GLSLstd450Log, t_f32_, {lv}));
          store(ssbo_ptr(lse_, iadd(row_base, qi_)),
                sel(t_f32_, row_nan, cf(NAN), sel(t_f32_, has, lse, cf(neg_inf))));
        });
    });
    if (!bufs_.empty()) publish_error();
  }

  const TilePlan* plan_;
  Ssbo q_, k_, v_, out_, lse_;
  Id sg_size_ = 0, ks_ = 0, vs_ = 0, p_wg_f32_ = 0;
};

}  // namespace

SpirvConfig choose_config(const KernelIR& ir, const SpirvTarget& target, int head_dim, int value_dim) {
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
