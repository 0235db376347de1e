// The derivatives of a kernel's score modifier, taken from its IR: d score'/d score and, for each
// f32 buffer element the score reads, d score'/d buffer[index]. The backward kernels of every
// target print these expressions as they print the forward's score. Includes Halide.h (KernelIR.h).
#pragma once

#include <string>
#include <vector>

#include "codegen/KernelIR.h"

namespace attn {

/// One read site of an f32 buffer in the score: `buffer[index]` and the score's partial derivative
/// with respect to that element.
struct BufferGradient {
  std::string buffer;               ///< an f32 tensor parameter of the kernel
  std::vector<Halide::Expr> index;  ///< the index it is read at (Int(32) exprs)
  Halide::Expr partial;             ///< d score' / d buffer[index], Float(32)
};

/// Exprs over `score`, the index variables, scalar arguments and buffer loads, like KernelIR::score.
struct ScoreGradient {
  Halide::Expr dscore;                ///< d score' / d score, Float(32)
  std::vector<BufferGradient> reads;  ///< one per read site (a buffer may be read at 2+ indices)
  /// f32 buffers the score reads per term of a bounded reduction (`sum(j < n: t[j] * ...)`): one
  /// element per term, which no read site above describes. dscore covers them; their own gradient
  /// is not computed yet (GradientRequest validation refuses it).
  std::vector<std::string> reduced_reads;
};

/// The derivatives of `ir.score`, simplified like the forward. Non-differentiable points follow
/// PyTorch autograd (docs/language.md, "Backward"): abs'(0) = 0; min/max ties split the gradient
/// evenly (torch.minimum/maximum); a min of a max is clamp, whose bounds pass the gradient to x
/// (torch.clamp); floor, ceil, round, trunc and casts to int have derivative 0; select
/// differentiates the branch it takes; sum(j < n: e)' is sum(j < n: e'), max and min split the
/// gradient among the terms equal to the result. Read sites are in the order the score first reads them; two
/// loads of one buffer at structurally equal indices are one site. The mask is not differentiated.
ScoreGradient differentiate_score(const KernelIR& ir);

/// The derivatives of `ir.sink` with respect to the f32 buffer elements it reads, by the same rules
/// (`dscore` is undefined: the sink does not read the score). No read sites when it sets no sink.
ScoreGradient differentiate_sink(const KernelIR& ir);

}  // namespace attn
