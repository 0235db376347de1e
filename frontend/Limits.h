// Bounds on what attnc compiles, so that every recursive pass stays within the stack.
#pragma once

#include <cstdint>

namespace attn {

/// The deepest expression the parser accepts. Brackets, `let` bodies and each operator of a chain
/// (`a + b + c` nests two levels) count as one level each. The parser, Sema, the formatter, the
/// language server and lowering all recurse over expressions; this keeps them well inside an
/// 8 MiB stack, sanitizer builds included.
constexpr int kMaxExpressionDepth = 512;

/// The deepest expression once every definition it uses is inlined (definitions calling
/// definitions add up). Lowering and Halide's passes recurse over the inlined expression.
constexpr int kMaxInlineDepth = 2048;

/// The most expression nodes lowering evaluates for one kernel. Inlining can grow exponentially
/// (`mask m0 = m1 || m1(q = q + 1);` and so on): past this, lowering stops with a diagnostic
/// instead of taking minutes and gigabytes.
constexpr int64_t kMaxInlinedNodes = 200000;

/// The largest source file attnc reads (the main file and each import).
constexpr uint64_t kMaxSourceBytes = uint64_t{64} << 20;

}  // namespace attn
