// The one IR every backend prints from: a kernel's mask and score as Halide expressions over the
// index variables, its run-time arguments and its options. Includes Halide.h: keep it out of
// headers that the CLI, the LSP and the runtime include (use codegen/Lower.h there).
#pragma once

#include <Halide.h>

#include <optional>
#include <string>
#include <vector>

#include "codegen/KernelOptions.h"
#include "frontend/Ast.h"

namespace attn {

/// A run-time argument of a kernel: a buffer (tensor parameter) or a scalar given at each call.
struct KernelArg {
  enum class Kind { Buffer, Scalar } kind;
  std::string name;
  ElemType elem = ElemType::F32;      ///< Buffer: element type; Scalar: I32/F32/Bool
  std::vector<std::string> dims;      ///< Buffer: dimension names as declared
  Halide::Internal::Parameter param;  ///< what the IR's loads / variables refer to
};

struct KernelIR {
  std::string name;         ///< the kernel's name in its .attn file
  std::string source_path;  ///< as given on the command line (for banners)
  SourceRange range;        ///< the kernel's name where it is declared (backend limits point here)
  /// Bool. Over the index variables, scalar arguments and buffer loads. Constant true when the
  /// kernel sets no mask.
  Halide::Expr mask;
  /// Float(32). Over `score`, the index variables, scalar arguments and buffer loads. The score
  /// variable itself when the kernel sets no score.
  Halide::Expr score;
  /// Float(32) over `b`, `h`, `q`, scalar arguments and buffer loads: the logit of the row's
  /// virtual sink key (value 0), added once per row to the softmax (docs/language.md, "Sinks").
  /// Undefined when the kernel sets no sink.
  Halide::Expr sink;
  std::vector<KernelArg> args;  ///< in declaration order
  KernelOptions options;

  const KernelArg* arg(const std::string& name) const {
    for (const KernelArg& a : args)
      if (a.name == name) return &a;
    return nullptr;
  }
};

/// The Int(32) variable for an index (`b`, `h`, `q`, `kv`, `q_len`, `kv_len`) and the Float(32) `score`
/// variable.
Halide::Expr index_var(IndexVar v);
Halide::Expr score_var();

/// True when neither the mask nor the score reads the head index `h`: then the query heads that
/// share a key/value head can share one tile's rows when decoding (one query row), as the CPU and
/// CUDA kernels do.
bool ignores_head_index(const KernelIR& ir);

/// True when `e` reads the key index `kv`.
bool reads_key_index(const Halide::Expr& e);

/// Buffer loads in the IR are Halide Image calls on the argument's Parameter; bool buffers are
/// stored as UInt(8) and compared with zero.
Halide::Type halide_elem_type(ElemType e);

}  // namespace attn
