// Tile planning by interval analysis (Halide's bounds, and_condition_over_domain and solvers).
//
// A tile is the box q in [q_min, q_max] x kv in [kv_min, kv_max]. Two sufficient conditions are
// derived per tile: "the mask is false everywhere" (and_condition_over_domain of !mask) and "true
// everywhere" (of mask). On the symbolic tile (q_min = qt*BQ, kv_min = kt*BK) the solvers turn
// them into key-tile intervals per query tile: the outer interval of "not proven empty" holds
// every non-empty tile, the inner interval of "proven full" only full ones. Every step is a sound
// over- or under-approximation, so Empty and Full are correct by construction; what cannot be
// proven stays Partial. Buffer loads become variables bounded by the buffer's min/max over the
// load's index range, evaluated at run time by runtime/TilePlanner.
#include "codegen/PlanTiles.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "codegen/KernelIR.h"
#include "codegen/TilePlan.h"
#include "codegen/TileProgramBuilder.h"

namespace attn {

using namespace Halide;
using namespace Halide::Internal;

namespace {

Halide::Expr int_var(const std::string& name) { return Variable::make(Int(32), name); }

bool is_int(const Halide::Type& t) { return (t.is_int() || t.is_uint()) && t.bits() > 1; }

// Rewrites that give the bounds machinery something to work with: equalities become two
// inequalities (and_condition_over_domain gives up on ==), comparisons of bools and choices
// between them become and/or, `x % c` gets the exact
// `x - (x / c) * c` clamped to [0, c-1], which is tight when a tile stays inside one period, and
// int32(abs(x)) becomes max(x, -x).
class CanonicalizeForBounds : public IRMutator {
  using IRMutator::visit;
  Halide::Expr visit(const EQ* op) override {
    Halide::Expr a = mutate(op->a), b = mutate(op->b);
    if (op->a.type().is_bool()) return (a && b) || (!a && !b);
    if (!is_int(op->a.type())) return EQ::make(a, b);
    return a <= b && b <= a;
  }
  Halide::Expr visit(const NE* op) override {
    Halide::Expr a = mutate(op->a), b = mutate(op->b);
    if (op->a.type().is_bool()) return (a && !b) || (!a && b);
    if (!is_int(op->a.type())) return NE::make(a, b);
    return a < b || b < a;
  }
  // A choice between bools as and/or: and_condition_over_domain would relax a select's condition
  // like any other condition, which is unsound there (the plan of `kv % 3 == 0 ? q < 40 : kv < 50`
  // dropped every key tile but the first).
  Halide::Expr visit(const Select* op) override {
    if (!op->type.is_bool()) return IRMutator::visit(op);
    Halide::Expr c = mutate(op->condition), a = mutate(op->true_value), b = mutate(op->false_value);
    return (c && a) || (!c && b);
  }
  // int32(abs(x)) (what `abs` of an int lowers to): Halide bounds the unsigned abs, then gives
  // up on the cast back; max(x, -x) is the same value and bounds well.
  Halide::Expr visit(const Cast* op) override {
    const Call* c = op->value.as<Call>();
    if (!op->type.is_int() || !c || !c->is_intrinsic(Call::abs) || c->args[0].type() != op->type)
      return IRMutator::visit(op);
    Halide::Expr x = mutate(c->args[0]);
    return max(x, make_zero(op->type) - x);
  }
  Halide::Expr visit(const Mod* op) override {
    const int64_t* c = as_const_int(op->b);
    if (!c || *c <= 0 || !op->type.is_int()) return IRMutator::visit(op);
    Halide::Expr x = mutate(op->a), k = make_const(op->type, *c);
    return clamp(x - (x / k) * k, make_zero(op->type), k - 1);
  }
};

Halide::Expr canonicalize(const Halide::Expr& e) { return CanonicalizeForBounds().mutate(e); }

// Replaces each buffer load (innermost first) by a variable; identical loads share one.
class ReplaceLoads : public IRMutator {
 public:
  explicit ReplaceLoads(std::string prefix = "") : prefix_(std::move(prefix)) {}
  std::vector<TileLoad> loads;

 private:
  using IRMutator::visit;
  Halide::Expr visit(const Call* op) override {
    if (op->call_type != Call::Image) return IRMutator::visit(op);
    std::vector<Halide::Expr> args;
    for (const Halide::Expr& a : op->args) args.push_back(mutate(a));
    Halide::Expr load =
        Call::make(op->type, op->name, args, op->call_type, op->func, op->value_index, op->image, op->param);
    for (const TileLoad& l : loads)
      if (equal(l.load, load)) return Variable::make(op->type, l.var);
    TileLoad l;
    l.var = prefix_ + "ld" + std::to_string(loads.size());
    l.buffer = op->name;
    l.load = load;
    loads.push_back(l);
    return Variable::make(op->type, l.var);
  }
  std::string prefix_;
};

// Replaces each outermost bounded reduction by a variable bounded per tile (TileReduction).
class ReplaceReductions : public IRMutator {
 public:
  std::vector<TileReduction> reductions;

 private:
  using IRMutator::visit;
  Halide::Expr visit(const Call* op) override {
    const std::optional<Reduction> kind = reduction_of(*op);
    if (!kind) return IRMutator::visit(op);
    TileReduction r;
    r.var = "rd" + std::to_string(reductions.size());
    r.op = *kind;
    r.index = op->args[0].as<Variable>()->name;
    r.extent = op->args[1];
    r.body = op->args[2];
    reductions.push_back(r);
    if (op->type.is_bool()) return Variable::make(Int(32), r.var) != 0;
    return Variable::make(op->type, r.var);
  }
};

class FindLoads : public IRVisitor {
 public:
  std::set<std::string> buffers;

 private:
  using IRVisitor::visit;
  void visit(const Call* op) override {
    if (op->call_type == Call::Image) buffers.insert(op->name);
    IRVisitor::visit(op);
  }
};

std::set<std::string> buffers_read(const Halide::Expr& e) {
  FindLoads f;
  e.accept(&f);
  return f.buffers;
}

bool reads_buffer(const Halide::Expr& e) { return !buffers_read(e).empty(); }

// The top-level conjuncts of `e`.
void conjuncts(const Halide::Expr& e, std::vector<Halide::Expr>& out) {
  if (const auto* a = e.as<And>()) {
    conjuncts(a->a, out);
    conjuncts(a->b, out);
  } else {
    out.push_back(e);
  }
}

bool uses_var(const Halide::Expr& e, const std::string& name) { return expr_uses_var(e, name); }

// A condition that implies `cond` everywhere in `domain`; false where Halide's analysis fails.
Halide::Expr proven_over(const Halide::Expr& cond, const Scope<Interval>& domain) {
  try {
    return simplify(and_condition_over_domain(canonicalize(cond), domain));
  } catch (const Halide::Error&) {
    return const_false();
  }
}

// Bounds each load's indices over `scope` and puts its variable in scope (pop_loads removes them).
void bound_loads(std::vector<TileLoad>& loads, Scope<Interval>& scope) {
  for (TileLoad& l : loads) {
    for (const Halide::Expr& arg : l.load.as<Call>()->args) {
      Interval i = Interval::everything();
      try {
        i = bounds_of_expr_in_scope(arg, scope);
      } catch (const Halide::Error&) {
        // Unbounded: the whole buffer's min/max.
      }
      l.index_min.push_back(i.has_lower_bound() ? simplify(i.min) : Interval::neg_inf());
      l.index_max.push_back(i.has_upper_bound() ? simplify(i.max) : Interval::pos_inf());
    }
    const Halide::Type t = l.load.type();
    scope.push(l.var, Interval(Variable::make(t, l.var + "_min"), Variable::make(t, l.var + "_max")));
  }
}

void pop_loads(const std::vector<TileLoad>& loads, Scope<Interval>& scope) {
  for (const TileLoad& l : loads) scope.pop(l.var);
}

// The body's bounds for one value of the reduction's index, q, kv, b, h over the tile.
void bound_reduction(TileReduction& r, Scope<Interval>& scope) {
  const Halide::Expr j = int_var(r.index);
  scope.push(r.index, Interval(j, j));
  ReplaceLoads replace(r.var + "_");
  const Halide::Expr body = replace.mutate(r.body);
  r.loads = replace.loads;
  bound_loads(r.loads, scope);
  if (body.type().is_bool()) {
    r.lo = select(proven_over(body, scope), 1, 0);
    r.hi = select(proven_over(simplify(!body), scope), 0, 1);
  } else {
    Interval i = Interval::everything();
    try {
      i = bounds_of_expr_in_scope(body, scope);
    } catch (const Halide::Error&) {
      // Unbounded.
    }
    r.lo = i.has_lower_bound() ? simplify(i.min) : Interval::neg_inf();
    r.hi = i.has_upper_bound() ? simplify(i.max) : Interval::pos_inf();
  }
  r.lo = simplify(r.lo);
  r.hi = simplify(r.hi);
  pop_loads(r.loads, scope);
  scope.pop(r.index);
}

// The key-tile ranges of one query tile from the symbolic tile conditions.
std::vector<KeyTileRange> solve_ranges(const TilePlan& p, const Halide::Expr& tile_empty,
                                       const Halide::Expr& tile_full) {
  const Halide::Expr zero = 0, nk = p.kv_tiles;
  Halide::Expr lo = zero, hi = nk;
  Interval outer = solve_for_outer_interval(simplify(!tile_empty), "kt");
  if (outer.is_empty()) {
    hi = zero;  // every tile proven empty (no infinities leak into the Exprs)
  } else {
    if (outer.has_lower_bound() && !uses_var(outer.min, "kt")) lo = min(max(outer.min, zero), nk);
    if (outer.has_upper_bound() && !uses_var(outer.max, "kt")) hi = min(outer.max + 1, nk);
    hi = max(hi, lo);
  }
  Halide::Expr flo = lo, fhi = lo;
  if (!is_const_zero(tile_full)) {
    Interval inner = solve_for_inner_interval(tile_full, "kt");
    const bool usable = !inner.is_empty() && !(inner.has_lower_bound() && uses_var(inner.min, "kt")) &&
                        !(inner.has_upper_bound() && uses_var(inner.max, "kt"));
    if (usable) {
      flo = inner.has_lower_bound() ? min(max(inner.min, lo), hi) : lo;
      fhi = inner.has_upper_bound() ? min(max(inner.max + 1, flo), hi) : hi;
    }
  }
  // Query tiles and tile counts are never negative: lets the simplifier drop max(qt, 0) & co.
  Scope<Interval> natural;
  natural.push("qt", Interval(0, Interval::pos_inf()));
  natural.push("kv_tiles", Interval(0, Interval::pos_inf()));
  auto s = [&](const Halide::Expr& e) { return simplify(e, true, natural); };
  return {{s(lo), s(flo), TileKind::Partial},
          {s(flo), s(fhi), TileKind::Full},
          {s(fhi), s(hi), TileKind::Partial}};
}

// Compiles the plan's conditions and ranges into the Halide-free TilePlanProgram.
void compile_program(TilePlan& p, const Halide::Expr& element_mask, const std::vector<std::string>& scalars,
                     const std::vector<std::string>& buffers) {
  TilePlanProgram& prog = p.program;
  prog.block_q = p.block_q;
  prog.block_kv = p.block_kv;
  prog.scalars = scalars;
  prog.buffers = buffers;
  prog.index_only = p.index_only;
  auto with_scalars = [&](std::vector<std::string> v) {
    v.insert(v.end(), scalars.begin(), scalars.end());
    return v;
  };

  TileProgramBuilder tile(with_scalars({"q_min", "q_max", "kv_min", "kv_max", "b_min", "b_max", "h_min",
                                        "h_max", "q_len", "kv_len"}),
                          buffers);
  const double inf = std::numeric_limits<double>::infinity();
  auto emit_loads = [&](const std::vector<TileLoad>& loads) {
    for (const TileLoad& l : loads) {
      const auto it = std::find(buffers.begin(), buffers.end(), l.buffer);
      if (it == buffers.end()) {  // not a kernel argument (hand-built IR): nothing is known
        tile.bind(l.var + "_min", tile.emit_const(-inf));
        tile.bind(l.var + "_max", tile.emit_const(inf));
        continue;
      }
      const int buffer = static_cast<int>(it - buffers.begin());
      std::vector<int32_t> lo, hi;
      for (size_t d = 0; d < l.index_min.size(); ++d) {
        lo.push_back(tile.emit_or(l.index_min[d], -inf));
        hi.push_back(tile.emit_or(l.index_max[d], inf));
      }
      tile.bind(l.var + "_min", tile.emit_load_bound(buffer, lo, hi, false));
      tile.bind(l.var + "_max", tile.emit_load_bound(buffer, lo, hi, true));
    }
  };
  for (const TileReduction& r : p.reductions) {
    const bool boolean = r.body.type().is_bool();
    const double unknown_lo = boolean ? 0 : -inf, unknown_hi = boolean ? 1 : inf;
    int32_t extent = -1;
    try {
      extent = tile.emit(r.extent);
    } catch (const UnsupportedTileExpr&) {  // e.g. the extent of a buffer the mask does not read
      tile.bind(r.var + "_min", tile.emit_const(unknown_lo));
      tile.bind(r.var + "_max", tile.emit_const(unknown_hi));
      continue;
    }
    const int32_t init = boolean ? tile.emit_const(r.op == Reduction::All ? 1 : 0)
                                 : tile.emit(reduction_identity(r.op, r.body));
    const TileOpCode combine = r.op == Reduction::Sum                             ? TileOpCode::Add
                               : r.op == Reduction::Min || r.op == Reduction::All ? TileOpCode::Min
                                                                                  : TileOpCode::Max;
    const int32_t loop = tile.begin_loop(extent);
    tile.bind(r.index, loop);
    emit_loads(r.loads);
    const int32_t lo = tile.emit_or(r.lo, unknown_lo), hi = tile.emit_or(r.hi, unknown_hi);
    const bool is_float = r.body.type().is_float();
    tile.bind(r.var + "_min", tile.emit_accum(loop, init, lo, combine, is_float));
    tile.bind(r.var + "_max", tile.emit_accum(loop, init, hi, combine, is_float));
    tile.end_loop(loop);
    tile.unbind(r.index);
  }
  emit_loads(p.loads);
  const int32_t e = tile.emit_or(p.bounds_empty, 0), f = tile.emit_or(p.bounds_full, 0);
  prog.tile = tile.finish({e, f});

  TileProgramBuilder ranges(with_scalars({"qt", "q_tiles", "kv_tiles", "q_len", "kv_len", "b", "h"}),
                            buffers);
  try {
    std::vector<int32_t> out = {ranges.emit(p.ranges[0].begin), ranges.emit(p.ranges[1].begin),
                                ranges.emit(p.ranges[1].end), ranges.emit(p.ranges[2].end)};
    prog.ranges = ranges.finish(out);
  } catch (const UnsupportedTileExpr&) {
    TileProgramBuilder all(with_scalars({"qt", "q_tiles", "kv_tiles", "q_len", "kv_len", "b", "h"}), buffers);
    const int32_t zero = all.emit_const(0);
    prog.ranges = all.finish({zero, zero, zero, 2});  // input 2 is kv_tiles: all Partial
    p.ranges = {{0, 0, TileKind::Partial}, {0, 0, TileKind::Full}, {0, p.kv_tiles, TileKind::Partial}};
  }

  TileProgramBuilder element(with_scalars({"b", "h", "q", "kv", "q_len", "kv_len"}), buffers);
  try {
    prog.element = element.finish({element.emit(element_mask)});
  } catch (const UnsupportedTileExpr& e) {
    prog.element_error = e.what();
  }
}

// Whether per-tile refinement changes nothing on a few sample sizes (a hint, not a proof).
bool ranges_look_exact(const TilePlanProgram& prog) {
  if (!prog.index_only) return false;
  TilePlanProgram closed = prog, refined = prog;
  closed.ranges_exact = true;
  refined.ranges_exact = false;
  const int64_t bq = prog.block_q, bk = prog.block_kv;
  const int64_t sizes[][2] = {{bq * 37 + 5, bk * 37 + 5}, {bq * 20, bk * 45 + 1}, {bq * 45 + 3, bk * 20}};
  const std::vector<double> scalar_samples =
      prog.scalars.empty() ? std::vector<double>{0.0} : std::vector<double>{0.0, 1.0, 100.0, 1000.0};
  for (double s : scalar_samples)
    for (const auto& sz : sizes) {
      TilePlanInputs in;
      in.q_len = sz[0];
      in.kv_len = sz[1];
      in.b_lo = in.b_hi = in.h_lo = in.h_hi = 0;
      for (const std::string& n : prog.scalars) in.scalars[n] = s;
      const TileGrid a = plan_tile_grid(closed, in), b = plan_tile_grid(refined, in);
      if (a.row_begin != b.row_begin) return false;
      for (size_t i = 0; i < a.runs.size(); ++i)
        if (a.runs[i].begin != b.runs[i].begin || a.runs[i].end != b.runs[i].end ||
            a.runs[i].kind != b.runs[i].kind)
          return false;
    }
  return true;
}

}  // namespace

std::shared_ptr<const TilePlan> plan_tiles(const KernelIR& ir, const PlanTilesOptions& options) {
  auto plan = std::make_shared<TilePlan>();
  TilePlan& p = *plan;
  p.block_q = options.block_q > 0 ? options.block_q : ir.options.block_q > 0 ? ir.options.block_q : 64;
  p.block_kv = options.block_kv > 0 ? options.block_kv : ir.options.block_kv > 0 ? ir.options.block_kv : 64;
  p.qt = int_var("qt");
  p.kt = int_var("kt");
  p.kv_tiles = int_var("kv_tiles");
  p.q_min = int_var("q_min");
  p.q_max = int_var("q_max");
  p.kv_min = int_var("kv_min");
  p.kv_max = int_var("kv_max");
  p.b_min = int_var("b_min");
  p.b_max = int_var("b_max");
  p.h_min = int_var("h_min");
  p.h_max = int_var("h_max");
  p.mask = ir.mask.defined() ? simplify(ir.mask) : const_true();
  p.index_only = !reads_buffer(p.mask);

  // The arguments the mask reads, in declaration order, by the names the IR gives them.
  std::vector<std::string> scalars, buffers;
  const std::set<std::string> read = buffers_read(p.mask);
  for (const KernelArg& a : ir.args) {
    const std::string& name = a.param.name();
    if (a.kind == KernelArg::Kind::Scalar && uses_var(p.mask, name)) scalars.push_back(name);
    if (a.kind == KernelArg::Kind::Buffer && read.count(name)) buffers.push_back(name);
  }

  // Per-tile conditions over the tile's bounds, reductions and loads replaced by bounded variables.
  ReplaceReductions reductions;
  ReplaceLoads replace;
  const Halide::Expr masked = replace.mutate(reductions.mutate(p.mask));
  p.reductions = reductions.reductions;
  p.loads = replace.loads;
  Scope<Interval> scope;
  scope.push("q", Interval(p.q_min, p.q_max));
  scope.push("kv", Interval(p.kv_min, p.kv_max));
  scope.push("b", Interval(p.b_min, p.b_max));
  scope.push("h", Interval(p.h_min, p.h_max));
  for (TileReduction& r : p.reductions) {
    bound_reduction(r, scope);
    const Halide::Type t = r.body.type().is_bool() ? Int(32) : r.body.type();
    scope.push(r.var, Interval(Variable::make(t, r.var + "_min"), Variable::make(t, r.var + "_max")));
  }
  bound_loads(p.loads, scope);
  p.bounds_full = proven_over(masked, scope);
  p.bounds_empty = proven_over(simplify(!masked), scope);

  // Closed form on the symbolic tile, from the mask's index-only conjuncts.
  Halide::Expr relaxed = const_true();
  if (p.index_only) {
    relaxed = p.mask;
  } else {
    std::vector<Halide::Expr> parts;
    conjuncts(p.mask, parts);
    for (const Halide::Expr& c : parts)
      if (!reads_buffer(c)) relaxed = relaxed && c;
    relaxed = simplify(relaxed);
  }
  p.index_bounds_empty = p.index_only ? p.bounds_empty : proven_over(simplify(!relaxed), scope);
  Scope<Interval> tile;
  tile.push("q", Interval(p.qt * p.block_q, p.qt * p.block_q + (p.block_q - 1)));
  tile.push("kv", Interval(p.kt * p.block_kv, p.kt * p.block_kv + (p.block_kv - 1)));
  p.tile_empty = proven_over(simplify(!relaxed), tile);
  p.tile_full = p.index_only ? proven_over(relaxed, tile) : const_false();
  try {
    p.ranges = solve_ranges(p, p.tile_empty, p.tile_full);
  } catch (const Halide::Error&) {
    p.ranges = {{0, 0, TileKind::Partial}, {0, 0, TileKind::Full}, {0, p.kv_tiles, TileKind::Partial}};
  }

  compile_program(p, p.mask, scalars, buffers);
  p.ranges_exact = p.program.ranges_exact = ranges_look_exact(p.program);
  return plan;
}

const TilePlanProgram& tile_plan_program(const TilePlan& plan) { return plan.program; }

std::string print_tile_plan(const TilePlan& p) {
  std::ostringstream os;
  os << "plan: tiles " << p.block_q << "x" << p.block_kv << ", "
     << (p.index_only ? "index-only mask (closed form)" : "mask reads buffers (run-time planner)") << "\n";
  os << "  mask: " << p.mask << "\n";
  os << "  key tiles of query tile qt (others empty):\n";
  for (const KeyTileRange& r : p.ranges) {
    if (equal(r.begin, r.end)) continue;
    os << "    " << (r.kind == TileKind::Full ? "full    " : "partial ") << "[" << r.begin << ", " << r.end
       << ")\n";
  }
  os << "  ranges exact: " << (p.ranges_exact ? "yes" : "no (partial runs are refined per tile)") << "\n";
  os << "  tile (qt, kt) empty if: " << p.tile_empty << "\n";
  os << "  tile (qt, kt) full if: " << p.tile_full << "\n";
  for (const TileLoad& l : p.loads) {
    os << "  load " << l.var << " = " << l.load << ", index over [";
    for (size_t d = 0; d < l.index_min.size(); ++d)
      os << (d ? ", " : "") << l.index_min[d] << ".." << l.index_max[d];
    os << "]\n";
  }
  for (const TileReduction& r : p.reductions) {
    os << "  reduction " << r.var << " = " << kReductionNames[static_cast<int>(r.op)] << " over " << r.index
       << " < " << r.extent << ", per " << r.index << " in [" << r.lo << ", " << r.hi << "]\n";
    for (const TileLoad& l : r.loads) {
      os << "    load " << l.var << " = " << l.load << ", index over [";
      for (size_t d = 0; d < l.index_min.size(); ++d)
        os << (d ? ", " : "") << l.index_min[d] << ".." << l.index_max[d];
      os << "]\n";
    }
  }
  os << "  tile bounds empty if: " << p.bounds_empty << "\n";
  os << "  tile bounds full if: " << p.bounds_full << "\n";
  return os.str();
}

}  // namespace attn
