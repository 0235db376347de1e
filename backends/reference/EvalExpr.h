// A plain evaluator of the IR's expressions at one point (b, h, q, kv, q_len, kv_len, score), used by the
// reference backend and by tests that check definitions element by element.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backends/io/KernelIO.h"
#include "codegen/KernelIR.h"

namespace attn {

/// The values of a kernel's run-time arguments, by position in `KernelIR::args`.
struct ArgValues {
  std::vector<const HostTensor*> buffers;  ///< null for scalar arguments
  std::vector<double> scalars;             ///< unused for buffer arguments
};

/// Where an expression is evaluated.
struct EvalPoint {
  int32_t idx[kNumIndexVars] = {};  ///< b, h, q, kv, q_len, kv_len (IndexVar's order)
  double score = 0;
  double* reduce_vars = nullptr;  ///< the values of the reduction variables in scope (CompiledExpr's)
};

/// An IR expression flattened once into a node array and evaluated many times. Integers are
/// evaluated exactly (64-bit); each Float(32) operation is computed in double and rounded to f32,
/// unless `round_f32` is false (finite-difference checks want the function without f32's steps).
class CompiledExpr {
 public:
  CompiledExpr(const Halide::Expr& e, const KernelIR& ir, bool round_f32 = true);
  ~CompiledExpr();
  CompiledExpr(CompiledExpr&&) noexcept;
  double eval(const EvalPoint& p, const ArgValues& args) const;

 private:
  struct Node;
  int add(const Halide::Expr& e, const KernelIR& ir);
  double eval_node(int n, const EvalPoint& p, const ArgValues& args) const;
  double eval_value(int n, const EvalPoint& p, const ArgValues& args) const;
  std::vector<Node> nodes_;
  std::vector<std::string> arg_names_;
  std::map<std::string, int> reduce_slots_;  ///< while flattening: reduction variable -> slot
  int num_slots_ = 0;
  int root_ = 0;
  bool round_f32_ = true;
};

/// The row-major element of `t` (buffer `name`) that `index` (one expression per dimension) reads
/// at p; throws EvalError naming the buffer, the index and the dimension when it is out of range.
int64_t checked_element(const HostTensor& t, const std::string& name, const std::vector<CompiledExpr>& index,
                        const EvalPoint& p, const ArgValues& args);

}  // namespace attn
