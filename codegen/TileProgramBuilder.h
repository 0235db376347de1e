// Compiles Halide expressions into TilePrograms, which run without Halide (runtime/TileProgram.h).
#pragma once

#include <Halide.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/TileProgram.h"

namespace attn {

/// Thrown for an expression node that tile programs do not support (e.g. a transcendental call).
struct UnsupportedTileExpr : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Builds one TileProgram: inputs are named slots, Variables resolve to inputs or bound registers,
/// Image calls to Load ops on named buffers; identical subexpressions are emitted once.
class TileProgramBuilder {
 public:
  TileProgramBuilder(std::vector<std::string> inputs, std::vector<std::string> buffers);

  /// Makes Variable `name` read register `reg`; unbind undoes the latest bind of `name`.
  void bind(const std::string& name, int32_t reg);
  void unbind(const std::string& name) { names_[name].pop_back(); }
  /// Emits `e`; returns its register. Throws UnsupportedTileExpr.
  int32_t emit(const Halide::Expr& e);
  /// Emits `e`, or the constant `fallback` when `e` is unsupported (a condition that is then never
  /// proven, which keeps a plan sound).
  int32_t emit_or(const Halide::Expr& e, double fallback);
  int32_t emit_const(double v);
  /// Emits the min or max of buffer `buffer` over the box [lo, hi] (one register per dimension).
  int32_t emit_load_bound(int buffer, const std::vector<int32_t>& lo, const std::vector<int32_t>& hi,
                          bool max);
  /// Emits the run-time extent of dimension `dim` of buffer slot `buffer`.
  int32_t emit_extent(int buffer, int dim);
  /// Opens a loop over j in [0, extent) and returns j's register. Until end_loop, emitted ops run
  /// once per j, and expressions emitted before are not reused from inside (nor the reverse).
  int32_t begin_loop(int32_t extent);
  /// An accumulator of `loop` (the innermost open one): starts at `init`, combines `value` each
  /// iteration with `combine` (Add, Min or Max). Its register holds the result after end_loop.
  int32_t emit_accum(int32_t loop, int32_t init, int32_t value, TileOpCode combine, bool is_float);
  void end_loop(int32_t loop);
  /// The finished program returning `outputs`.
  TileProgram finish(std::vector<int32_t> outputs);

 private:
  int32_t push(TileOp op);
  int32_t emit_uncached(const Halide::Expr& e);
  int32_t emit_reduction(const Halide::Internal::Call& call);
  TileProgram prog_;
  std::map<std::string, std::vector<int32_t>> names_;  // a stack per name (lets shadow)
  std::map<const Halide::Internal::IRNode*, int32_t> memo_;
  std::vector<Halide::Expr> keep_;                                             // keeps memoized nodes alive
  std::vector<std::map<const Halide::Internal::IRNode*, int32_t>> loop_memo_;  // memo_ at each open loop
};

}  // namespace attn
